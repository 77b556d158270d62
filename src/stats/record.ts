// Ratings and standings kept up to date in the transaction that closes a game (and rebuilt when a
// game is annulled or the rating settings change). The SQL is in the stats store (src/db/stats-store.ts):
// every read and write there is on indexed tables; nothing loads a server's results into memory: a
// rebuild walks the counted games in order, keeping only current ratings.
import type { StandingDelta, StatsStore, StoredResult } from '../db/stats-store';
import { DEFAULT_ELO, eloChanges, voidReason, type EloSettings, type RatedSeat } from '../engine/rating';
import type { Team, Winner } from '../engine/types';
import { earnedBy } from './achievements';

export interface RatingSettings {
  elo: EloSettings;
  /** Games with fewer accepted actions do not count (0 = every game counts). */
  minMoves: number;
}

export async function ratingSettings(db: StatsStore, guildId: string): Promise<RatingSettings> {
  const r = await db.ratingSettings(guildId);
  if (!r) return { elo: { ...DEFAULT_ELO }, minMoves: 0 };
  return { elo: { win: r.win, loss: r.loss, start: r.start }, minMoves: r.minMoves };
}

export async function saveRatingSettings(
  db: StatsStore,
  guildId: string,
  s: RatingSettings,
  now: number,
): Promise<void> {
  await db.saveRatingSettings(guildId, { ...s.elo, minMoves: s.minMoves }, now);
}

function standingDelta(r: StoredResult, scope: string): StandingDelta {
  const win = r.outcome === 'win' ? 1 : 0;
  return {
    guildId: r.guildId,
    ruleset: r.ruleset,
    scope,
    userId: r.userId,
    halfPoints: Math.round(r.points * 2),
    win,
    best: r.bestPlayer ? 1 : 0,
    don: win && r.role === 'don' ? 1 : 0,
    sheriff: win && r.role === 'sheriff' ? 1 : 0,
    mafia: win && r.role === 'mafia' ? 1 : 0,
    killedNight1: r.killedNight1 ? 1 : 0,
  };
}

export function holdersOf(r: StoredResult): { userId: string; share: number }[] {
  if (r.holders) {
    try {
      const h = JSON.parse(r.holders) as { userId: string; share: number }[];
      if (Array.isArray(h) && h.length > 0) return h;
    } catch {
      // an unreadable list: the seat's final user played it all
    }
  }
  return [{ userId: r.userId, share: 1 }];
}

function winnerOf(rows: readonly StoredResult[]): Winner {
  const w = rows.find((r) => r.outcome === 'win');
  if (w) return w.team as Team;
  const loss = rows.find((r) => r.outcome === 'loss');
  return loss ? (loss.team === 'red' ? 'black' : 'red') : 'draw';
}

type Write = (userId: string, before: number, after: number, share: number, seat: number) => void;

/** Elo of one counted game: reads the holders' ratings, writes the new ones and the history. */
function rateGame(rows: readonly StoredResult[], elo: EloSettings, current: (u: string) => number, write: Write): void {
  const seats: (RatedSeat & { seat: number })[] = rows.map((r) => ({
    seat: r.seat,
    team: r.team as Team,
    removed: r.removed,
    holders: holdersOf(r),
  }));
  const changes = eloChanges(seats, winnerOf(rows), current, elo);
  for (const s of seats)
    for (const h of s.holders) {
      const c = changes.get(h.userId);
      if (c) write(h.userId, c.before, c.after, c.share, s.seat);
    }
}

/**
 * Called in the transaction that writes a finished game's results: decides whether the game
 * counts, and if it does, updates the Elo of everyone who played in it and the standings of all
 * time and of each season it belongs to. A handful of indexed reads and writes per game.
 */
export async function recordGame(db: StatsStore, gameId: number, guildId: string): Promise<void> {
  // The reads at once (one round trip on PostgreSQL); the writes after them are queued.
  const [rows, settings, { annulled, rated }] = await Promise.all([
    db.gameResults(gameId),
    ratingSettings(db, guildId),
    db.countingFacts(gameId),
  ]);
  if (rows.length === 0) return;
  const first = rows[0]!;
  const facts = { annulled, casual: !rated, noDayVote: first.noDayVote, moves: first.moves };
  const why = voidReason(facts, settings.minMoves);
  await db.setCounts(gameId, why === null);
  if (why !== null) return;
  // A rebuild of this rule set is under way: its replay reaches this game (the newest) by itself.
  if (isRebuilding(db, first.guildId, first.ruleset)) return;
  await rateAndTally(db, gameId, rows, settings);
}

/** Elo, standings and running totals of one counted game (closing, or replayed in a rebuild). */
async function rateAndTally(
  db: StatsStore,
  gameId: number,
  given?: StoredResult[],
  known?: RatingSettings,
): Promise<void> {
  const rows = given ?? (await db.gameResults(gameId));
  if (rows.length === 0) return;
  const first = rows[0]!;
  const { guildId, ruleset, finishedAt } = first;
  // Every read this needs, at once (one round trip on PostgreSQL), before any of its writes: the
  // rating of everyone who held a seat as it was before the game (the engine's rule is
  // synchronous), the seasons the game belongs to and (issue 24) its preset, whose games also have
  // their own all-time standings (`/stats top preset:`). The writes are queued (sent unwaited).
  const users = [...new Set(rows.flatMap((r) => holdersOf(r).map((h) => h.userId)))];
  const [settings, ratings, seasons, preset] = await Promise.all([
    known ?? ratingSettings(db, guildId),
    Promise.all(users.map((u) => db.rating(guildId, ruleset, u))),
    db.seasonIdsAt(guildId, finishedAt),
    db.gamePreset(gameId),
  ]);
  const before = new Map(users.map((u, i) => [u, ratings[i] ?? null]));
  const writes: Parameters<Write>[] = [];
  rateGame(
    rows,
    settings.elo,
    (u) => before.get(u)?.elo ?? settings.elo.start,
    (...w) => void writes.push(w),
  );
  const counted = new Map<string, number>();
  for (const [u, was, after, share, seat] of writes) {
    const n = (counted.get(u) ?? before.get(u)?.games ?? 0) + 1;
    counted.set(u, n);
    await db.addRatingChange({ gameId, userId: u, guildId, ruleset, seat, share, before: was, after, n, finishedAt });
    await db.addRatedGame(guildId, ruleset, u, after, finishedAt);
  }
  const scopes = ['all', ...seasons.map((id) => `s${id}`), ...(preset !== null ? [`p:${preset}`] : [])];
  for (const r of rows) {
    for (const scope of scopes) await db.addToStanding(standingDelta(r, scope));
    await db.logRunningTotals(r.guildId, r.ruleset, r.userId, r.finishedAt, r.gameId);
  }
  await awardAchievements(db, rows);
}

/**
 * Issue 24: the achievements a counted game earns, after its standings (their totals include it).
 * The same code when a game closes and when a rebuild replays it: a rebuild finds the same games
 * that earned them; it only writes rows (the closing game's planner announces what it earned).
 */
async function awardAchievements(db: StatsStore, rows: readonly StoredResult[]): Promise<void> {
  const seated = rows.filter((r) => r.userId);
  // Read at once, after the standings' writes (PostgreSQL answers a connection's statements in order).
  const tallies = await Promise.all(seated.map((r) => db.standingAll(r.guildId, r.ruleset, r.userId)));
  for (const [i, r] of seated.entries()) {
    const tally = tallies[i]!;
    for (const code of earnedBy(r, tally))
      await db.addAchievement({
        guildId: r.guildId,
        ruleset: r.ruleset,
        userId: r.userId,
        code,
        gameId: r.gameId,
        earnedAt: r.finishedAt,
      });
  }
}

/** A season defined (or ended): its standings from the stored results. */
export async function rebuildSeason(db: StatsStore, guildId: string, seasonId: number): Promise<void> {
  const s = await db.seasonById(guildId, seasonId);
  if (!s) return;
  await db.rebuildStandingsScope(guildId, `s${seasonId}`, s.startsAt, s.endsAt);
}

/** Rebuilds in progress, by connection: `<guild>\u0000<ruleset>`. */
const rebuilding = new WeakMap<StatsStore, Set<string>>();

export function isRebuilding(db: StatsStore, guildId: string, ruleset: string): boolean {
  return rebuilding.get(db)?.has(`${guildId}\u0000${ruleset}`) ?? false;
}

/** Games per step of the replay, game ids per step of the counts update, rows per delete. */
const STEP_GAMES = 6;
const STEP_IDS = 200;
const STEP_DELETE = 400;

/**
 * The rebuild of one server's rule set, as small steps (each a few milliseconds on any size of
 * server): which games count is decided again, everything derived is deleted, and the counted
 * games are replayed in the order they finished through the same per-game code as a closing game.
 */
async function* rebuildSteps(
  db: StatsStore,
  guildId: string,
  ruleset: string,
): AsyncGenerator<'counts' | 'delete' | 'replay'> {
  // (Each step runs in the flow that asks for it, `next()`, inside that flow's transaction.)
  const settings = await ratingSettings(db, guildId);
  // Game ids up to the newest (a rowid: no scan); ranges without this server's games cost nothing.
  const maxId = await db.maxGameId();
  for (let lo = 0; lo < maxId; lo += STEP_IDS) {
    await db.recountResults(guildId, ruleset, settings.minMoves, lo, lo + STEP_IDS);
    yield 'counts';
  }
  await db.clearStandingsAndRatings(guildId, ruleset);
  for (const table of ['rating_history', 'standings_log', 'achievements'] as const) {
    while ((await db.deleteDerivedRows(table, guildId, ruleset, STEP_DELETE)) > 0) yield 'delete';
  }
  let cursor = { at: -1, game: 0 };
  for (;;) {
    const games = await db.countedGamesAfter(guildId, ruleset, cursor.at, cursor.game, STEP_GAMES);
    if (games.length === 0) return;
    for (const g of games) await rateAndTally(db, g.gameId);
    const end = games[games.length - 1]!;
    cursor = { at: end.finishedAt, game: end.gameId };
    yield 'replay';
  }
}

async function rulesetsOf(db: StatsStore, guildId: string, ruleset: string | null): Promise<string[]> {
  if (ruleset !== null) return [ruleset];
  return (await db.rulesetsWithStandings(guildId))
    .concat(['chnu-2016', 'classic-10', 'kiev-12'])
    .filter((r, i, xs) => xs.indexOf(r) === i);
}

async function setFlag(db: StatsStore, guildId: string, ruleset: string, on: boolean): Promise<void> {
  let set = rebuilding.get(db);
  if (!set) rebuilding.set(db, (set = new Set()));
  const key = `${guildId}\u0000${ruleset}`;
  if (on) set.add(key);
  else set.delete(key);
  // Kept in the database too: a rebuild cut short by a crash is finished at the next start.
  const flags = new Set(await db.rebuildingRulesets(guildId));
  if (on) flags.add(ruleset);
  else flags.delete(ruleset);
  await db.setRebuildingRulesets(guildId, [...flags]);
}

/**
 * After a game is annulled or the rating settings change, at once (one transaction): which games
 * count is decided again, and standings and Elo are rebuilt by replaying the counted games in the
 * order they finished. Used at start-up (before any game runs) and by tests; a running bot uses
 * recomputeInBackground, which does the same in small steps.
 */
export async function recomputeRatings(db: StatsStore, guildId: string, ruleset: string | null = null): Promise<void> {
  await db.transaction(async () => {
    for (const rs of await rulesetsOf(db, guildId, ruleset)) {
      for await (const _ of rebuildSteps(db, guildId, rs)) {
        // all steps in this one transaction
      }
      await setFlag(db, guildId, rs, false);
    }
  });
}

const running = new WeakMap<StatsStore, Map<string, Promise<void>>>();

/**
 * The same rebuild while the bot runs: one small step per turn of the event loop (each its own
 * transaction, a few milliseconds), so no game waits behind it. Meanwhile a closing game of that
 * rule set only records whether it counts (the replay reaches it), and /stats says the ratings are
 * being recomputed. Rebuilds of the same server and rule set run one after another.
 */
export async function recomputeInBackground(
  db: StatsStore,
  guildId: string,
  ruleset: string | null = null,
  observe?: (stepMs: number, kind: string) => void,
): Promise<void> {
  let byKey = running.get(db);
  if (!byKey) running.set(db, (byKey = new Map()));
  const jobs = (await rulesetsOf(db, guildId, ruleset)).map((rs) => {
    const key = `${guildId}\u0000${rs}`;
    const prev = byKey.get(key) ?? Promise.resolve();
    const job = prev.then(async () => {
      await db.transaction(() => setFlag(db, guildId, rs, true));
      const steps = rebuildSteps(db, guildId, rs);
      for (;;) {
        const t0 = performance.now();
        const step = await db.transaction(() => steps.next());
        if (step.done) break;
        observe?.(performance.now() - t0, step.value);
        await new Promise((r) => setImmediate(r));
      }
      await db.transaction(() => setFlag(db, guildId, rs, false));
    });
    const tail = job.catch(() => undefined);
    byKey.set(key, tail);
    void tail.then(() => {
      if (byKey.get(key) === tail) byKey.delete(key);
    });
    return job;
  });
  await Promise.all(jobs);
}

/** Rebuilds a crash interrupted (flags left in the database): finished at start-up. */
export function interruptedRebuilds(db: StatsStore): Promise<{ guildId: string; ruleset: string }[]> {
  return db.interruptedRebuilds();
}

/** Rule sets (with results) of servers whose ratings were never built (results older than them). */
export async function unbuilt(db: StatsStore): Promise<{ guildId: string; ruleset: string }[]> {
  // Index seeks per server and rule set, not a scan of the results.
  const out: { guildId: string; ruleset: string }[] = [];
  for (const guildId of await db.serverIds()) {
    for (const ruleset of ['chnu-2016', 'classic-10', 'kiev-12']) {
      if (!(await db.hasResults(guildId, ruleset))) continue;
      if (!(await db.hasStandings(guildId, ruleset)) && !(await db.hasRatingHistory(guildId, ruleset)))
        out.push({ guildId, ruleset });
    }
  }
  return out;
}

/** How a failed rebuild is told and tried again (issue 20: no background work ends the process). */
export interface RebuildRetry {
  log(msg: string, e: unknown): void;
  /** The first wait before trying again (doubled at each failure in a row, at most `maxDelayMs`). */
  firstDelayMs?: number;
  maxDelayMs?: number;
  setTimer?: (fn: () => void, ms: number) => void;
}

/**
 * Issue 11's `onAnnulled(gameId)` hook: the annulled game's server and rule set are recomputed. A
 * rebuild the database fails is logged and tried again later (the flag it left in the database
 * also has it finished at the next start-up).
 */
export async function onGameAnnulled(db: StatsStore, gameId: number, retry?: RebuildRetry): Promise<void> {
  const g = await db.gameServerAndRuleset(gameId);
  if (!g) return;
  const max = retry?.maxDelayMs ?? 300_000;
  const later = retry?.setTimer ?? ((fn: () => void, ms: number) => void setTimeout(fn, ms).unref());
  const attempt = (delay: number): void => {
    // (Through a promise: a read that fails before the rebuild starts is caught the same way.)
    Promise.resolve()
      .then(() => recomputeInBackground(db, g.guildId, g.ruleset))
      .catch((e: unknown) => {
        if (!retry) return;
        const secs = Math.round(delay / 1000);
        retry.log(`stats: rebuilding the ratings after annulling game ${gameId} failed; trying again in ${secs} s`, e);
        later(() => attempt(Math.min(delay * 2, max)), delay);
      });
  };
  attempt(retry?.firstDelayMs ?? 30_000);
}
