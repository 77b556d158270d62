// The "Game so far" summary (issue 10): every public fact of a game, grouped by day and night.
import type { SeatHolder } from '../../db/async-store';
import type { GameRow, LoggedAction } from '../../db/store';
import { createGame } from '../../engine/apply';
import { publicFacts } from '../../engine/summary';
import { t, type Locale, type MessageKey } from '../../i18n';
import type { GameCtx, Payload } from './common';
import { announcement } from './news';
import { stageLine } from './game';

/** The "Game so far" text: every public fact, grouped by day and night (the same for /stats game). */
export function soFarText(
  ctx: GameCtx,
  loc: Locale,
  game: GameRow,
  log: readonly LoggedAction[],
  holders: readonly SeatHolder[] = [],
): string {
  const initial = createGame(game.ruleset, { roles: game.deal! }, game.options, game.pace, { now: game.startedAt! });
  const facts = publicFacts(initial, log);
  const c = { ...ctx, pub: loc };
  const events = facts.map((f) => ({ to: { kind: 'public' as const }, body: f.body }));
  const lines: string[] = [];
  let at = '';
  for (const f of facts) {
    const head = f.at.phase === 'day' ? t(loc, 'sofar.day', { n: f.at.n }) : t(loc, 'sofar.night', { n: f.at.n });
    const text =
      f.body.type === 'game-over'
        ? t(loc, 'sofar.winner', { winner: t(loc, `winner.${f.body.winner}` as MessageKey) })
        : announcement(
            c,
            f.body,
            events.filter(
              (e) =>
                e.body === f.body ||
                (f.body.type === 'left' && (e.body.type === 'vote-result' || e.body.type === 'vote-all-result')),
            ),
          );
    if (!text) continue;
    if (head !== at) {
      lines.push(head);
      at = head;
    }
    lines.push(text);
  }
  if (lines.length === 0) lines.push(t(loc, 'sofar.nothing'));
  // Substitutions were announced in the channel: who held each seat, in order.
  const subs = [...new Set(holders.filter((h) => h.fromMove > 0).map((h) => h.seat))].sort((a, b) => a - b);
  if (subs.length > 0) {
    lines.push('', t(loc, 'sofar.subsHead'));
    for (const seat of subs)
      lines.push(
        t(loc, 'sofar.subs', {
          seat,
          who: holders
            .filter((h) => h.seat === seat)
            .map((h) => `<@${h.userId}>`)
            .join(' → '),
        }),
      );
  }
  if (ctx.state && ctx.state.stage.kind !== 'over')
    lines.push('', t(loc, 'sofar.now', { stage: stageLine(c, loc, ctx.state.deadline) }));
  return lines.join('\n');
}

export function soFarReply(
  ctx: GameCtx,
  loc: Locale,
  game: GameRow,
  log: readonly LoggedAction[],
  holders: readonly SeatHolder[],
): { embeds: NonNullable<Payload['embeds']>; allowedMentions: { parse: [] } } {
  let text = soFarText(ctx, loc, game, log, holders);
  if (text.length > 4000) text = `${t(loc, 'sofar.cut')}\n${text.slice(text.length - 3900)}`;
  return {
    embeds: [{ title: t(loc, 'sofar.title', { id: game.id }), description: text, color: 0x7f8c8d }],
    allowedMentions: { parse: [] },
  };
}
