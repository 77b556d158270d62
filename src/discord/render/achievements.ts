// Achievements (issue 24) in words: the announcement of what a closing game earned, and the lines
// of /stats player. The codes and the rules are in src/stats/achievements.ts.
import { t, type Locale, type MessageKey } from '../../i18n';
import { ACHIEVEMENTS } from '../../stats/achievements';
import { mentions, type Payload } from './common';

const known = (code: string): boolean => (ACHIEVEMENTS as readonly string[]).includes(code);
const order = (code: string): number => (ACHIEVEMENTS as readonly string[]).indexOf(code);
const name = (loc: Locale, code: string) => t(loc, `ach.${code}.name` as MessageKey);
const desc = (loc: Locale, code: string) => t(loc, `ach.${code}.desc` as MessageKey);

/** The public message of a game's closing: who earned what (nobody is pinged). Null: nothing earned. */
export function achievementsPayload(
  loc: Locale,
  gameId: number,
  earned: readonly { userId: string; code: string }[],
): Payload | null {
  const rows = earned.filter((e) => known(e.code));
  if (rows.length === 0) return null;
  const lines = [...rows]
    .sort((a, b) => order(a.code) - order(b.code) || a.userId.localeCompare(b.userId))
    .map((e) =>
      t(loc, 'ach.announce.line', { user: `<@${e.userId}>`, name: name(loc, e.code), desc: desc(loc, e.code) }),
    );
  return { content: [t(loc, 'ach.announce', { id: gameId }), ...lines].join('\n'), allowed_mentions: mentions() };
}

/** /stats player: one line per achievement, name and meaning, in the catalog's order. */
export function achievementLines(loc: Locale, codes: readonly string[]): string[] {
  return codes
    .filter(known)
    .sort((a, b) => order(a) - order(b))
    .map((c) => t(loc, 'ach.line', { name: name(loc, c), desc: desc(loc, c) }));
}
