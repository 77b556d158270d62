// Renderers: engine views and events -> Discord message payloads, per audience (N-13). Public
// renderers read only publicView and public events, so they cannot show a role the rules hide.
import { ButtonStyle } from 'discord-api-types/v10';
import type { APIEmbed } from 'discord-api-types/v10';
import { prompts, publicView, seatView } from '../../engine/view';
import { RULESETS } from '../../engine/rulesets';
import { CHNU_BEST_VOTES, KIEV_PLACE_VOTES } from '../../engine/scoring';
import type { Seat } from '../../engine/types';
import { t, type Locale, type MessageKey } from '../../i18n';
import {
  button,
  buttonRows,
  mentions,
  row,
  seatList,
  seatSelect,
  seatTag,
  userOf,
  type GameCtx,
  type Payload,
} from './common';
import { roleName, rulesetName, seatLabel, untilText } from './words';

export const RED = 0xc0392b;

export const DARK = 0x2c2f33;

export const GOLD = 0xd4ac0d;

/** The stage line (public): what happens now and until when. */
export function stageLine(ctx: GameCtx, loc: Locale, deadline: number | null = ctx.state?.deadline ?? null): string {
  const s = ctx.state;
  if (!s) return t(loc, 'stage.lobby');
  const v = publicView(s);
  const st = v.stage;
  const n = s.clock.n;
  // G-7: a paused stage has no end to show.
  const until = s.paused ? ` · ${t(loc, 'stage.paused')}` : untilText(loc, deadline, s.pace === 'async');
  const who = st.speaker !== undefined ? seatTag(ctx, st.speaker) : '';
  switch (st.kind) {
    case 'night0':
      return t(loc, 'stage.night0') + until;
    case 'night':
      return t(loc, 'stage.night', { n }) + until;
    case 'turns':
      return t(loc, st.purpose === 'speech' ? 'stage.speech' : 'stage.accusation', { n, who }) + until;
    case 'window':
      return t(loc, st.purpose === 'speech' ? 'stage.window' : 'stage.accusationWindow', { n }) + until;
    case 'discussion':
      return t(loc, 'stage.discussion', { n }) + until;
    case 'vote':
      return (
        t(loc, st.round === 2 ? 'stage.revote' : 'stage.vote', { n, candidates: seatList(ctx, st.candidates ?? []) }) +
        until
      );
    case 'shootout':
      return t(loc, 'stage.shootout', { who }) + until;
    case 'voteAll':
      return t(loc, 'stage.voteAll', { candidates: seatList(ctx, st.candidates ?? []) }) + until;
    case 'lastWords':
      return t(loc, 'stage.lastWords', { who }) + until;
    case 'postGame':
      return t(loc, 'stage.postGame') + until;
    case 'over':
      return t(loc, 'stage.over');
  }
}

/** The table's round line: it changes once a round (so the table is edited rarely). */
export function phaseLine(ctx: GameCtx, loc: Locale): string {
  const s = ctx.state!;
  if (ctx.game.status === 'cancelled') return t(loc, 'table.cancelled');
  if (s.result) return t(loc, s.stage.kind === 'over' ? 'stage.over' : 'stage.postGame');
  // E-3: round k is day k and night k; night 0 comes before round 1.
  const round = s.clock.n === 0 ? t(loc, 'table.night0') : t(loc, 'table.round', { n: s.clock.n });
  return s.paused ? `${round} · ${t(loc, 'table.paused')}` : round;
}

function leftReason(loc: Locale, by: string, at: { phase: string; n: number }): string {
  return t(loc, `left.${by}` as MessageKey, {
    when: t(loc, at.phase === 'night' ? 'clock.night' : 'clock.day', { n: at.n }),
  });
}

/** The pinned table message: seats, who is at the table, fouls, the phase and the result. */
export function tablePayload(ctx: GameCtx): Payload {
  const loc = ctx.pub;
  const s = ctx.state;
  const g = ctx.game;
  const embed: APIEmbed = {
    title: t(loc, 'table.title', {
      id: g.id,
      ruleset: rulesetName(loc, g.ruleset),
      pace: t(loc, `pace.${g.pace}` as MessageKey),
    }),
    color: s?.result ? GOLD : s?.clock.phase === 'night' ? DARK : RED,
  };
  if (!s) return { embeds: [embed], allowed_mentions: mentions() };
  const v = publicView(s);
  const lines = v.seats.map((seat) => {
    const u = userOf(ctx, seat.seat);
    const name = u ? `<@${u}>` : '';
    const mark = seat.alive ? '🟢' : '💀';
    const role = seat.role ? ` — ${roleName(loc, seat.role)}` : '';
    const fouls = seat.fouls > 0 ? ` ⚠️${seat.fouls}` : '';
    const left = seat.left ? ` (${leftReason(loc, seat.left.by, seat.left.at)})` : '';
    return `${mark} **#${seat.seat}** ${name}${role}${fouls}${left}`;
  });
  embed.description = `**${phaseLine(ctx, loc)}**\n\n${lines.join('\n')}`;
  if (v.winner)
    embed.fields = [{ name: t(loc, 'table.result'), value: t(loc, `winner.${v.winner}` as MessageKey), inline: true }];
  embed.footer = { text: t(loc, 'table.footer', { id: g.id }) };
  const closed = s.stage.kind === 'over' || g.status === 'cancelled' || g.status === 'expired';
  return {
    embeds: [embed],
    components: closed
      ? []
      : [
          row(
            button({ kind: 'panel', game: g.id, panel: 'role' }, t(loc, 'button.myRole'), ButtonStyle.Secondary),
            button({ kind: 'panel', game: g.id, panel: 'actions' }, t(loc, 'button.myActions'), ButtonStyle.Primary),
            button({ kind: 'async', game: g.id, op: 'sofar' }, t(loc, 'button.soFar'), ButtonStyle.Secondary),
            button({ kind: 'async', game: g.id, op: 'watch' }, t(loc, 'button.watch'), ButtonStyle.Secondary),
            button({ kind: 'panel', game: g.id, panel: 'rules' }, t(loc, 'button.rules'), ButtonStyle.Secondary),
          ),
        ],
    allowed_mentions: mentions(),
  };
}

/** Who still owes a vote (names, so a player reading later knows who is missing). */
function waitingLine(ctx: GameCtx, loc: Locale, seats: readonly Seat[], total: number, doneKey: MessageKey): string {
  const done = total - seats.length;
  const line = t(loc, doneKey, { done, total });
  return seats.length === 0
    ? line
    : `${line} · ${t(loc, 'stage.waitingFor', { who: seats.map((x) => seatTag(ctx, x)).join(', ') })}`;
}

/**
 * The public message of the current stage or turn (a ping for the speaker), with its controls and
 * what it is waiting for. `deadline` is the end players see.
 */
export function stagePayload(ctx: GameCtx, deadline: number | null, closed = false): Payload | null {
  const s = ctx.state!;
  const loc = ctx.pub;
  const g = ctx.game.id;
  const seq = s.seq;
  const st = s.stage;
  // Closed: no countdown and no "paused" (the stage is over).
  const line = closed
    ? stageLine({ ...ctx, state: { ...s, paused: undefined } }, loc, null)
    : stageLine(ctx, loc, deadline);
  const v = publicView(s);
  const closedLine = t(loc, 'stage.closed');
  switch (st.kind) {
    case 'night0':
    case 'night':
    case 'discussion':
      return {
        content: `${st.kind === 'discussion' ? '💬' : '🌙'} ${line}${closed ? `\n${st.kind === 'discussion' ? closedLine : t(loc, 'stage.nightOver')}` : ''}`,
        allowed_mentions: mentions(),
      };
    case 'turns':
    case 'shootout':
    case 'lastWords': {
      const seat =
        st.kind === 'turns' ? st.order[st.index]! : st.kind === 'shootout' ? st.candidates[st.index]! : st.speaker;
      const u = userOf(ctx, seat);
      const rows: NonNullable<Payload['components']> = [];
      const prompts = seatView(s, seat).prompts;
      const nominate = prompts.find((p) => p.kind === 'nominate');
      // The speaker nominates right on his turn's message (a menu only he may use).
      if (nominate && 'targets' in nominate)
        rows.push(
          row(
            seatSelect(
              ctx,
              { kind: 'act', game: g, seq, verb: 'nominate' },
              t(loc, 'prompt.nominateBy', { seat }),
              nominate.targets,
            ),
          ),
        );
      const buttons = [
        button({ kind: 'act', game: g, seq, verb: 'pass' }, t(loc, 'button.thanks'), ButtonStyle.Success),
      ];
      if (prompts.some((p) => p.kind === 'guess'))
        buttons.push(
          button(
            { kind: 'act', game: g, seq, verb: 'menu', arg: 'guess' },
            t(loc, 'button.bestMove'),
            ButtonStyle.Primary,
          ),
        );
      if (prompts.some((p) => p.kind === 'take'))
        buttons.push(
          button({ kind: 'act', game: g, seq, verb: 'menu', arg: 'take' }, t(loc, 'button.take'), ButtonStyle.Danger),
        );
      rows.push(...(buttonRows(buttons) ?? []));
      const noms =
        st.kind === 'turns' && v.nominations.length > 0
          ? `\n${t(loc, 'table.candidates')}: ${v.nominations.map((nm) => t(loc, 'table.nomination', { target: seatTag(ctx, nm.target), by: `#${nm.by}` })).join(', ')}`
          : '';
      return {
        content: `🎤 ${line}${noms}${closed ? `\n${closedLine}` : ''}`,
        components: rows,
        allowed_mentions: pingsFor(ctx, u ? [seat] : []),
      };
    }
    case 'window': {
      const waiting = s.players
        .filter((p) => p.alive && prompts(s, p.seat).some((x) => x.kind === 'pass'))
        .map((p) => p.seat);
      const may = waiting.length + st.passed.length;
      const noms =
        v.nominations.length > 0
          ? `\n${t(loc, 'table.candidates')}: ${v.nominations.map((nm) => t(loc, 'table.nomination', { target: seatTag(ctx, nm.target), by: `#${nm.by}` })).join(', ')}`
          : '';
      return {
        content: `💬 ${line}\n${t(loc, st.purpose === 'speech' ? 'window.help' : 'window.helpAccusation')}${noms}\n${closed ? closedLine : waitingLine(ctx, loc, waiting, may, 'stage.doneCount')}`,
        components: [
          row(
            button(
              { kind: 'act', game: g, seq, verb: 'menu', arg: 'nominate' },
              t(loc, 'button.nominate'),
              ButtonStyle.Primary,
            ),
            button({ kind: 'act', game: g, seq, verb: 'pass' }, t(loc, 'button.done'), ButtonStyle.Success),
          ),
        ],
        allowed_mentions: pingsFor(ctx, waiting, true),
      };
    }
    case 'vote':
    case 'voteAll': {
      const waiting = s.players
        .filter((p) => p.alive && prompts(s, p.seat).some((x) => x.kind === 'vote' || x.kind === 'voteAll'))
        .map((p) => p.seat);
      const voted = st.ballots.filter((b) => b !== 0).length;
      const status = closed ? closedLine : waitingLine(ctx, loc, waiting, voted + waiting.length, 'stage.votedCount');
      const buttons =
        st.kind === 'vote'
          ? st.candidates.map((c) =>
              button({ kind: 'act', game: g, seq, verb: 'vote', arg: c }, seatLabel(ctx, c), ButtonStyle.Primary),
            )
          : [
              button(
                { kind: 'act', game: g, seq, verb: 'voteAll', arg: 'y' },
                t(loc, 'button.allLeaveYes'),
                ButtonStyle.Danger,
              ),
              button(
                { kind: 'act', game: g, seq, verb: 'voteAll', arg: 'n' },
                t(loc, 'button.allLeaveNo'),
                ButtonStyle.Success,
              ),
            ];
      // D-5: the vote's rules said before they apply: whether a player may vote for himself, and
      // what a missing vote counts as (the last candidate of this round, or an abstention).
      const help =
        st.kind === 'vote'
          ? `
${[
  t(loc, s.options.selfVote ? 'vote.once' : 'vote.onceNoSelf'),
  s.options.nonVoter === 'last-candidate'
    ? t(loc, 'vote.missing.last', { last: seatTag(ctx, st.candidates[st.candidates.length - 1]!) })
    : t(loc, 'vote.missing.abstain'),
  t(loc, 'vote.tallyLater'),
].join(' ')}`
          : '';
      return {
        content: `🗳️ ${line}${help}\n${status}`,
        components: buttonRows(buttons),
        allowed_mentions: pingsFor(ctx, waiting, true),
      };
    }
    case 'postGame': {
      const scoring = RULESETS[s.ruleset].scoring;
      if (scoring === 'classic') return { content: `🏆 ${t(loc, 'post.hostDecides')}`, allowed_mentions: mentions() };
      const all = s.players.map((p) => p.seat);
      const voted = s.postGame?.votes.filter((x) => x !== 0).length ?? 0;
      return {
        content: `🏆 ${t(loc, scoring === 'kiev' ? 'post.voteKiev' : 'post.voteChnu', { count: scoring === 'kiev' ? KIEV_PLACE_VOTES : CHNU_BEST_VOTES })}${closed ? '' : untilText(loc, deadline, s.pace === 'async')}\n${closed ? t(loc, 'post.closedLine') : t(loc, 'stage.votedCount', { done: voted, total: all.length })}`,
        // Closed: the menu goes (the final points are out; nothing here may be used any more).
        components: closed
          ? []
          : [row(seatSelect(ctx, { kind: 'act', game: g, seq, verb: 'best' }, t(loc, 'prompt.best'), all))],
        allowed_mentions: mentions(),
      };
    }
    case 'over':
      return null;
  }
}

/**
 * Issue 10: a stage's message pings the players it waits for (a speech: only the speaker), once —
 * Discord pings on the first post only, never on edits. Off with the server's `pings` setting.
 * Night messages ping nobody (N-13). Issue 21, a ping asks a person to act now: in a live game
 * the table is at the table, so only the speaker whose turn begins is pinged; a vote or a window
 * pings those it waits for only in a game over days (`everyone`: a call to all who owe an act).
 */
function pingsFor(ctx: GameCtx, seats: readonly Seat[], everyone = false): NonNullable<Payload['allowed_mentions']> {
  if ((ctx.game.ui as { settings?: { pings?: string } }).settings?.pings === 'off') return mentions();
  if (everyone && ctx.state?.pace !== 'async') return mentions();
  return mentions(seats.map((x) => userOf(ctx, x)).filter((u): u is string => u !== null));
}
