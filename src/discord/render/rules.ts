// "How to play" (issue 21): a short summary of a rule set in the reader's language, with the
// options and timers of the game it is asked for (or the rule set's defaults), for `/mafia rules`
// and the Rules button of the lobby and the table. From the rule book (docs/rules.md: teams G-2,
// night 0 G-4, night actions N-3..N-11, day D-1..D-10, fouls F-2/F-3, end E-1..E-3, points S-1..S-4).
import { RULESETS } from '../../engine/rulesets';
import type { GameOptions, Pace, RulesetId } from '../../engine/types';
import { t, type Locale, type MessageKey } from '../../i18n';
import { mentions, type Payload } from './common';
import { durationText, rulesetName } from './words';

/** Discord's limits of one embed: its description, and all of its text together. */
export const EMBED_DESCRIPTION_MAX = 4096;
export const EMBED_TOTAL_MAX = 6000;

export function rulesText(loc: Locale, ruleset: RulesetId, pace: Pace, o: GameOptions): string {
  const def = RULESETS[ruleset];
  const k = (key: string, params?: Record<string, string | number>) => t(loc, key as MessageKey, params);
  const d = (s: number) => durationText(loc, s);
  const kiev = def.dayShape === 'discussion-accusations';
  const head = (key: string) => `**${k(key)}**`;
  const out: string[] = [];
  out.push(head('rules.h.teams'), k(kiev ? 'rules.teams.kiev' : 'rules.teams.ten'), '');
  // Night: G-4, then each role's action (N-3..N-11), then the morning (N-12, G-6).
  out.push(head('rules.h.night'), k('rules.night0'));
  const roles: string[] = [];
  if (def.shotRule === 'unanimous') {
    roles.push(k('rules.role.mafiaUnanimous'), k('rules.role.donUnanimous'));
    roles.push(k(o.askDon ? 'rules.role.sheriffAskDon' : 'rules.role.sheriff'));
  } else roles.push(k('rules.role.mafiaDecides'));
  const comp = def.composition;
  if (comp.commissioner) roles.push(k('rules.role.commissioner'));
  if (comp.doctor) roles.push(k('rules.role.doctor'));
  if (comp.maniac) roles.push(k('rules.role.maniac'));
  if (comp.prostitute) roles.push(k('rules.role.prostitute'));
  roles.push(k('rules.role.civilian'));
  out.push(...roles.map((r) => `• ${r}`));
  out.push(k(def.revealOnLeave ? 'rules.morning.reveal' : 'rules.morning.hidden'), '');
  // Day: D-1 (or P-1's open window), the vote D-3..D-5, the tie D-7, last words D-9, D-8, D-10, fouls.
  const tm = o.timers;
  out.push(head('rules.h.day'));
  if (kiev)
    out.push(
      k(pace === 'async' ? 'rules.day.kievWindow' : 'rules.day.kiev', {
        discussion: d(tm.discussion),
        accusation: d(tm.accusation),
      }),
    );
  else
    out.push(
      pace === 'async'
        ? k('rules.day.window', { discussion: d(tm.discussion) })
        : k('rules.day.speeches', { speech: d(tm.speech) }),
    );
  const vote = [k('rules.vote', { vote: d(tm.vote) }), k(o.selfVote ? 'rules.vote.self' : 'rules.vote.noSelf')];
  vote.push(k(o.nonVoter === 'last-candidate' ? 'rules.vote.last' : 'rules.vote.abstain'));
  if (!kiev && !o.day1SingleCandidateVote) vote.push(k('rules.vote.day1Single'));
  if (o.minVotesToLeave > 0) vote.push(k('rules.vote.minVotes', { count: o.minVotesToLeave }));
  out.push(vote.join(' '));
  const tie = [
    k(o.tieAgain === 'all-leave-vote' ? 'rules.tie.allLeave' : 'rules.tie.nobody', { shootout: d(tm.shootout) }),
  ];
  if (o.noTieBreakAtAlive > 0) tie.push(k('rules.tie.small', { count: o.noTieBreakAtAlive }));
  out.push(tie.join(' '));
  out.push(
    k(def.nightKilledLastWords ? 'rules.lastWords.all' : 'rules.lastWords.vote', { lastWords: d(tm.lastWords) }),
  );
  if (o.donTake) out.push(k('rules.take'));
  if (def.bestMove) out.push(k('rules.bestMove'));
  out.push(k(def.fouls === 'warnings' ? 'rules.fouls.warnings' : 'rules.fouls.five'), '');
  // End: E-1/E-2 and E-3.
  out.push(head('rules.h.end'), k(def.win === 'parity' ? 'rules.end.parity' : 'rules.end.elimination'));
  if (o.emptyRoundsDraw > 0) out.push(k('rules.end.quiet', { count: o.emptyRoundsDraw }));
  out.push('', head('rules.h.points'), k(`rules.points.${def.scoring}`));
  // A command mention renders in a description, not in a footer.
  out.push('', k('rules.footer'));
  return out.join('\n');
}

/** The "how to play" embed (answered privately). */
export function rulesPayload(loc: Locale, ruleset: RulesetId, pace: Pace, o: GameOptions): Payload {
  const description = rulesText(loc, ruleset, pace, o).slice(0, EMBED_DESCRIPTION_MAX);
  return {
    embeds: [
      {
        title: t(loc, 'rules.title', { ruleset: rulesetName(loc, ruleset) }),
        description,
        color: 0x2e86c1,
      },
    ],
    allowed_mentions: mentions(),
  };
}
