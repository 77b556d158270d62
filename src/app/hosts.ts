// Who hosts a game: its creator (or whoever it was handed to with /host transfer), members with
// Manage Server, and members with the server's host role (setting `hostRole`). RULES G-7: the
// host's rulings stand, so this is the one gate of every host command and host button.
//
// Fair hosting (issue 20): anyone may create a game, host it and play in it. A host who plays keeps
// the day's clock and gives fouls, but may not rule on results (E-4, F-4, S-4) nor see the night
// (N-13): `playingHostMay` is the one table every entry point asks (/host, the host panel's
// buttons, the lobby's Cancel). Annulling a finished game is limited in who and how long after:
// `mayAnnul`. Who may take a seat when one changes hands (/host substitute, a substitute call's
// pick, its first volunteer) is `seatBar`, asked by the game service for every substitution.
// docs/hosting.md "Fair hosting" has these rules in words.
import type { GameRow, Store } from '../db/store';
import type { HostVerb, StageKind } from '../engine/types';
import type { RefusalCode } from '../engine/refusal-codes';

export interface Member {
  readonly userId: string;
  /** The member has Manage Server in this server. */
  readonly manageGuild: boolean;
  /** The member's role ids in this server. */
  readonly roles: readonly string[];
}

export type HostRight = 'creator' | 'manage-server' | 'host-role';

/** Why this member may host the game, or null when he may not. */
export function hostRight(
  member: Member,
  game: { readonly hostId: string },
  hostRole: string | null,
): HostRight | null {
  if (member.userId === game.hostId) return 'creator';
  if (member.manageGuild) return 'manage-server';
  if (hostRole !== null && member.roles.includes(hostRole)) return 'host-role';
  return null;
}

export function canHost(member: Member, game: { readonly hostId: string }, hostRole: string | null): boolean {
  return hostRight(member, game, hostRole) !== null;
}

// ---------------------------------------------------------------------------------------------
// Fair hosting: what a host who plays may do

/** Everything a host can do: the engine's host verbs and the shell's own (one /host subcommand each). */
export type HostDeed = HostVerb | 'substitute' | 'cancel' | 'log' | 'annul' | 'transfer' | 'panel';

/**
 * When a host who plays may do it:
 * - `always`: in every stage (the clock, fouls, the way out; the log hides the night);
 * - `talk`: only while players talk (speeches, last words, discussion, a shootout's speeches);
 * - `lobby`: only before the game starts;
 * - `call`: only through a substitute call (`playingHostMaySeat`, `playingHostMayCall`);
 * - `never`.
 */
export type PlayingHostRule = 'always' | 'talk' | 'lobby' | 'call' | 'never';

/**
 * The table (G-7 limited by E-4, F-4, S-4 and N-13 for a host who sits at the table). Every deed
 * has its line, so a new host verb does not compile until it is decided here.
 */
export const PLAYING_HOST: { readonly [D in HostDeed]: PlayingHostRule } = {
  // The day's clock and discipline (F-1): club practice lets a playing host keep them.
  pause: 'always',
  resume: 'always',
  foul: 'always',
  // A seat changes hands: only to a volunteer of a substitute call for that seat, and a call only for
  // a seat the bot flagged as absent. Freely, he could seat his own second account or push a player out.
  substitute: 'call',
  // The way out: hand the game to someone who does not play.
  transfer: 'always',
  // The audit log: while the game runs, a taken-back night action is shown to him as "…".
  log: 'always',
  // Cutting or lengthening a speech; never a night (N-13), a vote or the post-game vote (results).
  skip: 'talk',
  extend: 'talk',
  // An empty lobby may be cancelled; a started game's result may not be thrown away.
  cancel: 'lobby',
  // Rulings on the result (E-4, F-4), on who is at the table, on points (S-4) and on votes cast.
  end: 'never',
  kill: 'never',
  remove: 'never',
  revive: 'never',
  best: 'never',
  bonus: 'never',
  undo: 'never',
  // The panel shows every role and the night's actions (N-13).
  panel: 'never',
  // Taking his own game out of the ratings after it counted.
  annul: 'never',
};

/** Stages in which players talk: a playing host may cut or lengthen a speech there. */
const TALK: ReadonlySet<StageKind> = new Set<StageKind>(['lastWords', 'turns', 'window', 'discussion', 'shootout']);
const NIGHT: ReadonlySet<StageKind> = new Set<StageKind>(['night0', 'night']);

export type FairVerdict = { readonly ok: true } | { readonly ok: false; readonly code: RefusalCode };

const OK: FairVerdict = { ok: true };
const no = (code: RefusalCode): FairVerdict => ({ ok: false, code });

/**
 * Whether a host who plays in the game (holds or held a seat: `playedIn`) may do `deed` now.
 * `stage` is the open stage (null before the game starts). A host who does not play may do
 * everything (G-7); ask only for one who plays.
 */
export function playingHostMay(
  deed: HostDeed,
  game: { readonly status: string; readonly stage: StageKind | null },
): FairVerdict {
  const rule = PLAYING_HOST[deed];
  // `call`: the command may be given; the seat and who takes it are checked where they are known.
  if (rule === 'always' || rule === 'call') return OK;
  const started = game.status !== 'lobby';
  const night = game.stage !== null && NIGHT.has(game.stage);
  if (rule === 'lobby') return started ? no('host/playing-host-result') : OK;
  if (rule === 'talk') {
    if (!started || game.stage === null || game.stage === 'over' || TALK.has(game.stage)) return OK;
    return no(night ? 'host/playing-host-night' : 'host/playing-host-result');
  }
  switch (deed) {
    case 'panel':
      return no('host/playing-host');
    case 'annul':
      return no('host/playing-host-annul');
    case 'undo':
      // At night even the refusal's wording may say only what his seat can know.
      return no(night ? 'host/playing-host-night' : 'host/playing-host-result');
    default:
      return no('host/playing-host-result');
  }
}

/**
 * Whether a member sits or sat at the game's table: a current holder of a seat, one who was
 * substituted out (he saw his card and shares the seat's result), or one in the open lobby.
 */
export function playedIn(
  userId: string,
  game: {
    readonly status: string;
    readonly lobbyMembers: readonly string[];
    readonly seats: readonly { readonly userId: string }[];
    readonly audit: readonly { readonly action: string; readonly detail: string | null }[];
  },
): boolean {
  if (game.seats.some((s) => s.userId === userId)) return true;
  if (game.status === 'lobby' && game.lobbyMembers.includes(userId)) return true;
  for (const a of game.audit) {
    if (a.action !== 'substitute' || !a.detail) continue;
    try {
      const d = JSON.parse(a.detail) as { from?: unknown };
      if (d.from === userId) return true;
    } catch {
      // an unreadable detail names nobody
    }
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Who may take a seat (every way a seat changes hands: /host substitute, a call's pick, its first volunteer)

/** The game as far as who may take a seat in it is concerned. */
export interface SeatGame {
  readonly hostId: string;
  readonly status: string;
  readonly lobbyMembers: readonly string[];
  readonly seats: readonly { readonly userId: string }[];
  readonly audit: readonly { readonly action: string; readonly detail: string | null }[];
}

/** What the spectators' thread and the open substitute calls know (asynchronous play). */
export interface SeatingContext {
  /** Who pressed Watch in this game, ever. */
  readonly watchers: readonly string[];
  /** The open substitute calls: each seat's volunteers. */
  readonly calls: readonly { readonly seat: number; readonly volunteers: readonly string[] }[];
}

export const NO_SEATING: SeatingContext = { watchers: [], calls: [] };

/**
 * Why a member may not take a seat in this game:
 * - `seated`: he holds a seat now;
 * - `played`: he held one and was replaced (he saw that seat's card and what it learnt);
 * - `host`: he hosts or hosted the game (its creator, everyone it was handed to with /host
 *   transfer), or he is the host giving the command: the host panel shows every role (N-13);
 * - `watched`: he pressed Watch: the spectators' thread holds the players who left the table, who
 *   know their cards and what they did at night and may say so there (N-13, even where G-6 keeps the
 *   cards hidden and the bot shows the thread only public facts); with `spectators roles:true` it
 *   shows every role.
 */
export type SeatBar = 'seated' | 'played' | 'host' | 'watched';

/**
 * The one rule of who may take a seat when it changes hands (issue 20), null when he may. `by` is
 * who makes the change (`host:<id>` or `user:<id>`, the actor of the audit log).
 */
export function seatBar(userId: string, game: SeatGame, seating: SeatingContext, by: string): SeatBar | null {
  if (game.seats.some((s) => s.userId === userId)) return 'seated';
  if (playedIn(userId, { ...game, status: 'running' })) return 'played';
  if (hosted(userId, game) || by === `host:${userId}`) return 'host';
  if (seating.watchers.includes(userId)) return 'watched';
  return null;
}

/** Whether he hosts the game or hosted it before handing it over (`transfer` in its audit log). */
function hosted(userId: string, game: SeatGame): boolean {
  if (game.hostId === userId) return true;
  return game.audit.some((a) => a.action === 'transfer' && detailOf(a.detail).from === userId);
}

function detailOf(detail: string | null): { from?: unknown } {
  if (!detail) return {};
  try {
    return JSON.parse(detail) as { from?: unknown };
  } catch {
    return {}; // an unreadable detail names nobody
  }
}

/** The refusal of a seat bar: told to the host who names the member, or to the volunteer himself. */
export const SEAT_REFUSAL: {
  readonly [B in SeatBar]: { readonly host: RefusalCode; readonly volunteer: RefusalCode };
} = {
  seated: { host: 'substitute/already-playing', volunteer: 'subcall/playing' },
  played: { host: 'substitute/played', volunteer: 'subcall/played' },
  host: { host: 'substitute/host', volunteer: 'subcall/host' },
  watched: { host: 'substitute/watched', volunteer: 'subcall/watched' },
};

/** A host's refusal of a seat bar as the volunteer's (his click was refused by the service). */
export function asVolunteerRefusal(code: RefusalCode): RefusalCode {
  for (const r of Object.values(SEAT_REFUSAL)) if (r.host === code) return r.volunteer;
  return code;
}

/**
 * A host who plays (`substitute: 'call'`) may give a seat only to one of the volunteers of the
 * substitute call open for it (async play). Ask only for a host who plays.
 */
export function playingHostMaySeat(seat: number, userId: string, seating: SeatingContext): FairVerdict {
  const call = seating.calls.find((c) => c.seat === seat);
  return call?.volunteers.includes(userId) ? OK : no('host/playing-host-substitute');
}

/**
 * A host who plays may call a substitute only for a seat the bot flagged as absent (it let the
 * server's `absent` count of owed actions pass in a row; a host who plays counts only day actions):
 * else a call would push out a player who plays. Ask only for a host who plays.
 */
export function playingHostMayCall(flagged: boolean): FairVerdict {
  return flagged ? OK : no('subcall/playing-host-absent');
}

/** playedIn for a stored game: its seats' holders and its audit log read from the store. */
export async function playsIn(
  store: Pick<Store, 'players' | 'auditLog'>,
  game: Pick<GameRow, 'id' | 'status' | 'lobby'>,
  userId: string,
): Promise<boolean> {
  return playedIn(userId, {
    status: game.status,
    lobbyMembers: game.lobby.members,
    seats: await store.players(game.id),
    audit: await store.auditLog(game.id),
  });
}

// ---------------------------------------------------------------------------------------------
// Annulling a finished game

const HOUR = 3_600_000;

/**
 * How long after a game ended it may be annulled: by its host or a member with the host role
 * (24 hours), by a member with Manage Server (7 days). Nobody who played in it may annul it.
 */
export const ANNUL_WINDOW = { host: 24 * HOUR, manager: 7 * 24 * HOUR } as const;

/**
 * Whether this member may annul the finished game now (the service then refuses a game not
 * finished or already annulled). `ended` is when its points were counted.
 */
export function mayAnnul(
  member: Member,
  game: { readonly hostId: string; readonly ended: number | null },
  hostRole: string | null,
  played: boolean,
  now: number,
): FairVerdict {
  if (hostRight(member, game, hostRole) === null) return no('host/not-host');
  // The table decides for one who played (never, whatever his rights on the server).
  if (played) {
    const fair = playingHostMay('annul', { status: 'over', stage: 'over' });
    if (!fair.ok) return fair;
  }
  if (game.ended === null) return OK;
  const age = now - game.ended;
  if (age <= ANNUL_WINDOW.host) return OK;
  if (member.manageGuild) return age <= ANNUL_WINDOW.manager ? OK : no('annul/too-late');
  return no(age <= ANNUL_WINDOW.manager ? 'annul/too-late-host' : 'annul/too-late');
}
