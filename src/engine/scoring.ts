// Points per game and player (RULES S-1..S-4). Win and loss points go to every player of the team,
// whether or not he is still at the table.
import { RULESETS, teamOf } from './rulesets';
import type { GameState, PointsBreakdown, Role, Seat } from './types';

type Items = Record<string, number>;

const CHNU_WIN: Readonly<Record<string, number>> = { civilian: 4, sheriff: 5, don: 6, mafia: 5 };
const CLASSIC_WIN: Readonly<Record<string, number>> = { civilian: 3, sheriff: 4, don: 5, mafia: 4 };

function add(items: Items, key: string, value: number): void {
  if (value !== 0) items[key] = (items[key] ?? 0) + value;
}

function blackNamed(s: GameState): number {
  const bm = s.history.bestMove;
  if (!bm) return 0;
  return bm.targets.filter((t) => teamOf(s.players[t - 1]!.role) === 'black').length;
}

/** S-4 (chnu-2016): the votes a best player needs, the host's included. */
export const CHNU_BEST_VOTES = 5;

/** S-4 (kiev-12): the votes a player needs to be placed. */
export const KIEV_PLACE_VOTES = 2;

/**
 * S-4: the post-game vote as counted, for telling the table when it closes. `votes` lists every
 * seat that got a vote (the host's included in chnu-2016: `host` marks it), most votes first.
 * `outcome` (chnu-2016): `best` someone alone reached the threshold; `tie-host` a tie at or above
 * it settled by the host's pick; `tie` a tie the host's pick does not settle; `short` nobody
 * reached it. kiev-12: `placed` somebody has the votes to be placed, `short` nobody. classic-10:
 * `host` the host named someone, `none` he did not.
 */
export interface BestVoteTally {
  readonly votes: readonly { readonly seat: Seat; readonly votes: number; readonly host: boolean }[];
  readonly threshold: number;
  readonly outcome: 'best' | 'tie-host' | 'tie' | 'short' | 'placed' | 'host' | 'none';
  readonly best: Seat | null;
}

export function bestVoteTally(s: GameState): BestVoteTally {
  const pg = s.postGame!;
  const scoring = RULESETS[s.ruleset].scoring;
  if (scoring === 'classic')
    return { votes: [], threshold: 0, outcome: pg.hostBest !== null ? 'host' : 'none', best: pg.hostBest };
  const counts = new Array<number>(s.players.length + 1).fill(0);
  for (const v of pg.votes) if (v > 0) counts[v]!++;
  const chnu = scoring === 'chnu';
  if (chnu && pg.hostBest !== null) counts[pg.hostBest]!++;
  const votes = s.players
    .map((p) => ({ seat: p.seat, votes: counts[p.seat]!, host: chnu && pg.hostBest === p.seat }))
    .filter((r) => r.votes > 0)
    .sort((a, b) => b.votes - a.votes || a.seat - b.seat);
  const max = votes[0]?.votes ?? 0;
  if (!chnu) {
    const placed = max >= KIEV_PLACE_VOTES;
    const top = votes.filter((r) => r.votes === max);
    return {
      votes,
      threshold: KIEV_PLACE_VOTES,
      outcome: placed ? 'placed' : 'short',
      best: placed && top.length === 1 ? top[0]!.seat : null,
    };
  }
  if (max < CHNU_BEST_VOTES) return { votes, threshold: CHNU_BEST_VOTES, outcome: 'short', best: null };
  const leaders = votes.filter((r) => r.votes === max).map((r) => r.seat);
  if (leaders.length === 1) return { votes, threshold: CHNU_BEST_VOTES, outcome: 'best', best: leaders[0]! };
  // A tie: the one the host voted for; if he voted for neither, nobody.
  return pg.hostBest !== null && leaders.includes(pg.hostBest)
    ? { votes, threshold: CHNU_BEST_VOTES, outcome: 'tie-host', best: pg.hostBest }
    : { votes, threshold: CHNU_BEST_VOTES, outcome: 'tie', best: null };
}

/** S-4 (chnu-2016): 5 or more votes, the host's included; a tie goes to the host's pick. */
function chnuBestPlayer(s: GameState): Seat | null {
  return bestVoteTally(s).best;
}

function winLoss(s: GameState, role: Role, table: Readonly<Record<string, number>>, items: Items): void {
  const winner = s.result!.winner;
  if (winner === 'draw') return;
  const team = teamOf(role);
  if (team === winner) add(items, 'win', table[role] ?? 0);
}

function chnu(s: GameState): { points: PointsBreakdown[]; bestPlayer: Seat | null } {
  const winner = s.result!.winner;
  const best = chnuBestPlayer(s);
  const fullStrength = winner !== 'draw' && !s.out.some((o) => teamOf(s.players[o.seat - 1]!.role) === winner);
  const points = s.players.map((p) => {
    const items: Items = {};
    winLoss(s, p.role, CHNU_WIN, items);
    if (winner !== 'draw' && teamOf(p.role) !== winner) {
      if (p.role === 'sheriff' || p.role === 'don') add(items, 'loss', -1);
    }
    if (fullStrength && teamOf(p.role) === winner) add(items, 'fullStrength', 1);
    if (s.history.bestMove?.seat === p.seat && teamOf(p.role) === 'red') {
      const named = blackNamed(s);
      add(items, 'bestMove', named >= 3 ? 1 : named === 2 ? 0.5 : 0);
    }
    if (best === p.seat) add(items, 'bestPlayer', 3);
    return finish(p.seat, items);
  });
  return { points, bestPlayer: best };
}

function classic(s: GameState): { points: PointsBreakdown[]; bestPlayer: Seat | null } {
  const winner = s.result!.winner;
  const best = s.postGame!.hostBest;
  const sheriffNight1 = s.out.some(
    (o) => s.players[o.seat - 1]!.role === 'sheriff' && o.by === 'night' && o.at.phase === 'night' && o.at.n === 1,
  );
  const points = s.players.map((p) => {
    const items: Items = {};
    const team = teamOf(p.role);
    winLoss(s, p.role, CLASSIC_WIN, items);
    if (winner !== 'draw' && team !== winner) {
      if (p.role === 'don') add(items, 'loss', -1);
      if (p.role === 'sheriff' && !sheriffNight1) add(items, 'loss', -1);
    }
    if (s.history.bestMove?.seat === p.seat && team === 'red' && p.role !== 'sheriff') {
      const named = blackNamed(s);
      add(items, 'bestMove', named >= 3 ? 2 : named === 2 ? 1 : 0);
    }
    for (const o of s.out) {
      // S-2 "right candidate" (decision): his nomination ended with that black player voted out.
      if (s.options.rightCandidate && team === 'red' && o.by === 'vote' && o.nominatedBy === p.seat) {
        if (teamOf(s.players[o.seat - 1]!.role) === 'black') add(items, 'rightCandidate', 1);
      }
      // S-2: each black player whose shot killed the Sheriff.
      if (o.by === 'night' && s.players[o.seat - 1]!.role === 'sheriff' && o.shooters?.includes(p.seat)) {
        add(items, 'sheriffShot', 1);
      }
    }
    if (best === p.seat) add(items, 'bestPlayer', 2);
    add(items, 'warnings', -0.5 * p.fouls);
    if (s.out.some((o) => o.seat === p.seat && o.by === 'removed')) add(items, 'removal', -1);
    return finish(p.seat, items);
  });
  return { points, bestPlayer: best };
}

/** S-3, S-4 (kiev-12): 3, 2, 1 for the three best by votes (at least 2), host bonus, capped at 5. */
function kiev(s: GameState): { points: PointsBreakdown[]; bestPlayer: Seat | null } {
  const pg = s.postGame!;
  const counts = new Array<number>(s.players.length + 1).fill(0);
  for (const v of pg.votes) if (v > 0) counts[v]!++;
  const ranked = s.players
    .map((p) => ({ seat: p.seat, votes: counts[p.seat]! }))
    .filter((r) => r.votes >= 2)
    .sort((a, b) => b.votes - a.votes || a.seat - b.seat);
  const award = [3, 2, 1];
  const rating = new Map<Seat, number>();
  let place = 0;
  let dense = 0;
  ranked.forEach((r, i) => {
    if (i === 0 || r.votes !== ranked[i - 1]!.votes) {
      place = i + 1; // competition ranking: "1, 2, 2" then 4
      dense++;
    }
    const p = s.options.ratingTies === 'share-skip' ? place : dense;
    rating.set(r.seat, award[p - 1] ?? 0);
  });
  const top = ranked.filter((r) => r.votes === ranked[0]?.votes);
  const points = s.players.map((p) => {
    const items: Items = {};
    add(items, 'rating', rating.get(p.seat) ?? 0);
    add(items, 'bonus', pg.bonus[p.seat - 1] ?? 0);
    const raw = (items.rating ?? 0) + (items.bonus ?? 0);
    if (raw > 5) add(items, 'cap', 5 - raw);
    return finish(p.seat, items);
  });
  return { points, bestPlayer: top.length === 1 ? top[0]!.seat : null };
}

function finish(seat: Seat, items: Items): PointsBreakdown {
  let total = 0;
  for (const v of Object.values(items)) total += v;
  return { seat, total, items };
}

export function computeResult(s: GameState): { points: PointsBreakdown[]; bestPlayer: Seat | null } {
  switch (RULESETS[s.ruleset].scoring) {
    case 'chnu':
      return chnu(s);
    case 'classic':
      return classic(s);
    case 'kiev':
      return kiev(s);
  }
}
