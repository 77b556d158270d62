// `/stats game <id>`: the record of a finished game, rebuilt by replaying its log from the deal
// (the log is the truth; a game is a few hundred actions, replayed in about a millisecond).
import type { StatsStore } from '../db/stats-store';
import { apply, createGame } from '../engine/apply';
import { voidReason, type VoidReason } from '../engine/rating';
import type { Action, GameState, LeaveBy, OptionOverrides, Pace, Role, RulesetId, Seat, Winner } from '../engine/types';
import { ratingSettings } from './record';

export interface DayRecord {
  n: number;
  nominations: { by: Seat; target: Seat }[];
  votes: { round: number; tally: { seat: Seat; votes: number }[]; leaving: Seat[]; outcome: string }[];
  allLeave: { yes: number; no: number; passed: boolean }[];
}

export interface GameRecordView {
  id: number;
  ruleset: RulesetId;
  startedAt: number | null;
  finishedAt: number;
  winner: Winner;
  reason: string;
  notCounted: VoidReason | null;
  /** Issue 24: the server's preset the game was played with, or null. */
  preset: string | null;
  seats: { seat: Seat; userId: string; role: Role; holders: { userId: string; share: number }[] | null }[];
  days: DayRecord[];
  nights: { n: number; out: Seat[] }[];
  out: { seat: Seat; by: LeaveBy; phase: 'day' | 'night'; n: number }[];
  points: { seat: Seat; userId: string; total: number; items: Record<string, number> }[];
}

/** The record, or null when there is no finished game with this id on this server. */
export async function gameRecord(db: StatsStore, guildId: string, gameId: number): Promise<GameRecordView | null> {
  const g = await db.recordGame(guildId, gameId);
  // Only finished games: a running game's record would reveal roles (N-13).
  if (!g || g.finished_at === null || !g.deal || g.started_at === null) return null;
  if (g.status !== 'over' && g.status !== 'archived') return null;
  const results = await db.recordResults(gameId);
  if (results.length === 0) return null;
  const log = await db.loggedActions(gameId);
  let state: GameState = createGame(
    g.ruleset as RulesetId,
    { roles: JSON.parse(g.deal) as Role[] },
    JSON.parse(g.options) as OptionOverrides,
    g.pace as Pace,
    { now: g.started_at },
  );
  const days = new Map<number, DayRecord>();
  const day = (n: number) => {
    let d = days.get(n);
    if (!d) days.set(n, (d = { n, nominations: [], votes: [], allLeave: [] }));
    return d;
  };
  const nights: { n: number; out: Seat[] }[] = [];
  for (const entry of log) {
    const r = apply(state, JSON.parse(entry.action) as Action, { now: entry.at });
    if (!r.ok) break;
    const n = state.clock.n;
    for (const e of r.events) {
      if (e.to.kind !== 'public') continue;
      const b = e.body;
      if (b.type === 'nominated') day(n).nominations.push({ by: b.by, target: b.target });
      else if (b.type === 'vote-result')
        day(n).votes.push({
          round: b.round,
          tally: b.tally.map((x) => ({ seat: x.seat, votes: x.votes + x.foulVotes })),
          leaving: b.leaving,
          outcome: b.outcome,
        });
      else if (b.type === 'vote-all-result')
        day(n).allLeave.push({ yes: b.yes.length, no: b.no.length, passed: b.passed });
      else if (b.type === 'morning') nights.push({ n: b.night, out: b.out.map((o) => o.seat) });
    }
    state = r.state;
  }
  const settings = await ratingSettings(db, guildId);
  const first = results[0]!;
  return {
    id: g.id,
    ruleset: g.ruleset as RulesetId,
    startedAt: g.started_at,
    finishedAt: g.finished_at,
    winner: state.result?.winner ?? 'draw',
    reason: state.result?.reason ?? 'rules',
    notCounted: voidReason(
      { annulled: g.annulled_at !== null, casual: !g.rated, noDayVote: first.no_day_vote === 1, moves: first.moves },
      settings.minMoves,
    ),
    preset: g.preset ?? null,
    seats: results.map((r) => ({
      seat: r.seat,
      userId: r.user_id,
      role: r.role as Role,
      holders: r.holders ? (JSON.parse(r.holders) as { userId: string; share: number }[]) : null,
    })),
    days: [...days.values()]
      .filter((d) => d.nominations.length + d.votes.length + d.allLeave.length > 0)
      .sort((a, b) => a.n - b.n),
    nights,
    out: state.out.map((o) => ({ seat: o.seat, by: o.by, phase: o.at.phase, n: o.at.n })),
    points: results.map((r) => ({
      seat: r.seat,
      userId: r.user_id,
      total: r.points,
      items: JSON.parse(r.breakdown) as Record<string, number>,
    })),
  };
}
