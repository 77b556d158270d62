// The typed codec of every button and menu id (versioned, at most 100 characters). An id names
// a game, the stage it belongs to and what it does; it never names the acting seat: who acts is
// always the clicking user, checked against the seat.
//   v1:l:<game>:<op>                 lobby: join, leave, start, fallback (start with closed DMs), cancel
//   v1:p:<game>:<panel>              public panels: my role, my actions, rules (how to play)
//   v1:a:<game>:<seq>:<verb>[:<arg>] a game action for the stage <seq>
//   v1:h:<game>:<seq>:<op>[:<page>]  the host panel's controls (ephemeral; checked for the host again)
//   v1:y:<game>:<op>[:<n>]           asynchronous play: sofar, call:<seat> (host), vol:<call>, pick:<call>, watch
//   v1:t:<tournament>:<op>[:<a>[:<b>]] a tournament: join, leave, draw, final, start:<round>:<table>,
//                                      standings page:<n>, csv, mine (standings to the clicker)
import { presetName } from '../app/presets';
import type { PlayerActionKind } from '../engine/types';

export type LobbyOp = 'join' | 'leave' | 'start' | 'fallback' | 'cancel';
export type Panel = 'role' | 'actions' | 'rules';
/**
 * A player's control: one per player action (the engine's PlayerActionKind), the check with the
 * Commissioner's note, and `menu`, which opens an ephemeral menu (nominate, best move, take) for
 * the clicking player.
 */
export type ActVerb = PlayerActionKind | 'checkNote' | 'menu';

/** The host panel's controls (G-7): refresh, overrides of the stage <seq>, the log's pages. */
const HOST_OPS = ['refresh', 'pause', 'resume', 'skip', 'undo', 'more', 'less', 'log'] as const;
export type HostOp = (typeof HOST_OPS)[number];

export type CustomId =
  | { kind: 'lobby'; game: number; op: LobbyOp }
  | { kind: 'host'; game: number; seq: number; op: HostOp; page?: number }
  | { kind: 'panel'; game: number; panel: Panel }
  | { kind: 'act'; game: number; seq: number; verb: ActVerb; arg?: number | 'y' | 'n' | ActVerb }
  | { kind: 'tour'; tournament: number; op: TourOp; a?: number; b?: number }
  | { kind: 'async'; game: number; op: AsyncOp; n?: number };

/** Issue 10: the "Game so far" button, a host's call for a substitute, volunteering, the host's pick. */
export type AsyncOp = 'sofar' | 'call' | 'vol' | 'pick' | 'watch';
const ASYNC_OPS: readonly AsyncOp[] = ['sofar', 'call', 'vol', 'pick', 'watch'];

export type TourOp = 'join' | 'leave' | 'draw' | 'final' | 'start' | 'page' | 'csv' | 'mine';
const TOUR_OPS: readonly TourOp[] = ['join', 'leave', 'draw', 'final', 'start', 'page', 'csv', 'mine'];

const LOBBY_OPS: readonly LobbyOp[] = ['join', 'leave', 'start', 'fallback', 'cancel'];
const PANELS: readonly Panel[] = ['role', 'actions', 'rules'];
/** Every verb (a new player action does not compile without its control's verb here). */
const VERB_TABLE: { readonly [V in ActVerb]: true } = {
  pass: true,
  nominate: true,
  vote: true,
  voteAll: true,
  shoot: true,
  check: true,
  checkNote: true,
  askDon: true,
  heal: true,
  freeze: true,
  kill: true,
  skip: true,
  take: true,
  guess: true,
  best: true,
  menu: true,
};
const VERBS = Object.keys(VERB_TABLE) as readonly ActVerb[];

const POSITIVE = /^[1-9]\d{0,9}$/;

export function encodeId(id: CustomId): string {
  let s: string;
  switch (id.kind) {
    case 'lobby':
      s = `v1:l:${id.game}:${id.op}`;
      break;
    case 'panel':
      s = `v1:p:${id.game}:${id.panel}`;
      break;
    case 'act':
      s = `v1:a:${id.game}:${id.seq}:${id.verb}${id.arg === undefined ? '' : `:${id.arg}`}`;
      break;
    case 'host':
      s = `v1:h:${id.game}:${id.seq}:${id.op}${id.page === undefined ? '' : `:${id.page}`}`;
      break;
    case 'async':
      s = `v1:y:${id.game}:${id.op}${id.n === undefined ? '' : `:${id.n}`}`;
      break;
    case 'tour':
      s = `v1:t:${id.tournament}:${id.op}${id.a === undefined ? '' : `:${id.a}`}${id.a !== undefined && id.b !== undefined ? `:${id.b}` : ''}`;
      break;
  }
  if (s.length > 100) throw new Error(`custom id too long: ${s}`);
  return s;
}

/** Parses a custom id from Discord; anything malformed or unknown gives null. */
export function decodeId(raw: unknown): CustomId | null {
  if (typeof raw !== 'string' || raw.length > 100) return null;
  const parts = raw.split(':');
  if (parts[0] !== 'v1' || parts.length < 4) return null;
  const [, kind, gameRaw, ...rest] = parts;
  if (!POSITIVE.test(gameRaw!)) return null;
  const game = Number(gameRaw);
  if (!Number.isSafeInteger(game)) return null;
  if (kind === 'l' && rest.length === 1 && (LOBBY_OPS as string[]).includes(rest[0]!)) {
    return { kind: 'lobby', game, op: rest[0] as LobbyOp };
  }
  if (kind === 'p' && rest.length === 1 && (PANELS as string[]).includes(rest[0]!)) {
    return { kind: 'panel', game, panel: rest[0] as Panel };
  }
  if (kind === 'h' && (rest.length === 2 || rest.length === 3)) {
    const [seqRaw, op, page] = rest;
    if (!/^\d{1,9}$/.test(seqRaw!) || !(HOST_OPS as readonly string[]).includes(op!)) return null;
    const out: CustomId = { kind: 'host', game, seq: Number(seqRaw), op: op as HostOp };
    if (page !== undefined) {
      if (!/^\d{1,4}$/.test(page)) return null;
      out.page = Number(page);
    }
    return out;
  }
  if (kind === 'y' && (rest.length === 1 || rest.length === 2) && (ASYNC_OPS as string[]).includes(rest[0]!)) {
    const out: CustomId = { kind: 'async', game, op: rest[0] as AsyncOp };
    if (rest[1] !== undefined) {
      if (!POSITIVE.test(rest[1])) return null;
      out.n = Number(rest[1]);
    }
    return out;
  }
  if (kind === 't' && rest.length >= 1 && rest.length <= 3 && (TOUR_OPS as string[]).includes(rest[0]!)) {
    const [op, a, b] = rest;
    if ((a !== undefined && !/^\d{1,6}$/.test(a)) || (b !== undefined && !/^\d{1,6}$/.test(b))) return null;
    const out: CustomId = { kind: 'tour', tournament: game, op: op as TourOp };
    if (a !== undefined) out.a = Number(a);
    if (b !== undefined) out.b = Number(b);
    return out;
  }
  if (kind === 'a' && (rest.length === 2 || rest.length === 3)) {
    const [seqRaw, verb, arg] = rest;
    if (!/^\d{1,9}$/.test(seqRaw!) || !(VERBS as readonly string[]).includes(verb!)) return null;
    const out: CustomId = { kind: 'act', game, seq: Number(seqRaw), verb: verb as ActVerb };
    if (arg !== undefined) {
      if (POSITIVE.test(arg) && Number(arg) <= 100) out.arg = Number(arg);
      else if (arg === 'y' || arg === 'n') out.arg = arg;
      else if ((VERBS as readonly string[]).includes(arg)) out.arg = arg as ActVerb;
      else return null;
    }
    return out;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// /stats views (issue 12): stateless, so pages and "show to the channel" work after a restart.
//   v1:s:t:<ruleset>:<period>:<by>:<tournament|0>:<page>[:<preset>]   /stats top (T: show to the channel)
//   v1:s:p:<ruleset>:<period>:<user>:<tournament|0>        /stats player (P: show)
//   v1:s:g:<game>:<page>                                   /stats game (G: show)
// <period>: `a` (all time), `d<N>` (last N days), `s<id>` (a season).

export type StatsPeriodCode = 'a' | `d${number}` | `s${number}`;

export type StatsId =
  | {
      view: 'top';
      show: boolean;
      ruleset: string;
      period: StatsPeriodCode;
      by: 'points' | 'elo';
      tournament: number;
      page: number;
      /** Issue 24: only the games of this preset (its name). */
      preset?: string;
    }
  | { view: 'player'; show: boolean; ruleset: string; period: StatsPeriodCode; user: string; tournament: number }
  | { view: 'game'; show: boolean; game: number; page: number };

const RULESET_RE = /^(chnu-2016|classic-10|kiev-12)$/;
const PERIOD_RE = /^(a|d[1-9]\d{0,3}|s[1-9]\d{0,9})$/;
const NUM_RE = /^(0|[1-9]\d{0,9})$/;
const SNOWFLAKE_RE = /^\d{1,25}$/;

export function encodeStatsId(id: StatsId): string {
  let s: string;
  switch (id.view) {
    case 'top':
      s = `v1:s:${id.show ? 'T' : 't'}:${id.ruleset}:${id.period}:${id.by}:${id.tournament}:${id.page}${id.preset ? `:${id.preset}` : ''}`;
      break;
    case 'player':
      s = `v1:s:${id.show ? 'P' : 'p'}:${id.ruleset}:${id.period}:${id.user}:${id.tournament}`;
      break;
    case 'game':
      s = `v1:s:${id.show ? 'G' : 'g'}:${id.game}:${id.page}`;
      break;
  }
  if (s.length > 100) throw new Error(`custom id too long: ${s}`);
  return s;
}

/** Parses a /stats custom id; anything malformed gives null. */
export function decodeStatsId(raw: unknown): StatsId | null {
  if (typeof raw !== 'string' || raw.length > 100) return null;
  const p = raw.split(':');
  if (p[0] !== 'v1' || p[1] !== 's') return null;
  const v = p[2] ?? '';
  const show = v === v.toUpperCase();
  switch (v.toLowerCase()) {
    case 't': {
      const [, , , ruleset, period, by, tournament, page, preset] = p;
      if (
        (p.length !== 8 && (p.length !== 9 || presetName(preset!) !== preset)) ||
        !RULESET_RE.test(ruleset!) ||
        !PERIOD_RE.test(period!) ||
        (by !== 'points' && by !== 'elo') ||
        !NUM_RE.test(tournament!) ||
        !NUM_RE.test(page!)
      )
        return null;
      if (Number(page) > 100_000) return null;
      return {
        view: 'top',
        show,
        ruleset: ruleset!,
        period: period as StatsPeriodCode,
        by,
        tournament: Number(tournament),
        page: Number(page),
        ...(preset !== undefined ? { preset } : {}),
      };
    }
    case 'p': {
      const [, , , ruleset, period, user, tournament] = p;
      if (
        p.length !== 7 ||
        !RULESET_RE.test(ruleset!) ||
        !PERIOD_RE.test(period!) ||
        !SNOWFLAKE_RE.test(user!) ||
        !NUM_RE.test(tournament!)
      )
        return null;
      return {
        view: 'player',
        show,
        ruleset: ruleset!,
        period: period as StatsPeriodCode,
        user: user!,
        tournament: Number(tournament),
      };
    }
    case 'g': {
      const [, , , game, page] = p;
      if (p.length !== 5 || !POSITIVE.test(game!) || !NUM_RE.test(page!) || Number(page) > 1000) return null;
      return { view: 'game', show, game: Number(game), page: Number(page) };
    }
  }
  return null;
}
