// What the table is told of events: the announcements (who left, how, the night's result), the
// result of the game and the points.
import type { APIEmbed } from 'discord-api-types/v10';
import { RULESETS } from '../../engine/rulesets';
import { bestVoteTally } from '../../engine/scoring';
import { pointsNow } from '../../engine/view';
import type { EventBody, GameEvent } from '../../engine/types';
import { hasKey, t, type MessageKey } from '../../i18n';
import { mentions, seatList, seatTag, userOf, type GameCtx, type Payload } from './common';
import { durationText, roleName, scoreText } from './words';
import { GOLD } from './game';

/**
 * A public announcement for an engine event, or null when the event is not public news (or is
 * already said by another event of the same change).
 */
export function announcement(ctx: GameCtx, body: EventBody, events: readonly GameEvent[] = []): string | null {
  const loc = ctx.pub;
  switch (body.type) {
    case 'nominated':
      return t(loc, 'event.nominated', { by: seatTag(ctx, body.by), target: seatTag(ctx, body.target) });
    case 'morning': {
      const head = t(loc, 'event.morning', { n: body.night });
      const who =
        body.out.length === 0
          ? t(loc, 'event.nobodyLeft')
          : t(loc, 'event.leftTonight', {
              who: body.out
                .map((o) => `${seatTag(ctx, o.seat)}${o.role ? ` — ${roleName(loc, o.role)}` : ''}`)
                .join(', '),
            });
      const note = body.note
        ? `\n${t(loc, 'event.note', { seat: seatTag(ctx, body.note.seat), target: seatTag(ctx, body.note.target), answer: t(loc, `answer.${body.note.answer}` as MessageKey) })}`
        : '';
      return `☀️ ${head}\n${who}${note}`;
    }
    case 'left': {
      if (body.by === 'night') return null; // the morning announces it (N-12)
      // A vote's result already says who leaves; kiev-12 shows the card (G-6).
      const saidByVote =
        body.by === 'vote' && events.some((e) => e.body.type === 'vote-result' || e.body.type === 'vote-all-result');
      if (saidByVote) return body.role ? `🃏 ${seatTag(ctx, body.seat)} — ${roleName(loc, body.role)}` : null;
      return `${seatTag(ctx, body.seat)}${body.role ? ` — ${roleName(loc, body.role)}` : ''}: ${t(loc, `leftNow.${body.by}` as MessageKey)}`;
    }
    case 'vote-result': {
      const tally = body.tally
        .map((x) =>
          t(loc, 'event.tally', {
            seat: seatTag(ctx, x.seat),
            count: x.votes,
            foul: x.foulVotes > 0 ? t(loc, 'event.foulVotes', { count: x.foulVotes }) : '',
          }),
        )
        .join('\n');
      const voters = body.voters
        .filter((x) => x.target !== null)
        .map((x) => `#${x.seat}→#${x.target}${x.counted ? '*' : ''}`)
        .join(' ');
      // What a tie leads to is said by what follows (the shootout, "shall all leave?", or nobody).
      const outcome =
        body.outcome === 'leaves'
          ? t(loc, 'event.voteLeaves', { seat: seatTag(ctx, body.leaving[0]!) })
          : body.outcome === 'tie'
            ? t(loc, body.round === 2 ? 'event.voteTieAgain' : 'event.voteTie')
            : t(loc, 'event.voteNobody');
      return `🗳️ ${t(loc, body.round === 2 ? 'event.revoteResult' : 'event.voteResult')}\n${tally}\n${voters}${body.voters.some((x) => x.counted) ? `\n${t(loc, 'event.countedNote')}` : ''}\n**${outcome}**`;
    }
    case 'vote-all-result':
      return `🗳️ ${t(loc, body.passed ? 'event.allLeave' : 'event.allStay', { yes: body.yes.length, alive: body.alive, candidates: seatList(ctx, body.candidates) })}`;
    case 'no-vote':
      return t(loc, `event.noVote.${body.reason}` as MessageKey);
    case 'tie-no-break':
      return t(loc, 'event.tieNoBreak', { candidates: seatList(ctx, body.candidates) });
    case 'foul':
      return `⚠️ ${t(loc, 'event.foul', { seat: seatTag(ctx, body.seat), count: body.count, total: body.total })}${body.reason ? ` — ${body.reason.slice(0, 200)}` : ''}`;
    case 'speech-lost':
      return t(loc, 'event.speechLost', { seat: seatTag(ctx, body.seat), day: body.day });
    case 'best-move':
      return `🎯 ${t(loc, 'event.bestMove', { seat: seatTag(ctx, body.seat), targets: seatList(ctx, body.targets) })}`;
    case 'take':
      return `🗡️ ${t(loc, 'event.take', { seat: seatTag(ctx, body.seat), target: seatTag(ctx, body.target) })}`;
    case 'clock':
      if (body.what === 'extended')
        return t(loc, (body.seconds ?? 0) > 0 ? 'event.extended' : 'event.shortened', {
          delta: durationText(loc, Math.abs(body.seconds ?? 0)),
        });
      return t(loc, body.what === 'paused' ? 'event.paused' : 'event.resumed');
    case 'revived':
      return t(loc, 'event.revived', { seat: seatTag(ctx, body.seat) });
    default:
      return null;
  }
}

/** E-1..E-5: the first line of the end of a game: who won and why. */
export function endLine(ctx: GameCtx, body: Extract<EventBody, { type: 'game-over' }>): string {
  const loc = ctx.pub;
  const why =
    body.reason === 'host'
      ? t(loc, 'end.host')
      : body.reason === 'empty-rounds'
        ? t(loc, 'end.empty-rounds', { count: ctx.state?.options.emptyRoundsDraw ?? 3 })
        : body.why
          ? t(loc, `end.${body.why}` as MessageKey, { black: body.left.black, red: body.left.red })
          : '';
  const winner = t(loc, `winner.${body.winner}` as MessageKey);
  return why ? t(loc, 'end.line', { winner, why }) : `🏆 **${winner}.**`;
}

/**
 * E-5: every role and who played what, with the points so far (the first line says who won). Where
 * every point comes from the best-player vote (kiev-12, S-3), a column of zeros says nothing: the
 * roles alone, and that the points come with the vote.
 */
/** Issue 24: under the result, a casual game's word that it does not count, and the preset it was played with. */
function gameKindLines(ctx: GameCtx): string[] {
  const loc = ctx.pub;
  return [
    ...(ctx.game.preset ? [t(loc, 'result.preset', { name: ctx.game.preset })] : []),
    ...(ctx.game.rated ? [] : [t(loc, 'result.casual')]),
  ];
}

export function resultEmbed(ctx: GameCtx): APIEmbed {
  const s = ctx.state!;
  const loc = ctx.pub;
  const pts = new Map((pointsNow(s) ?? []).map((p) => [p.seat, p.total]));
  const any = [...pts.values()].some((x) => x !== 0);
  const lines = s.players.map(
    (p) =>
      `**#${p.seat}** ${userOf(ctx, p.seat) ? `<@${userOf(ctx, p.seat)}>` : ''} — ${roleName(loc, p.role)}${p.alive ? '' : ' 💀'}${any ? ` · **${scoreText(loc, pts.get(p.seat) ?? 0)}**` : ''}`,
  );
  return {
    title: t(loc, any ? 'result.rolesTitle' : 'result.rolesOnlyTitle'),
    description: [
      lines.join('\n'),
      t(loc, any ? 'result.pointsSoFar' : 'result.pointsByVote'),
      ...gameKindLines(ctx),
    ].join('\n\n'),
    color: GOLD,
    footer: { text: t(loc, 'table.footer', { id: ctx.game.id }) },
  };
}

/** S-4: how the post-game vote was counted and what came of it (said when it closes). */
export function bestVoteLines(ctx: GameCtx): string[] {
  const s = ctx.state!;
  const loc = ctx.pub;
  const tally = bestVoteTally(s);
  if (tally.outcome === 'host' || tally.outcome === 'none')
    return [
      tally.best !== null
        ? t(loc, 'points.bestPlayerIs', { seat: seatTag(ctx, tally.best) })
        : t(loc, 'points.noBestPlayer'),
    ];
  const list = tally.votes
    .map(
      (r) =>
        `${t(loc, 'best.entry', { seat: seatTag(ctx, r.seat), count: r.votes })}${r.host ? t(loc, 'best.hostMark') : ''}`,
    )
    .join(', ');
  const first = list ? t(loc, 'best.tally', { list }) : t(loc, 'best.tallyNone');
  const key: MessageKey =
    tally.outcome === 'short' && RULESETS[s.ruleset].scoring === 'kiev'
      ? 'best.outcome.kievShort'
      : `best.outcome.${tally.outcome}`;
  const seat = tally.best !== null ? seatTag(ctx, tally.best) : '';
  return [first, t(loc, key, { seat, count: tally.threshold })];
}

/** S-1..S-4: the points table once the post-game vote has closed. */
export function pointsPayload(ctx: GameCtx): Payload {
  const s = ctx.state!;
  const loc = ctx.pub;
  const res = s.result!;
  const pts = [...(res.points ?? [])].sort((a, b) => b.total - a.total || a.seat - b.seat);
  const lines = pts.map((p) => {
    const items = Object.entries(p.items)
      .map(
        ([k, val]) => `${hasKey(`points.${k}`) ? t(loc, `points.${k}` as MessageKey) : k} ${scoreText(loc, val, true)}`,
      )
      .join(', ');
    return `**${scoreText(loc, p.total)}** — ${seatTag(ctx, p.seat)} (${roleName(loc, s.players[p.seat - 1]!.role)})${items ? ` · ${items}` : ''}`;
  });
  return {
    embeds: [
      {
        title: t(loc, 'points.title', { id: ctx.game.id }),
        description: [bestVoteLines(ctx).join('\n'), lines.join('\n'), ...gameKindLines(ctx)].join('\n\n'),
        color: GOLD,
      },
    ],
    allowed_mentions: mentions(),
  };
}
