// Renderers: engine views and events -> Discord message payloads, per audience (N-13). Public
// renderers read only publicView and public events, so they cannot show a role the rules hide.
import { ButtonStyle } from 'discord-api-types/v10';
import type { APIEmbed } from 'discord-api-types/v10';
import { declinable } from '../../engine/night';
import { pointsNow, prompts, publicView, seatView, type PromptKind } from '../../engine/view';
import { RULESETS } from '../../engine/rulesets';
import type {
  Action,
  ActionKind,
  EventBody,
  GameEvent,
  PlayerActionKind,
  RefusalCode,
  Role,
  Seat,
  Team,
} from '../../engine/types';
import { hasKey, t, type Locale, type MessageKey } from '../../i18n';
import {
  button,
  buttonRows,
  mentions,
  relTime,
  row,
  seatList,
  seatSelect,
  seatTag,
  userOf,
  type GameCtx,
  type Payload,
} from './common';

const RED = 0xc0392b;
const DARK = 0x2c2f33;
const GOLD = 0xd4ac0d;

export function roleName(loc: Locale, role: Role): string {
  return t(loc, `role.${role}` as MessageKey);
}

export function teamName(loc: Locale, team: Team): string {
  return t(loc, `team.${team}` as MessageKey);
}

export function rulesetName(loc: Locale, ruleset: string): string {
  return t(loc, `ruleset.${ruleset}` as MessageKey);
}

/** "ends in 5 minutes (12 March 14:05)": relative and absolute, so a player reading later knows. */
export function untilText(loc: Locale, deadline: number | null): string {
  return deadline === null ? '' : ` ${t(loc, 'stage.until', { time: relTime(deadline) })}`;
}

/** The stage line (public): what happens now and until when. */
export function stageLine(ctx: GameCtx, loc: Locale, deadline: number | null = ctx.state?.deadline ?? null): string {
  const s = ctx.state;
  if (!s) return t(loc, 'stage.lobby');
  const v = publicView(s);
  const st = v.stage;
  const n = s.clock.n;
  // G-7: a paused stage has no end to show.
  const until = s.paused ? ` · ${t(loc, 'stage.paused')}` : untilText(loc, deadline);
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
      return t(loc, st.round === 2 ? 'stage.revote' : 'stage.vote', { n, candidates: seatList(ctx, st.candidates ?? []) }) + until;
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
function phaseLine(ctx: GameCtx, loc: Locale): string {
  const s = ctx.state!;
  if (ctx.game.status === 'cancelled') return t(loc, 'table.cancelled');
  if (s.result) return t(loc, s.stage.kind === 'over' ? 'stage.over' : 'stage.postGame');
  // E-3: round k is day k and night k; night 0 comes before round 1.
  const round = s.clock.n === 0 ? t(loc, 'table.night0') : t(loc, 'table.round', { n: s.clock.n });
  return s.paused ? `${round} · ${t(loc, 'table.paused')}` : round;
}

function leftReason(loc: Locale, by: string, at: { phase: string; n: number }): string {
  return t(loc, `left.${by}` as MessageKey, { when: t(loc, at.phase === 'night' ? 'clock.night' : 'clock.day', { n: at.n }) });
}

/** The pinned table message: seats, who is at the table, fouls, the phase and the result. */
export function tablePayload(ctx: GameCtx): Payload {
  const loc = ctx.pub;
  const s = ctx.state;
  const g = ctx.game;
  const embed: APIEmbed = {
    title: t(loc, 'table.title', { id: g.id, ruleset: rulesetName(loc, g.ruleset), pace: t(loc, `pace.${g.pace}` as MessageKey) }),
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
  if (v.winner) embed.fields = [{ name: t(loc, 'table.result'), value: t(loc, `winner.${v.winner}` as MessageKey), inline: true }];
  embed.footer = { text: t(loc, 'table.footer', { id: g.id }) };
  const closed = s.stage.kind === 'over' || g.status === 'cancelled' || g.status === 'expired';
  return {
    embeds: [embed],
    components: closed ? [] : [row(button({ kind: 'panel', game: g.id, panel: 'role' }, t(loc, 'button.myRole'), ButtonStyle.Secondary), button({ kind: 'panel', game: g.id, panel: 'actions' }, t(loc, 'button.myActions'), ButtonStyle.Primary), button({ kind: 'async', game: g.id, op: 'sofar' }, t(loc, 'button.soFar'), ButtonStyle.Secondary), button({ kind: 'async', game: g.id, op: 'watch' }, t(loc, 'button.watch'), ButtonStyle.Secondary))],
    allowed_mentions: mentions(),
  };
}

/** The role card (private): role, team, what it does, and (G-4) who the other black players are. */
export function roleCard(ctx: GameCtx, seat: Seat, loc: Locale): Payload {
  const s = ctx.state!;
  const v = seatView(s, seat);
  const def = RULESETS[s.ruleset];
  const descKey = (v.role === 'don' ? (def.shotRule === 'unanimous' ? 'roleDesc.don.unanimous' : 'roleDesc.don.decides') : v.role === 'mafia' ? (def.shotRule === 'unanimous' ? 'roleDesc.mafia.unanimous' : 'roleDesc.mafia.decides') : `roleDesc.${v.role}`) as MessageKey;
  const lines = [t(loc, descKey)];
  if (v.team === 'black') {
    if (v.knownBlack.length > 0) lines.push(t(loc, 'card.mates', { mates: v.knownBlack.map((k) => `${seatTag(ctx, k.seat)} — ${roleName(loc, k.role)}`).join(', ') }));
    else if (v.role === 'prostitute') lines.push(t(loc, 'card.prostituteAlone'));
  }
  if (v.checks.length > 0) {
    lines.push(`\n**${t(loc, 'card.checks')}**`);
    for (const c of v.checks) lines.push(checkLine(ctx, loc, c));
  }
  if (!v.alive) lines.push(`\n${t(loc, 'card.left')}`);
  return {
    embeds: [
      {
        title: t(loc, 'card.title', { role: roleName(loc, v.role), seat }),
        description: lines.join('\n'),
        color: v.team === 'black' ? DARK : RED,
        footer: { text: t(loc, 'card.footer', { id: ctx.game.id, team: teamName(loc, v.team), ruleset: rulesetName(loc, s.ruleset) }) },
      },
    ],
    allowed_mentions: mentions(),
  };
}

export function checkLine(ctx: GameCtx, loc: Locale, c: { target: Seat; at: { phase: string; n: number }; answer: string; kind: string }): string {
  return t(loc, 'check.line', {
    night: c.at.n,
    target: seatTag(ctx, c.target),
    answer: t(loc, `answer.${c.answer.replace(' ', '-')}` as MessageKey),
  });
}

/** Where each prompt shows in a player's panel (every player action has a place). */
const PROMPT_ORDER: { readonly [K in PromptKind]: number } = {
  shoot: 0,
  check: 1,
  askDon: 2,
  heal: 3,
  freeze: 4,
  kill: 5,
  nominate: 6,
  vote: 7,
  voteAll: 8,
  take: 9,
  guess: 10,
  best: 11,
  pass: 12,
  skip: 13,
};

/** The private confirmation of each player action (a check with the note has its own). */
const OK_KEYS = {
  pass: 'ok.pass',
  nominate: 'ok.nominate',
  vote: 'ok.vote',
  voteAll: 'ok.voteAll',
  shoot: 'ok.shoot',
  check: 'ok.check',
  askDon: 'ok.askDon',
  heal: 'ok.heal',
  freeze: 'ok.freeze',
  kill: 'ok.kill',
  skip: 'ok.skip',
  take: 'ok.take',
  guess: 'ok.guess',
  best: 'ok.best',
} as const satisfies Record<PlayerActionKind, MessageKey>;

/** A seat as a button or menu label: "#5 Alice" (mentions do not render there). */
export function seatLabel(ctx: GameCtx, seat: Seat): string {
  const u = userOf(ctx, seat);
  const name = u ? ctx.names.get(u) : undefined;
  return `#${seat}${name ? ` ${name}` : ''}`;
}

/** What "skip" declines for this seat tonight, said plainly. */
function skipLabel(ctx: GameCtx, seat: Seat, loc: Locale): string {
  const s = ctx.state!;
  if (s.stage.kind !== 'night') return t(loc, 'button.skip');
  const d = declinable(s, s.stage.acts, seat) ?? {};
  if ('askDon' in d) return t(loc, 'button.skip.askDon');
  if ('donCheck' in d || 'sheriffCheck' in d || 'commissioner' in d) return t(loc, 'button.skip.check');
  if ('heal' in d) return t(loc, 'button.skip.heal');
  if ('freeze' in d) return t(loc, 'button.skip.freeze');
  if ('maniac' in d) return t(loc, 'button.skip.kill');
  return t(loc, 'button.skip');
}

/**
 * What a seat may do now, as a private panel (DM or ephemeral): a menu or button per prompt.
 * `note` is a line shown above (a confirmation or a check answer).
 */
export function panelPayload(ctx: GameCtx, seat: Seat, loc: Locale, note?: string | null): Payload {
  const s = ctx.state!;
  const g = ctx.game.id;
  const seq = s.seq;
  const v = seatView(s, seat);
  const prompts = [...v.prompts].sort((a, b) => PROMPT_ORDER[a.kind] - PROMPT_ORDER[b.kind]);
  const rows: NonNullable<Payload['components']> = [];
  const buttons = [];
  for (const p of prompts) {
    switch (p.kind) {
      case 'shoot':
        rows.push(row(seatSelect(ctx, { kind: 'act', game: g, seq, verb: 'shoot' }, t(loc, 'prompt.shoot'), p.targets)));
        break;
      case 'check':
        rows.push(row(seatSelect(ctx, { kind: 'act', game: g, seq, verb: 'check' }, t(loc, `prompt.check.${p.as}`), p.targets)));
        if (p.note) rows.push(row(seatSelect(ctx, { kind: 'act', game: g, seq, verb: 'checkNote' }, t(loc, 'prompt.checkNote'), p.targets)));
        break;
      case 'heal':
      case 'freeze':
      case 'kill':
      case 'take':
      case 'best':
      case 'nominate':
        rows.push(row(seatSelect(ctx, { kind: 'act', game: g, seq, verb: p.kind }, t(loc, `prompt.${p.kind}`), p.targets)));
        break;
      case 'guess':
        rows.push(row(seatSelect(ctx, { kind: 'act', game: g, seq, verb: 'guess' }, t(loc, 'prompt.guess'), p.targets, [2, 3])));
        break;
      case 'vote':
        for (const c of p.targets) buttons.push(button({ kind: 'act', game: g, seq, verb: 'vote', arg: c }, seatLabel(ctx, c), ButtonStyle.Primary));
        break;
      case 'voteAll':
        buttons.push(button({ kind: 'act', game: g, seq, verb: 'voteAll', arg: 'y' }, t(loc, 'button.allLeaveYes'), ButtonStyle.Danger));
        buttons.push(button({ kind: 'act', game: g, seq, verb: 'voteAll', arg: 'n' }, t(loc, 'button.allLeaveNo'), ButtonStyle.Success));
        break;
      case 'askDon':
        buttons.push(button({ kind: 'act', game: g, seq, verb: 'askDon' }, t(loc, 'button.askDon', { seat: p.target }), ButtonStyle.Primary));
        break;
      case 'pass':
        buttons.push(button({ kind: 'act', game: g, seq, verb: 'pass' }, t(loc, s.stage.kind === 'window' ? 'button.done' : 'button.thanks'), ButtonStyle.Success));
        break;
      case 'skip':
        buttons.push(button({ kind: 'act', game: g, seq, verb: 'skip' }, skipLabel(ctx, seat, loc), ButtonStyle.Secondary));
        break;
      default: {
        const unhandled: never = p; // a new player action needs its control here
        void unhandled;
      }
    }
  }
  for (const r of buttonRows(buttons) ?? []) rows.push(r);
  const head = s.clock.phase === 'night' && s.stage.kind === 'night' ? t(loc, 'prompt.nightHead', { n: s.clock.n, time: relTime(s.deadline) }) : stageLine(ctx, loc);
  const body = prompts.length === 0 ? t(loc, s.stage.kind === 'night' && v.alive ? 'prompt.doneTonight' : 'prompt.nothing') : t(loc, 'prompt.choose');
  return {
    content: [note, `**${t(loc, 'prompt.title', { id: g, seat })}** — ${head}`, body].filter(Boolean).join('\n'),
    components: rows.slice(0, 5),
    allowed_mentions: mentions(),
  };
}

/** A night panel once its night is over: what was done, no controls. */
export function closedPanel(ctx: GameCtx, loc: Locale, seat: Seat, night: { clock: { n: number } }, note: string | null): Payload {
  return {
    content: [note, `**${t(loc, 'prompt.title', { id: ctx.game.id, seat })}** — ${t(loc, 'prompt.nightOver', { n: night.clock.n })}`].filter(Boolean).join('\n'),
    components: [],
    allowed_mentions: mentions(),
  };
}

/** The private confirmation of an accepted action, with a check's answer when there is one. */
export function confirmation(ctx: GameCtx, loc: Locale, seat: Seat, action: Action, events: readonly GameEvent[]): string {
  const answers = events.filter((e) => e.to.kind === 'seat' && e.to.seat === seat && e.body.type === 'check-result');
  const lines = answers.map((e) => (e.body.type === 'check-result' ? `🔎 ${checkLine(ctx, loc, e.body)}` : ''));
  const asked = action.kind === 'askDon' ? answers.find((e) => e.body.type === 'check-result' && e.body.kind === 'askDon') : undefined;
  const target = 'target' in action ? seatTag(ctx, action.target) : asked?.body.type === 'check-result' ? seatTag(ctx, asked.body.target) : '';
  const targets = 'targets' in action ? action.targets.map((x) => `#${x}`).join(', ') : '';
  const choice = action.kind === 'voteAll' ? t(loc, action.choice ? 'button.allLeaveYes' : 'button.allLeaveNo') : '';
  const okKeys: Partial<Record<ActionKind, MessageKey>> = OK_KEYS;
  const key = action.kind === 'check' && action.note ? 'ok.checkNote' : okKeys[action.kind]!;
  return [`✅ ${t(loc, key, { target, targets, choice })}`, ...lines].join('\n');
}

/** Who still owes a vote (names, so a player reading later knows who is missing). */
function waitingLine(ctx: GameCtx, loc: Locale, seats: readonly Seat[], total: number, doneKey: MessageKey): string {
  const done = total - seats.length;
  const line = t(loc, doneKey, { done, total });
  return seats.length === 0 ? line : `${line} · ${t(loc, 'stage.waitingFor', { who: seats.map((x) => seatTag(ctx, x)).join(', ') })}`;
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
  const line = stageLine(ctx, loc, deadline);
  const v = publicView(s);
  const closedLine = t(loc, 'stage.closed');
  switch (st.kind) {
    case 'night0':
    case 'night':
    case 'discussion':
      return { content: `${st.kind === 'discussion' ? '💬' : '🌙'} ${line}`, allowed_mentions: mentions() };
    case 'turns':
    case 'shootout':
    case 'lastWords': {
      const seat = st.kind === 'turns' ? st.order[st.index]! : st.kind === 'shootout' ? st.candidates[st.index]! : st.speaker;
      const u = userOf(ctx, seat);
      const rows: NonNullable<Payload['components']> = [];
      const prompts = seatView(s, seat).prompts;
      const nominate = prompts.find((p) => p.kind === 'nominate');
      // The speaker nominates right on his turn's message (a menu only he may use).
      if (nominate && 'targets' in nominate) rows.push(row(seatSelect(ctx, { kind: 'act', game: g, seq, verb: 'nominate' }, t(loc, 'prompt.nominateBy', { seat }), nominate.targets)));
      const buttons = [button({ kind: 'act', game: g, seq, verb: 'pass' }, t(loc, 'button.thanks'), ButtonStyle.Success)];
      if (prompts.some((p) => p.kind === 'guess')) buttons.push(button({ kind: 'act', game: g, seq, verb: 'menu', arg: 'guess' }, t(loc, 'button.bestMove'), ButtonStyle.Primary));
      if (prompts.some((p) => p.kind === 'take')) buttons.push(button({ kind: 'act', game: g, seq, verb: 'menu', arg: 'take' }, t(loc, 'button.take'), ButtonStyle.Danger));
      rows.push(...(buttonRows(buttons) ?? []));
      const noms = st.kind === 'turns' && v.nominations.length > 0 ? `\n${t(loc, 'table.candidates')}: ${v.nominations.map((nm) => t(loc, 'table.nomination', { target: seatTag(ctx, nm.target), by: `#${nm.by}` })).join(', ')}` : '';
      return { content: `🎤 ${line}${noms}`, components: rows, allowed_mentions: pingsFor(ctx, u ? [seat] : []) };
    }
    case 'window': {
      const waiting = s.players.filter((p) => p.alive && prompts(s, p.seat).some((x) => x.kind === 'pass')).map((p) => p.seat);
      const may = waiting.length + st.passed.length;
      const noms = v.nominations.length > 0 ? `\n${t(loc, 'table.candidates')}: ${v.nominations.map((nm) => t(loc, 'table.nomination', { target: seatTag(ctx, nm.target), by: `#${nm.by}` })).join(', ')}` : '';
      return {
        content: `💬 ${line}\n${t(loc, st.purpose === 'speech' ? 'window.help' : 'window.helpAccusation')}${noms}\n${closed ? closedLine : waitingLine(ctx, loc, waiting, may, 'stage.doneCount')}`,
        components: [row(button({ kind: 'act', game: g, seq, verb: 'menu', arg: 'nominate' }, t(loc, 'button.nominate'), ButtonStyle.Primary), button({ kind: 'act', game: g, seq, verb: 'pass' }, t(loc, 'button.done'), ButtonStyle.Success))],
        allowed_mentions: pingsFor(ctx, waiting),
      };
    }
    case 'vote':
    case 'voteAll': {
      const waiting = s.players.filter((p) => p.alive && prompts(s, p.seat).some((x) => x.kind === 'vote' || x.kind === 'voteAll')).map((p) => p.seat);
      const voted = st.ballots.filter((b) => b !== 0).length;
      const status = closed ? closedLine : waitingLine(ctx, loc, waiting, voted + waiting.length, 'stage.votedCount');
      const buttons =
        st.kind === 'vote'
          ? st.candidates.map((c) => button({ kind: 'act', game: g, seq, verb: 'vote', arg: c }, seatLabel(ctx, c), ButtonStyle.Primary))
          : [button({ kind: 'act', game: g, seq, verb: 'voteAll', arg: 'y' }, t(loc, 'button.allLeaveYes'), ButtonStyle.Danger), button({ kind: 'act', game: g, seq, verb: 'voteAll', arg: 'n' }, t(loc, 'button.allLeaveNo'), ButtonStyle.Success)];
      const help = st.kind === 'vote' ? `\n${t(loc, 'vote.help')}` : '';
      return { content: `🗳️ ${line}${help}\n${status}`, components: buttonRows(buttons), allowed_mentions: pingsFor(ctx, waiting) };
    }
    case 'postGame': {
      const scoring = RULESETS[s.ruleset].scoring;
      if (scoring === 'classic') return { content: `🏆 ${t(loc, 'post.hostDecides')}`, allowed_mentions: mentions() };
      const all = s.players.map((p) => p.seat);
      const voted = s.postGame?.votes.filter((x) => x !== 0).length ?? 0;
      return {
        content: `🏆 ${t(loc, scoring === 'kiev' ? 'post.voteKiev' : 'post.voteChnu')}${untilText(loc, deadline)}\n${closed ? closedLine : t(loc, 'stage.votedCount', { done: voted, total: all.length })}`,
        components: [row(seatSelect(ctx, { kind: 'act', game: g, seq, verb: 'best' }, t(loc, 'prompt.best'), all))],
        allowed_mentions: mentions(),
      };
    }
    case 'over':
      return null;
  }
}

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
          : t(loc, 'event.leftTonight', { who: body.out.map((o) => `${seatTag(ctx, o.seat)}${o.role ? ` — ${roleName(loc, o.role)}` : ''}`).join(', ') });
      const note = body.note ? `\n${t(loc, 'event.note', { seat: seatTag(ctx, body.note.seat), target: seatTag(ctx, body.note.target), answer: t(loc, `answer.${body.note.answer}` as MessageKey) })}` : '';
      return `☀️ ${head}\n${who}${note}`;
    }
    case 'left': {
      if (body.by === 'night') return null; // the morning announces it (N-12)
      // A vote's result already says who leaves; kiev-12 shows the card (G-6).
      const saidByVote = body.by === 'vote' && events.some((e) => e.body.type === 'vote-result' || e.body.type === 'vote-all-result');
      if (saidByVote) return body.role ? `🃏 ${seatTag(ctx, body.seat)} — ${roleName(loc, body.role)}` : null;
      return `${seatTag(ctx, body.seat)}${body.role ? ` — ${roleName(loc, body.role)}` : ''}: ${t(loc, `leftNow.${body.by}` as MessageKey)}`;
    }
    case 'vote-result': {
      const tally = body.tally.map((x) => t(loc, 'event.tally', { seat: seatTag(ctx, x.seat), count: x.votes, foul: x.foulVotes > 0 ? t(loc, 'event.foulVotes', { count: x.foulVotes }) : '' })).join('\n');
      const voters = body.voters.filter((x) => x.target !== null).map((x) => `#${x.seat}→#${x.target}${x.counted ? '*' : ''}`).join(' ');
      // What a tie leads to is said by what follows (the shootout, "shall all leave?", or nobody).
      const outcome = body.outcome === 'leaves' ? t(loc, 'event.voteLeaves', { seat: seatTag(ctx, body.leaving[0]!) }) : body.outcome === 'tie' ? t(loc, body.round === 2 ? 'event.voteTieAgain' : 'event.voteTie') : t(loc, 'event.voteNobody');
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
      if (body.what === 'extended') return t(loc, (body.seconds ?? 0) > 0 ? 'event.extended' : 'event.shortened', { delta: durationText(loc, Math.abs(body.seconds ?? 0)) });
      return t(loc, body.what === 'paused' ? 'event.paused' : 'event.resumed');
    case 'revived':
      return t(loc, 'event.revived', { seat: seatTag(ctx, body.seat) });
    default:
      return null;
  }
}

/** E-5: every role, the result, and who played what. */
export function resultEmbed(ctx: GameCtx): APIEmbed {
  const s = ctx.state!;
  const loc = ctx.pub;
  const res = s.result!;
  const pts = new Map((pointsNow(s) ?? []).map((p) => [p.seat, p.total]));
  const lines = s.players.map((p) => `**#${p.seat}** ${userOf(ctx, p.seat) ? `<@${userOf(ctx, p.seat)}>` : ''} — ${roleName(loc, p.role)}${p.alive ? '' : ' 💀'} · **${pts.get(p.seat) ?? 0}**`);
  const how = res.reason === 'host' ? t(loc, 'result.byHost') : res.reason === 'empty-rounds' ? t(loc, 'result.emptyRounds') : '';
  return {
    title: t(loc, `result.${res.winner}` as MessageKey),
    description: [how, lines.join('\n'), t(loc, 'result.pointsSoFar')].filter(Boolean).join('\n\n'),
    color: GOLD,
    footer: { text: t(loc, 'table.footer', { id: ctx.game.id }) },
  };
}

/** S-1..S-4: the points table once the post-game vote has closed. */
export function pointsPayload(ctx: GameCtx): Payload {
  const s = ctx.state!;
  const loc = ctx.pub;
  const res = s.result!;
  const pts = [...(res.points ?? [])].sort((a, b) => b.total - a.total || a.seat - b.seat);
  const lines = pts.map((p) => {
    const items = Object.entries(p.items)
      .map(([k, val]) => `${hasKey(`points.${k}`) ? t(loc, `points.${k}` as MessageKey) : k} ${val > 0 ? '+' : ''}${val}`)
      .join(', ');
    return `**${p.total}** — ${seatTag(ctx, p.seat)} (${roleName(loc, s.players[p.seat - 1]!.role)})${items ? ` · ${items}` : ''}`;
  });
  const best = res.bestPlayer ? t(loc, 'points.bestPlayerIs', { seat: seatTag(ctx, res.bestPlayer) }) : t(loc, 'points.noBestPlayer');
  return {
    embeds: [{ title: t(loc, 'points.title', { id: ctx.game.id }), description: `${best}\n\n${lines.join('\n')}`, color: GOLD }],
    allowed_mentions: mentions(),
  };
}

/** A duration in words: "1 h 30 min", "45 s" (units as each language writes them). */
export function durationText(loc: Locale, seconds: number): string {
  const units: [number, Record<Locale, string>][] = [
    [86_400, { en: 'd', uk: 'д', ru: 'д' }],
    [3_600, { en: 'h', uk: 'год', ru: 'ч' }],
    [60, { en: 'min', uk: 'хв', ru: 'мин' }],
    [1, { en: 's', uk: 'с', ru: 'с' }],
  ];
  const parts: string[] = [];
  let left = Math.max(0, Math.round(seconds));
  for (const [size, name] of units) {
    if (left >= size) {
      parts.push(`${Math.floor(left / size)} ${name[loc]}`);
      left %= size;
    }
  }
  return parts.length > 0 ? parts.slice(0, 2).join(' ') : `0 ${units[3]![1][loc]}`;
}

/** The text for a refusal code, in the user's language. */
export function refusalText(loc: Locale, code: RefusalCode): string {
  // Every code has its text (i18n/en.ts checks it); a code from outside that is none is shown generically.
  const key = `refusal.${code}` as const;
  return hasKey(key) ? t(loc, key) : t(loc, 'refusal.generic');
}

/**
 * Issue 10: a stage's message pings the players it waits for (a speech: only the speaker), once —
 * Discord pings on the first post only, never on edits. Off with the server's `pings` setting.
 * Night messages ping nobody (N-13).
 */
function pingsFor(ctx: GameCtx, seats: readonly Seat[]): NonNullable<Payload['allowed_mentions']> {
  if ((ctx.game.ui as { settings?: { pings?: string } }).settings?.pings === 'off') return mentions();
  return mentions(seats.map((x) => userOf(ctx, x)).filter((u): u is string => u !== null));
}
