// The SQL of ratings, standings, seasons and /stats (issue 12): every statement on rating_settings,
// ratings, rating_history, standings, standings_log and seasons, and the stats' reads of results,
// games and actions. The rating logic (src/stats/record.ts), the /stats views (src/stats/queries.ts,
// src/stats/game-record.ts) and the /stats shell call these methods and hold no SQL. Everything
// runs through the storage seam's Connection (SQLite or PostgreSQL); where the two dialects have
// no common form, both are written here (docs/storage.md, "The two dialects' forms").
import { and, asc, eq, gt, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Connection } from './connection';

export interface RatingSettingsRow {
  win: number;
  loss: number;
  start: number;
  /** Games with fewer accepted actions do not count. */
  minMoves: number;
}

/** A stored result (one seat of a finished game) as the ratings read it. */
export interface StoredResult {
  gameId: number;
  seat: number;
  guildId: string;
  userId: string;
  ruleset: string;
  role: string;
  team: string;
  outcome: string;
  points: number;
  bestPlayer: boolean;
  killedNight1: boolean;
  finishedAt: number;
  removed: boolean;
  /** The seat's holders and their shares (JSON), or null (one holder). */
  holders: string | null;
  noDayVote: boolean;
  moves: number;
  /** D-10: black seats named in the seat's best move (null: none). */
  bestMoveBlack: number | null;
  /** Issue 24: the seat's feats in the game (src/stats/achievements.ts), null before achievements. */
  feats: string | null;
}

/** An achievement earned (issue 24): once per server, rule set, player and code. */
export interface EarnedAchievement {
  guildId: string;
  ruleset: string;
  userId: string;
  code: string;
  gameId: number;
  earnedAt: number;
}

/** What one counted result adds to a standings row (0/1 flags, points doubled to stay whole). */
export interface StandingDelta {
  guildId: string;
  ruleset: string;
  scope: string;
  userId: string;
  halfPoints: number;
  win: number;
  best: number;
  don: number;
  sheriff: number;
  mafia: number;
  killedNight1: number;
}

export interface RatingChange {
  gameId: number;
  userId: string;
  guildId: string;
  ruleset: string;
  seat: number;
  share: number;
  before: number;
  after: number;
  /** The player's rated games in this rule set with this one. */
  n: number;
  finishedAt: number;
}

export interface Season {
  id: number;
  name: string;
  startsAt: number;
  endsAt: number | null;
}

/** Which standings /stats top ranks. */
export interface StandingsQuery {
  guildId: string;
  ruleset: string;
  /** All time and seasons have maintained rows; a range of days is computed from the running totals. */
  period: { kind: 'all' } | { kind: 'season'; id: number } | { kind: 'days' };
  from: number;
  to: number;
  /** Only games of this tournament (games.tournament_id). */
  tournament: number | null;
  /** Issue 24: only games of this preset (games.preset): all time from its maintained rows (scope `p:<name>`). */
  preset?: string | null;
}

/** One ranked row: S-5 places (RANK(): level players share one), the row number and the count. */
export interface RankedRow {
  user_id: string;
  half_points: number;
  games: number;
  wins: number;
  best_player: number;
  elo?: number;
  place: number;
  rn: number;
  total: number;
}

/** A player's results in one rule set and range, for /stats player. */
export interface ProfileQuery {
  guildId: string;
  ruleset: string;
  userId: string;
  from: number;
  to: number;
  tournament: number | null;
}

export interface ProfileTotals {
  games: number;
  wins: number;
  half: number;
  best: number;
  moves: number;
  n1: number;
  fouls: number;
  removals: number;
}

/** One seat of a finished game as /stats export writes it (src/stats/export.ts). */
export interface ExportSeatRow {
  gameId: number;
  seat: number;
  userId: string;
  role: string;
  team: string;
  outcome: string;
  points: number;
  /** Points by item (JSON). */
  breakdown: string;
  bestPlayer: boolean;
  killedNight1: boolean;
  finishedAt: number;
  counts: boolean;
  noDayVote: boolean;
  moves: number;
  fouls: number;
  removed: boolean;
  bestMoveBlack: number | null;
  /** Everyone who held the seat with his share (JSON), or null. */
  holders: string | null;
  winner: string | null;
  rated: boolean;
  annulledAt: number | null;
  tournamentId: number | null;
  pace: string;
  startedAt: number | null;
  /** The seat's holder's Elo before and after the game (a counted game only). */
  eloBefore: number | null;
  eloAfter: number | null;
}

/** A finished game as /stats game replays it (JSON columns as stored). */
export interface RecordGameRow {
  id: number;
  ruleset: string;
  pace: string;
  options: string;
  deal: string | null;
  started_at: number | null;
  finished_at: number | null;
  annulled_at: number | null;
  status: string;
  /** Issue 24: false for a casual game. */
  rated: boolean;
  /** Issue 24: the preset it was played with, or null. */
  preset: string | null;
}

export interface RecordResultRow {
  seat: number;
  user_id: string;
  role: string;
  points: number;
  breakdown: string;
  holders: string | null;
  no_day_vote: number;
  moves: number;
}

/** S-5: each scoring system's order (after points), then the user id for a stable page order. */
const ORDER: Record<string, string> = {
  chnu: 'half_points DESC, best_player DESC',
  classic:
    'half_points DESC, wins DESC, best_player DESC, wins_don DESC, wins_sheriff DESC, wins_mafia DESC, ' +
    'killed_night1 DESC',
  // (decision) more games won, then fewer games.
  kiev: 'half_points DESC, wins DESC, games ASC',
};

/** The standings' running totals, in their column order. */
const TOTALS = [
  'half_points',
  'games',
  'wins',
  'best_player',
  'wins_don',
  'wins_sheriff',
  'wins_mafia',
  'killed_night1',
];

/** A number read by raw SQL (PostgreSQL gives bigint columns, counts and sums as strings). */
const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
/** A boolean read by raw SQL (SQLite stores 0/1, PostgreSQL has booleans). */
const flag = (v: unknown): boolean => v === true || v === 1;

type SeasonRaw = { id: number; name: string; starts_at: number; ends_at: number | null };
const toSeason = (r: SeasonRaw): Season => ({
  id: num(r.id),
  name: r.name,
  startsAt: num(r.starts_at),
  endsAt: numOrNull(r.ends_at),
});

/** A ranked row as read (numbers normalised: see `num`). */
const toRanked = (r: Record<string, unknown>): RankedRow => {
  const out = { ...r } as Record<string, unknown>;
  for (const k of [...TOTALS, 'elo', 'place', 'rn', 'total', 'last']) if (out[k] != null) out[k] = Number(out[k]);
  return out as unknown as RankedRow;
};

/**
 * The SQL that differs between the dialects, written once per connection. SQLite's forms are the
 * ones the statements always had (its plans were measured with them: bench/stats-bench.ts).
 */
interface Forms {
  /** A boolean column's true, as compared with `=` (SQLite stores 1). */
  true: SQL;
  /** How many rows of the group meet `cond`. */
  countIf(cond: SQL): SQL;
  /** Points (multiples of 0.5) as whole half points. */
  half(points: SQL): SQL;
  /** A join whose order the planner must keep (SQLite's CROSS JOIN); a plain join elsewhere. */
  fixedJoin: SQL;
  /** A unary `+` that keeps SQLite from using an index on the column (nothing on PostgreSQL). */
  noIndex: SQL;
}

function formsOf(c: Connection): Forms {
  if (c.dialect === 'sqlite')
    return {
      true: sql.raw('1'),
      countIf: (cond) => sql`sum(${cond})`,
      half: (points) => sql`CAST(round(${points} * 2) AS INTEGER)`,
      fixedJoin: sql.raw('CROSS JOIN'),
      noIndex: sql.raw('+'),
    };
  return {
    true: sql.raw('TRUE'),
    countIf: (cond) => sql`count(*) FILTER (WHERE ${cond})`,
    // round() of a double rounds half to even on PostgreSQL: numeric rounds half away from zero.
    half: (points) => sql`round((${points} * 2)::numeric)::integer`,
    fixedJoin: sql.raw('JOIN'),
    noIndex: sql.raw(''),
  };
}

const byConnection = new WeakMap<Connection, StatsStore>();

const p = sql.placeholder;

export class StatsStore {
  private readonly f: Forms;
  // Run for every counted game that closes (and every game a rebuild replays): prepared once.
  private readonly q;

  private constructor(private readonly c: Connection) {
    this.f = formsOf(c);
    this.q = {
      results: c.statement((db, t) =>
        db
          .select()
          .from(t.results)
          .where(eq(t.results.gameId, p('gameId')))
          .orderBy(asc(t.results.seat)),
      ),
      annulledAt: c.statement((db, t) =>
        db
          .select({ at: t.games.annulledAt, rated: t.games.rated })
          .from(t.games)
          .where(eq(t.games.id, p('gameId'))),
      ),
      rating: c.statement((db, t) =>
        db
          .select({ elo: t.ratings.elo, games: t.ratings.games })
          .from(t.ratings)
          .where(
            and(
              eq(t.ratings.guildId, p('guildId')),
              eq(t.ratings.ruleset, p('ruleset')),
              eq(t.ratings.userId, p('userId')),
            ),
          ),
      ),
      seasonsAt: c.statement((db, t) =>
        db
          .select({ id: t.seasons.id })
          .from(t.seasons)
          .where(
            and(
              eq(t.seasons.guildId, p('guildId')),
              lte(t.seasons.startsAt, p('at')),
              or(isNull(t.seasons.endsAt), gt(t.seasons.endsAt, p('at'))),
            ),
          ),
      ),
      // The player's all-time row copied into the running totals as it is after the game; the
      // copy of a game replayed (a rebuild) replaces the one it had.
      logTotals: c.statement((db, t) => {
        const s = t.standingsTable;
        const l = t.standingsLog;
        return db
          .insert(l)
          .select(
            db
              .select({
                guildId: s.guildId,
                ruleset: s.ruleset,
                userId: s.userId,
                finishedAt: sql<number>`CAST(${p('at')} AS BIGINT)`.as('finished_at'),
                gameId: sql<number>`CAST(${p('game')} AS BIGINT)`.as('game_id'),
                halfPoints: s.halfPoints,
                games: s.games,
                wins: s.wins,
                bestPlayer: s.bestPlayer,
                winsDon: s.winsDon,
                winsSheriff: s.winsSheriff,
                winsMafia: s.winsMafia,
                killedNight1: s.killedNight1,
              })
              .from(s)
              .where(
                and(
                  eq(s.guildId, p('guildId')),
                  eq(s.ruleset, p('ruleset')),
                  eq(s.scope, 'all'),
                  eq(s.userId, p('userId')),
                ),
              ),
          )
          .onConflictDoUpdate({
            target: [l.guildId, l.ruleset, l.userId, l.finishedAt, l.gameId],
            set: {
              halfPoints: sql`excluded.half_points`,
              games: sql`excluded.games`,
              wins: sql`excluded.wins`,
              bestPlayer: sql`excluded.best_player`,
              winsDon: sql`excluded.wins_don`,
              winsSheriff: sql`excluded.wins_sheriff`,
              winsMafia: sql`excluded.wins_mafia`,
              killedNight1: sql`excluded.killed_night1`,
            },
          });
      }),
      settings: c.statement((db, t) =>
        db
          .select({
            win: t.ratingSettings.eloWin,
            loss: t.ratingSettings.eloLoss,
            start: t.ratingSettings.eloStart,
            minMoves: t.ratingSettings.minMoves,
          })
          .from(t.ratingSettings)
          .where(eq(t.ratingSettings.guildId, p('guildId'))),
      ),
      setCounts: c.statement((db, t) =>
        db
          .update(t.results)
          .set({ counts: p('counts') as unknown as boolean })
          .where(eq(t.results.gameId, p('gameId'))),
      ),
      ratingChange: c.statement((db, t) =>
        db
          .insert(t.ratingHistory)
          .values({
            gameId: p('gameId'),
            userId: p('userId'),
            guildId: p('guildId'),
            ruleset: p('ruleset'),
            seat: p('seat'),
            share: p('share'),
            before: p('before'),
            after: p('after'),
            n: p('n'),
            finishedAt: p('finishedAt'),
          })
          .onConflictDoUpdate({
            target: [t.ratingHistory.gameId, t.ratingHistory.userId],
            set: {
              guildId: sql`excluded.guild_id`,
              ruleset: sql`excluded.ruleset`,
              seat: sql`excluded.seat`,
              share: sql`excluded.share`,
              before: sql`excluded.before`,
              after: sql`excluded.after`,
              n: sql`excluded.n`,
              finishedAt: sql`excluded.finished_at`,
            },
          }),
      ),
      ratedGame: c.statement((db, t) =>
        db
          .insert(t.ratings)
          .values({
            guildId: p('guildId'),
            ruleset: p('ruleset'),
            userId: p('userId'),
            elo: p('elo'),
            games: 1,
            updatedAt: p('at'),
          })
          .onConflictDoUpdate({
            target: [t.ratings.guildId, t.ratings.ruleset, t.ratings.userId],
            set: { elo: sql`excluded.elo`, games: sql`${t.ratings.games} + 1`, updatedAt: sql`excluded.updated_at` },
          }),
      ),
      // Issue 24: the player's all-time standings row (the achievements' totals), by its key.
      standingAll: c.statement((db, t) => {
        const s = t.standingsTable;
        return db
          .select({
            wins: s.wins,
            winsDon: s.winsDon,
            winsSheriff: s.winsSheriff,
            winsMafia: s.winsMafia,
            bestPlayer: s.bestPlayer,
          })
          .from(s)
          .where(
            and(
              eq(s.guildId, p('guildId')),
              eq(s.ruleset, p('ruleset')),
              eq(s.scope, 'all'),
              eq(s.userId, p('userId')),
            ),
          );
      }),
      // Earned once: a later game that meets it again changes nothing (the first game keeps it).
      achievement: c.statement((db, t) =>
        db
          .insert(t.achievements)
          .values({
            guildId: p('guildId'),
            ruleset: p('ruleset'),
            userId: p('userId'),
            code: p('code'),
            gameId: p('gameId'),
            earnedAt: p('earnedAt'),
          })
          .onConflictDoNothing(),
      ),
      standing: c.statement((db, t) => {
        const s = t.standingsTable;
        return db
          .insert(s)
          .values({
            guildId: p('guildId'),
            ruleset: p('ruleset'),
            scope: p('scope'),
            userId: p('userId'),
            halfPoints: p('halfPoints'),
            games: 1,
            wins: p('win'),
            bestPlayer: p('best'),
            winsDon: p('don'),
            winsSheriff: p('sheriff'),
            winsMafia: p('mafia'),
            killedNight1: p('killedNight1'),
          })
          .onConflictDoUpdate({
            target: [s.guildId, s.ruleset, s.scope, s.userId],
            set: {
              halfPoints: sql`${s.halfPoints} + excluded.half_points`,
              games: sql`${s.games} + 1`,
              wins: sql`${s.wins} + excluded.wins`,
              bestPlayer: sql`${s.bestPlayer} + excluded.best_player`,
              winsDon: sql`${s.winsDon} + excluded.wins_don`,
              winsSheriff: sql`${s.winsSheriff} + excluded.wins_sheriff`,
              winsMafia: sql`${s.winsMafia} + excluded.wins_mafia`,
              killedNight1: sql`${s.killedNight1} + excluded.killed_night1`,
            },
          });
      }),
    };
  }

  /** The stats store of a connection: one per connection (its rebuild state is shared). */
  static of(c: Connection): StatsStore {
    let s = byConnection.get(c);
    if (!s) byConnection.set(c, (s = new StatsStore(c)));
    return s;
  }

  /** Runs `fn` in one transaction (nested calls become savepoints); it awaits nothing but storage. */
  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.c.transaction(fn);
  }

  // -------------------------------------------------------------------------------------------
  // Rating settings and rebuild flags (rating_settings)

  async ratingSettings(guildId: string): Promise<RatingSettingsRow | null> {
    return (await this.c.get(this.q.settings(), { guildId })) ?? null;
  }

  async saveRatingSettings(guildId: string, s: RatingSettingsRow, now: number): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(
      db
        .insert(t.ratingSettings)
        .values({ guildId, eloWin: s.win, eloLoss: s.loss, eloStart: s.start, minMoves: s.minMoves, updatedAt: now })
        .onConflictDoUpdate({
          target: t.ratingSettings.guildId,
          set: {
            eloWin: sql`excluded.elo_win`,
            eloLoss: sql`excluded.elo_loss`,
            eloStart: sql`excluded.elo_start`,
            minMoves: sql`excluded.min_moves`,
            updatedAt: sql`excluded.updated_at`,
          },
        }),
    );
  }

  /** The rule sets of a server whose rebuild is under way (kept so a crash's is finished at start-up). */
  async rebuildingRulesets(guildId: string): Promise<string[]> {
    const { db, t } = this.c;
    const r = await this.c.get(
      db
        .select({ rebuilding: t.ratingSettings.rebuilding })
        .from(t.ratingSettings)
        .where(eq(t.ratingSettings.guildId, guildId)),
    );
    return (r?.rebuilding ?? '').split(',').filter(Boolean);
  }

  async setRebuildingRulesets(guildId: string, rulesets: string[]): Promise<void> {
    const { db, t } = this.c;
    const rebuilding = rulesets.length ? rulesets.join(',') : null;
    await this.c.run(
      db
        .insert(t.ratingSettings)
        .values({ guildId, rebuilding, updatedAt: 0 })
        .onConflictDoUpdate({ target: t.ratingSettings.guildId, set: { rebuilding: sql`excluded.rebuilding` } }),
    );
  }

  /** Every server's rebuilds left under way (by a crash). */
  async interruptedRebuilds(): Promise<{ guildId: string; ruleset: string }[]> {
    const rows = await this.c.rows<{ guild_id: string; rebuilding: string }>(
      sql`SELECT guild_id, rebuilding FROM rating_settings WHERE rebuilding IS NOT NULL`,
    );
    return rows.flatMap((r) =>
      r.rebuilding
        .split(',')
        .filter(Boolean)
        .map((ruleset) => ({ guildId: r.guild_id, ruleset })),
    );
  }

  // -------------------------------------------------------------------------------------------
  // Results of one game (written by the game store's writeResults)

  async gameResults(gameId: number): Promise<StoredResult[]> {
    const rows = await this.c.all(this.q.results(), { gameId });
    return rows.map((r) => ({
      gameId: r.gameId,
      seat: r.seat,
      guildId: r.guildId,
      userId: r.userId,
      ruleset: r.ruleset,
      role: r.role,
      team: r.team,
      outcome: r.outcome,
      points: r.points,
      bestPlayer: r.bestPlayer,
      killedNight1: r.killedNight1,
      finishedAt: r.finishedAt,
      removed: r.removed,
      holders: r.holders,
      noDayVote: r.noDayVote,
      moves: r.moves,
      bestMoveBlack: r.bestMoveBlack,
      feats: r.feats,
    }));
  }

  /** Issue 24: the preset a game was played with (its name), or null. */
  async gamePreset(gameId: number): Promise<string | null> {
    const [r] = await this.c.rows<{ preset: string | null }>(sql`SELECT preset FROM games WHERE id = ${gameId}`);
    return r?.preset ?? null;
  }

  /** Whether the game was annulled, and (issue 24) whether it was created rated: one read. */
  async countingFacts(gameId: number): Promise<{ annulled: boolean; rated: boolean }> {
    const g = await this.c.get(this.q.annulledAt(), { gameId });
    return { annulled: g?.at != null, rated: g ? Boolean(g.rated) : true };
  }

  /** Whether the game's results count for standings and ratings. */
  async setCounts(gameId: number, counts: boolean): Promise<void> {
    await this.c.queue(this.q.setCounts(), { gameId, counts });
  }

  /** The server and rule set of a game. */
  async gameServerAndRuleset(gameId: number): Promise<{ guildId: string; ruleset: string } | null> {
    const [g] = await this.c.rows<{ guild_id: string; ruleset: string }>(
      sql`SELECT guild_id, ruleset FROM games WHERE id = ${gameId}`,
    );
    return g ? { guildId: g.guild_id, ruleset: g.ruleset } : null;
  }

  // -------------------------------------------------------------------------------------------
  // Ratings, rating history, standings, running totals

  async rating(guildId: string, ruleset: string, userId: string): Promise<{ elo: number; games: number } | null> {
    return (await this.c.get(this.q.rating(), { guildId, ruleset, userId })) ?? null;
  }

  /** A rated game's change for one player (replacing one the game had). */
  async addRatingChange(ch: RatingChange): Promise<void> {
    await this.c.queue(this.q.ratingChange(), { ...ch });
  }

  /** The player's rating after one more rated game. */
  async addRatedGame(guildId: string, ruleset: string, userId: string, elo: number, at: number): Promise<void> {
    await this.c.queue(this.q.ratedGame(), { guildId, ruleset, userId, elo, at });
  }

  async addToStanding(d: StandingDelta): Promise<void> {
    await this.c.queue(this.q.standing(), { ...d });
  }

  /** The player's all-time standings in a rule set (null: no counted game yet). */
  async standingAll(
    guildId: string,
    ruleset: string,
    userId: string,
  ): Promise<{ wins: number; winsDon: number; winsSheriff: number; winsMafia: number; bestPlayer: number } | null> {
    const r = await this.c.get(this.q.standingAll(), { guildId, ruleset, userId });
    if (!r) return null;
    return {
      wins: num(r.wins),
      winsDon: num(r.winsDon),
      winsSheriff: num(r.winsSheriff),
      winsMafia: num(r.winsMafia),
      bestPlayer: num(r.bestPlayer),
    };
  }

  /** Issue 24: an achievement earned (nothing when the player has it already). */
  async addAchievement(a: EarnedAchievement): Promise<void> {
    await this.c.queue(this.q.achievement(), { ...a });
  }

  /** Issue 24: the achievements a game earned (its closing announces them), by the game's index. */
  async achievementsOfGame(gameId: number): Promise<{ userId: string; code: string }[]> {
    const rows = await this.c.rows<{ user_id: string; code: string }>(
      sql`SELECT user_id, code FROM achievements WHERE game_id = ${gameId} ORDER BY user_id, code`,
    );
    return rows.map((r) => ({ userId: r.user_id, code: r.code }));
  }

  /** Issue 24: a player's achievements in a rule set (one seek on the key), oldest first. */
  async playerAchievements(
    guildId: string,
    ruleset: string,
    userId: string,
  ): Promise<{ code: string; gameId: number; earnedAt: number }[]> {
    const rows = await this.c.rows<{ code: string; game_id: number; earned_at: number }>(
      sql`SELECT code, game_id, earned_at FROM achievements
        WHERE guild_id = ${guildId} AND user_id = ${userId} AND ruleset = ${ruleset} ORDER BY earned_at, code`,
    );
    return rows.map((r) => ({ code: r.code, gameId: num(r.game_id), earnedAt: num(r.earned_at) }));
  }

  /** Keeps the player's all-time totals as they are after this game (for ranges of time). */
  async logRunningTotals(
    guildId: string,
    ruleset: string,
    userId: string,
    finishedAt: number,
    gameId: number,
  ): Promise<void> {
    // Replaced when the game is replayed (a rebuild): the running totals after it, from now on.
    await this.c.queue(this.q.logTotals(), { guildId, ruleset, userId, at: finishedAt, game: gameId });
  }

  /**
   * The newest running totals of the player of standings row `s` before `bound` (one index seek),
   * joined as `alias`: SQLite by rowid, PostgreSQL laterally.
   */
  private lastTotals(kind: 'JOIN' | 'LEFT JOIN', alias: string, bound: SQL, player: SQL): SQL {
    const a = sql.raw(alias);
    const seek = (cols: string) => sql`SELECT ${sql.raw(cols)} FROM standings_log l WHERE ${player}
      AND l.finished_at < ${bound} ORDER BY l.finished_at DESC, l.game_id DESC LIMIT 1`;
    if (this.c.dialect === 'sqlite')
      return sql`${sql.raw(kind)} standings_log ${a} ON ${a}.rowid = (${seek('l.rowid')})`;
    return sql`${sql.raw(kind)} LATERAL (${seek('l.*')}) ${a} ON TRUE`;
  }

  /**
   * Rebuilds one scope of the standings for a range of time from the running totals: each player's
   * totals at the range's end minus those at its start (two index seeks per player, whatever the
   * range holds).
   */
  async rebuildStandingsScope(guildId: string, scope: string, from: number, to: number | null): Promise<void> {
    await this.c.exec(sql`DELETE FROM standings WHERE guild_id = ${guildId} AND scope = ${scope}`);
    const player = sql`l.guild_id = s.guild_id AND l.ruleset = s.ruleset AND l.user_id = s.user_id`;
    const end = to ?? Number.MAX_SAFE_INTEGER;
    await this.c.exec(sql`INSERT INTO standings (guild_id, ruleset, scope, user_id, ${sql.raw(TOTALS.join(', '))})
      SELECT s.guild_id, s.ruleset, ${scope}, s.user_id,
        ${sql.raw(TOTALS.map((c) => `e.${c} - coalesce(b.${c}, 0)`).join(', '))}
      FROM standings s ${this.lastTotals('JOIN', 'e', sql`${end}`, player)}
        ${this.lastTotals('LEFT JOIN', 'b', sql`${from}`, player)}
      WHERE s.guild_id = ${guildId} AND s.scope = 'all' AND e.games - coalesce(b.games, 0) > 0`);
  }

  // -------------------------------------------------------------------------------------------
  // Rebuilds (in small steps)

  /** The newest game id (0 when none). */
  async maxGameId(): Promise<number> {
    const [r] = await this.c.rows<{ m: number | null }>(sql`SELECT max(id) AS m FROM games`);
    return numOrNull(r?.m) ?? 0;
  }

  /** Decides again which results count, for the server's games with ids in (lo, hi]. */
  async recountResults(guildId: string, ruleset: string, minMoves: number, lo: number, hi: number): Promise<void> {
    const { noIndex } = this.f;
    const [no, yes] = this.c.dialect === 'sqlite' ? [sql.raw('0'), sql.raw('1')] : [sql.raw('FALSE'), sql.raw('TRUE')];
    // (SQLite) '+': walk the key's range, not the server's index.
    await this.c.exec(sql`UPDATE results SET counts = CASE
         WHEN (SELECT annulled_at FROM games g WHERE g.id = results.game_id) IS NOT NULL THEN ${no}
         WHEN (SELECT rated FROM games g WHERE g.id = results.game_id) = ${no} THEN ${no}
         WHEN no_day_vote = ${this.f.true} THEN ${no} WHEN moves < ${minMoves} THEN ${no} ELSE ${yes} END
       WHERE game_id > ${lo} AND game_id <= ${hi} AND ${noIndex}guild_id = ${guildId} AND ${noIndex}ruleset = ${ruleset}`);
  }

  /** Deletes the standings (every scope) and the ratings of a server's rule set. */
  async clearStandingsAndRatings(guildId: string, ruleset: string): Promise<void> {
    await this.c.exec(sql`DELETE FROM standings WHERE guild_id = ${guildId} AND ruleset = ${ruleset}`);
    await this.c.exec(sql`DELETE FROM ratings WHERE guild_id = ${guildId} AND ruleset = ${ruleset}`);
  }

  /** Deletes up to `limit` rows of a rule set's rating history or running totals; returns how many. */
  deleteDerivedRows(
    table: 'rating_history' | 'standings_log' | 'achievements',
    guildId: string,
    ruleset: string,
    limit: number,
  ): Promise<number> {
    // A row's physical address: SQLite's rowid, PostgreSQL's ctid.
    const id = sql.raw(this.c.dialect === 'sqlite' ? 'rowid' : 'ctid');
    const tbl = sql.raw(
      table === 'rating_history' ? 'rating_history' : table === 'achievements' ? 'achievements' : 'standings_log',
    );
    return this.c.exec(sql`DELETE FROM ${tbl} WHERE ${id} IN
      (SELECT ${id} FROM ${tbl} WHERE guild_id = ${guildId} AND ruleset = ${ruleset} LIMIT ${sql.raw(String(Math.floor(limit)))})`);
  }

  /** The next counted games of a rule set after (at, game), in the order they finished. */
  async countedGamesAfter(
    guildId: string,
    ruleset: string,
    at: number,
    game: number,
    limit: number,
  ): Promise<{ gameId: number; finishedAt: number }[]> {
    const rows = await this.c.rows<{ game_id: number; finished_at: number }>(
      sql`SELECT DISTINCT game_id, finished_at FROM results WHERE guild_id = ${guildId} AND ruleset = ${ruleset}
        AND counts = ${this.f.true} AND finished_at >= ${at} AND NOT (finished_at = ${at} AND game_id <= ${game})
      ORDER BY finished_at, game_id LIMIT ${sql.raw(String(Math.floor(limit)))}`,
    );
    return rows.map((r) => ({ gameId: num(r.game_id), finishedAt: num(r.finished_at) }));
  }

  /** Rule sets the server has standings or ratings in. */
  async rulesetsWithStandings(guildId: string): Promise<string[]> {
    const rows = await this.c.rows<{
      ruleset: string;
    }>(sql`SELECT DISTINCT ruleset FROM standings WHERE guild_id = ${guildId}
      UNION SELECT DISTINCT ruleset FROM ratings WHERE guild_id = ${guildId}`);
    return rows.map((r) => r.ruleset);
  }

  async serverIds(): Promise<string[]> {
    const rows = await this.c.rows<{ guild_id: string }>(sql`SELECT guild_id FROM servers`);
    return rows.map((r) => r.guild_id);
  }

  async hasResults(guildId: string, ruleset: string): Promise<boolean> {
    const rows = await this.c.rows(
      sql`SELECT 1 AS one FROM results WHERE guild_id = ${guildId} AND ruleset = ${ruleset} LIMIT 1`,
    );
    return rows.length > 0;
  }

  async hasStandings(guildId: string, ruleset: string): Promise<boolean> {
    const rows = await this.c.rows(
      sql`SELECT 1 AS one FROM standings WHERE guild_id = ${guildId} AND ruleset = ${ruleset} AND scope = 'all' LIMIT 1`,
    );
    return rows.length > 0;
  }

  async hasRatingHistory(guildId: string, ruleset: string): Promise<boolean> {
    const rows = await this.c.rows(
      sql`SELECT 1 AS one FROM rating_history WHERE guild_id = ${guildId} AND ruleset = ${ruleset} LIMIT 1`,
    );
    return rows.length > 0;
  }

  // -------------------------------------------------------------------------------------------
  // Seasons

  async seasons(guildId: string): Promise<Season[]> {
    const rows = await this.c.rows<SeasonRaw>(
      sql`SELECT id, name, starts_at, ends_at FROM seasons WHERE guild_id = ${guildId} ORDER BY starts_at, id`,
    );
    return rows.map(toSeason);
  }

  /** A season by its name (case-insensitive: SQLite's NOCASE folds ASCII letters, PostgreSQL's lower() all). */
  async seasonByName(guildId: string, name: string): Promise<Season | null> {
    const same = this.c.dialect === 'sqlite' ? sql`name = ${name} COLLATE NOCASE` : sql`lower(name) = lower(${name})`;
    const [r] = await this.c.rows<SeasonRaw>(
      sql`SELECT id, name, starts_at, ends_at FROM seasons WHERE guild_id = ${guildId} AND ${same}`,
    );
    return r ? toSeason(r) : null;
  }

  async seasonById(guildId: string, id: number): Promise<Season | null> {
    const [r] = await this.c.rows<SeasonRaw>(
      sql`SELECT id, name, starts_at, ends_at FROM seasons WHERE guild_id = ${guildId} AND id = ${id}`,
    );
    return r ? toSeason(r) : null;
  }

  /** The seasons of a server that a game finished at `at` belongs to. */
  async seasonIdsAt(guildId: string, at: number): Promise<number[]> {
    const rows = await this.c.all(this.q.seasonsAt(), { guildId, at });
    return rows.map((r) => r.id);
  }

  /** Defines a season; returns its id. */
  async addSeason(
    guildId: string,
    name: string,
    startsAt: number,
    endsAt: number | null,
    now: number,
  ): Promise<number> {
    const { db, t } = this.c;
    const r = await this.c.get(
      db.insert(t.seasons).values({ guildId, name, startsAt, endsAt, createdAt: now }).returning({ id: t.seasons.id }),
    );
    return r!.id;
  }

  async endSeason(seasonId: number, endsAt: number): Promise<void> {
    const { db, t } = this.c;
    await this.c.run(db.update(t.seasons).set({ endsAt }).where(eq(t.seasons.id, seasonId)));
  }

  // -------------------------------------------------------------------------------------------
  // /stats top: one indexed statement per question, ranks computed by the database

  /**
   * One page of the standings (rows `lo` < rn <= `hi`) and the caller's row, ranked by points in
   * the scoring system's S-5 order or by Elo.
   */
  async rankedPage(
    q: StandingsQuery,
    by: 'points' | 'elo',
    scoring: string,
    lo: number,
    hi: number,
    caller: string,
  ): Promise<RankedRow[]> {
    const src = by === 'elo' ? this.eloSource(q) : this.pointsSource(q);
    const order = sql.raw(by === 'elo' ? 'elo DESC, games DESC' : ORDER[scoring]!);
    const rows = await this.c.rows<Record<string, unknown>>(sql`WITH s AS (${src}), r AS (
        SELECT *, RANK() OVER (ORDER BY ${order}) AS place, ROW_NUMBER() OVER (ORDER BY ${order}, user_id) AS rn,
          count(*) OVER () AS total FROM s)
      SELECT * FROM r WHERE (rn > ${lo} AND rn <= ${hi}) OR user_id = ${caller} ORDER BY rn`);
    return rows.map(toRanked);
  }

  /** `/stats main rule set`: the rule set most players of this server have standings in. */
  async mainRuleset(guildId: string): Promise<string | null> {
    const [r] = await this.c.rows<{
      ruleset: string;
    }>(sql`SELECT ruleset FROM standings WHERE guild_id = ${guildId} AND scope = 'all'
      GROUP BY ruleset ORDER BY count(*) DESC, ruleset LIMIT 1`);
    return r?.ruleset ?? null;
  }

  // -------------------------------------------------------------------------------------------
  // /stats export: every row, read in pages (src/stats/export.ts)

  /**
   * The finished games' seats of a rule set in a range, in the order they finished (then game,
   * then seat), after the key `after` (keyset paging on the results_guild_ruleset_date index):
   * every seat, counted or not, with its game's facts and the seat's rating change.
   */
  async exportSeats(
    q: Omit<StandingsQuery, 'period'>,
    after: { finishedAt: number; gameId: number; seat: number } | null,
    limit: number,
  ): Promise<ExportSeatRow[]> {
    const { guildId: guild, ruleset, from, to, tournament } = q;
    const key = after
      ? sql` AND (r.finished_at > ${after.finishedAt} OR (r.finished_at = ${after.finishedAt} AND (r.game_id > ${after.gameId}
          OR (r.game_id = ${after.gameId} AND r.seat > ${after.seat}))))`
      : sql``;
    const inTournament = tournament === null ? sql`` : sql` AND g.tournament_id = ${tournament}`;
    const rows = await this.c.rows<Record<string, unknown>>(sql`SELECT r.game_id, r.seat, r.user_id, r.role, r.team,
        r.outcome, r.points, r.breakdown, r.best_player, r.killed_night1, r.finished_at, r.counts, r.no_day_vote, r.moves,
        r.fouls, r.removed, r.best_move_black, r.holders, g.winner, g.rated, g.annulled_at, g.tournament_id, g.pace,
        g.started_at, h.before AS elo_before, h.after AS elo_after
      FROM results r ${this.f.fixedJoin} games g ON g.id = r.game_id
        LEFT JOIN rating_history h ON h.game_id = r.game_id AND h.user_id = r.user_id
      WHERE r.guild_id = ${guild} AND r.ruleset = ${ruleset} AND r.finished_at >= ${from} AND r.finished_at < ${to}${key}${inTournament}
      ORDER BY r.finished_at, r.game_id, r.seat LIMIT ${sql.raw(String(Math.floor(limit)))}`);
    return rows.map((r) => ({
      gameId: num(r.game_id),
      seat: num(r.seat),
      userId: String(r.user_id),
      role: String(r.role),
      team: String(r.team),
      outcome: String(r.outcome),
      points: num(r.points),
      breakdown: String(r.breakdown),
      bestPlayer: flag(r.best_player),
      killedNight1: flag(r.killed_night1),
      finishedAt: num(r.finished_at),
      counts: flag(r.counts),
      noDayVote: flag(r.no_day_vote),
      moves: num(r.moves),
      fouls: num(r.fouls),
      removed: flag(r.removed),
      bestMoveBlack: numOrNull(r.best_move_black),
      holders: r.holders === null || r.holders === undefined ? null : String(r.holders),
      winner: r.winner === null || r.winner === undefined ? null : String(r.winner),
      rated: flag(r.rated),
      annulledAt: numOrNull(r.annulled_at),
      tournamentId: numOrNull(r.tournament_id),
      pace: String(r.pace),
      startedAt: numOrNull(r.started_at),
      eloBefore: numOrNull(r.elo_before),
      eloAfter: numOrNull(r.elo_after),
    }));
  }

  // -------------------------------------------------------------------------------------------
  // /stats player: all reads on (guild, user, date) indexes

  /** The rule set the player played last on this server. */
  async latestRuleset(guildId: string, userId: string): Promise<string | null> {
    const [r] = await this.c.rows<{ ruleset: string }>(
      sql`SELECT ruleset FROM results WHERE guild_id = ${guildId} AND user_id = ${userId} ORDER BY finished_at DESC LIMIT 1`,
    );
    return r?.ruleset ?? null;
  }

  async profileTotals(q: ProfileQuery): Promise<ProfileTotals> {
    const { countIf, half } = this.f;
    const [r] = await this.c.rows<Record<keyof ProfileTotals, unknown>>(
      sql`SELECT count(*) AS games, coalesce(${countIf(sql`outcome = 'win'`)}, 0) AS wins,
        coalesce(sum(${half(sql`points`)}), 0) AS half, coalesce(${countIf(sql`best_player`)}, 0) AS best,
        coalesce(${countIf(sql`best_move_black IS NOT NULL`)}, 0) AS moves, coalesce(${countIf(sql`killed_night1`)}, 0) AS n1,
        coalesce(sum(fouls), 0) AS fouls, coalesce(${countIf(sql`removed`)}, 0) AS removals
       FROM results WHERE ${this.profileWhere(q)} AND counts = ${this.f.true}`,
    );
    return {
      games: num(r!.games),
      wins: num(r!.wins),
      half: num(r!.half),
      best: num(r!.best),
      moves: num(r!.moves),
      n1: num(r!.n1),
      fouls: num(r!.fouls),
      removals: num(r!.removals),
    };
  }

  async profileByRole(q: ProfileQuery): Promise<{ role: string; games: number; wins: number }[]> {
    const rows = await this.c.rows<{ role: string; games: unknown; wins: unknown }>(
      sql`SELECT role, count(*) AS games, ${this.f.countIf(sql`outcome = 'win'`)} AS wins FROM results
        WHERE ${this.profileWhere(q)} AND counts = ${this.f.true}
      GROUP BY role ORDER BY games DESC, role`,
    );
    return rows.map((r) => ({ role: r.role, games: num(r.games), wins: num(r.wins) }));
  }

  /** Outcomes of the player's latest counted games, newest first. */
  async recentOutcomes(q: ProfileQuery, limit: number): Promise<string[]> {
    const rows = await this.c.rows<{ outcome: string }>(
      sql`SELECT outcome FROM results WHERE ${this.profileWhere(q)} AND counts = ${this.f.true}
      ORDER BY finished_at DESC LIMIT ${sql.raw(String(Math.floor(limit)))}`,
    );
    return rows.map((r) => r.outcome);
  }

  /** The player's latest games (counted or not), newest first. */
  async lastGames(q: ProfileQuery, limit: number) {
    const rows = await this.c.rows<{
      game_id: number;
      role: string;
      outcome: string;
      points: number;
      finished_at: number;
      counts: number | boolean;
    }>(sql`SELECT game_id, role, outcome, points, finished_at, counts FROM results WHERE ${this.profileWhere(q)}
      ORDER BY finished_at DESC LIMIT ${sql.raw(String(Math.floor(limit)))}`);
    return rows.map((r) => ({
      gameId: num(r.game_id),
      role: r.role,
      outcome: r.outcome,
      points: num(r.points),
      finishedAt: num(r.finished_at),
      counts: flag(r.counts),
    }));
  }

  /** The player's latest rating changes in the range, newest first. */
  async ratingChanges(q: ProfileQuery, limit: number): Promise<{ at: number; before: number; after: number }[]> {
    const rows = await this.c.rows<{ at: number; before: number; after: number }>(
      sql`SELECT finished_at AS at, before, after FROM rating_history WHERE guild_id = ${q.guildId}
         AND ruleset = ${q.ruleset} AND user_id = ${q.userId} AND finished_at >= ${q.from} AND finished_at < ${q.to}${this.inTournament(q.tournament)}
       ORDER BY finished_at DESC LIMIT ${sql.raw(String(Math.floor(limit)))}`,
    );
    return rows.map((r) => ({ at: num(r.at), before: num(r.before), after: num(r.after) }));
  }

  // -------------------------------------------------------------------------------------------
  // /stats game

  /** A game of this server for its record (null when there is none with this id). */
  async recordGame(guildId: string, gameId: number): Promise<RecordGameRow | null> {
    const [r] = await this.c.rows<RecordGameRow>(sql`SELECT id, guild_id, ruleset, pace, options, deal, started_at,
        finished_at, annulled_at, status, rated, preset
      FROM games WHERE id = ${gameId} AND guild_id = ${guildId}`);
    if (!r) return null;
    return {
      ...r,
      rated: Boolean(r.rated),
      id: num(r.id),
      started_at: numOrNull(r.started_at),
      finished_at: numOrNull(r.finished_at),
      annulled_at: numOrNull(r.annulled_at),
    };
  }

  async recordResults(gameId: number): Promise<RecordResultRow[]> {
    const rows = await this.c.rows<RecordResultRow>(sql`SELECT seat, user_id, role, points, breakdown, holders,
        no_day_vote, moves FROM results
      WHERE game_id = ${gameId} ORDER BY seat`);
    return rows.map((r) => ({
      ...r,
      seat: num(r.seat),
      points: num(r.points),
      no_day_vote: flag(r.no_day_vote) ? 1 : 0,
      moves: num(r.moves),
    }));
  }

  /** The game's log (actions as stored JSON), in order. */
  async loggedActions(gameId: number): Promise<{ action: string; at: number }[]> {
    const { db, t } = this.c;
    return this.c.all(
      db
        .select({ action: t.actions.action, at: t.actions.at })
        .from(t.actions)
        .where(eq(t.actions.gameId, gameId))
        .orderBy(asc(t.actions.seq)),
    );
  }

  // -------------------------------------------------------------------------------------------
  // The statements' parts

  /** ` AND game_id IN (the tournament's games)`, or nothing. */
  private inTournament(tournament: number | null): SQL {
    return tournament === null
      ? sql``
      : sql` AND game_id IN (SELECT id FROM games WHERE tournament_id = ${tournament})`;
  }

  private profileWhere(q: ProfileQuery): SQL {
    return sql`guild_id = ${q.guildId} AND user_id = ${q.userId} AND ruleset = ${q.ruleset} AND finished_at >= ${q.from}
      AND finished_at < ${q.to}${this.inTournament(q.tournament)}`;
  }

  /**
   * The standings rows the ranking reads. All time and seasons: the maintained rows. The last N
   * days: each player's running totals now minus his totals before the period (two index seeks per
   * player, whatever the period's length). A tournament: its games' results (few).
   */
  private pointsSource(q: StandingsQuery): SQL {
    const { guildId: guild, ruleset, from, to, tournament, period } = q;
    const preset = q.preset ?? null;
    if (preset !== null && tournament === null && period.kind === 'all')
      return sql`SELECT * FROM standings WHERE guild_id = ${guild} AND ruleset = ${ruleset} AND scope = ${`p:${preset}`}`;
    if (preset === null && tournament === null && period.kind !== 'days') {
      const scope = period.kind === 'all' ? 'all' : `s${period.id}`;
      return sql`SELECT * FROM standings WHERE guild_id = ${guild} AND ruleset = ${ruleset} AND scope = ${scope}`;
    }
    if (preset === null && tournament === null) {
      const player = sql`l.guild_id = ${guild} AND l.ruleset = ${ruleset} AND l.user_id = s.user_id`;
      return sql`SELECT s.user_id, ${sql.raw(TOTALS.map((c) => `s.${c} - coalesce(b.${c}, 0) AS ${c}`).join(', '))}
        FROM standings s ${this.lastTotals('LEFT JOIN', 'b', sql`${from}`, player)}
        WHERE s.guild_id = ${guild} AND s.ruleset = ${ruleset} AND s.scope = 'all' AND s.games - coalesce(b.games, 0) > 0`;
    }
    // A tournament's or a preset's games in a period: their results summed. SQLite's CROSS JOIN
    // walks the games first (by games_tournament or games_guild_preset_finished), then each game's results by its key.
    const { countIf, half } = this.f;
    const games = [
      ...(tournament !== null ? [sql`g.tournament_id = ${tournament}`] : []),
      // A preset's games by games_guild_preset_finished: those of the period only (a game's results
      // carry its finished_at).
      ...(preset !== null ? [sql`g.preset = ${preset} AND g.finished_at >= ${from} AND g.finished_at < ${to}`] : []),
    ];
    return sql`SELECT r.user_id, sum(${half(sql`r.points`)}) AS half_points, count(*) AS games,
        ${countIf(sql`r.outcome = 'win'`)} AS wins, ${countIf(sql`r.best_player`)} AS best_player,
        ${countIf(sql`r.outcome = 'win' AND r.role = 'don'`)} AS wins_don,
        ${countIf(sql`r.outcome = 'win' AND r.role = 'sheriff'`)} AS wins_sheriff,
        ${countIf(sql`r.outcome = 'win' AND r.role = 'mafia'`)} AS wins_mafia, ${countIf(sql`r.killed_night1`)} AS killed_night1
      FROM games g ${this.f.fixedJoin} results r ON r.game_id = g.id
      WHERE ${sql.join(games, sql` AND `)} AND g.guild_id = ${guild} AND r.ruleset = ${ruleset} AND r.counts = ${this.f.true}
        AND r.finished_at >= ${from} AND r.finished_at < ${to}
      GROUP BY r.user_id`;
  }

  /** Elo rows: the current ratings, or each player's rating after his last game in the period. */
  private eloSource(q: StandingsQuery): SQL {
    const { guildId: guild, ruleset, from, to, tournament, period } = q;
    if (tournament === null && period.kind === 'all') {
      return sql`SELECT r.user_id, r.elo, r.games, coalesce(s.wins, 0) AS wins, coalesce(s.best_player, 0) AS best_player,
          coalesce(s.half_points, 0) AS half_points
        FROM ratings r LEFT JOIN standings s ON s.guild_id = r.guild_id AND s.ruleset = r.ruleset AND s.scope = 'all'
          AND s.user_id = r.user_id
        WHERE r.guild_id = ${guild} AND r.ruleset = ${ruleset}`;
    }
    if (tournament === null) {
      // Per player: his last rated game before the period's end and his last before its start.
      const seek = (kind: 'JOIN' | 'LEFT JOIN', alias: string, bound: number): SQL => {
        const a = sql.raw(alias);
        const last = (cols: string) => sql`SELECT ${sql.raw(cols)} FROM rating_history h WHERE h.guild_id = ${guild}
          AND h.ruleset = ${ruleset} AND h.user_id = r.user_id AND h.finished_at < ${bound} ORDER BY h.finished_at DESC LIMIT 1`;
        if (this.c.dialect === 'sqlite')
          return sql`${sql.raw(kind)} rating_history ${a} ON ${a}.rowid = (${last('h.rowid')})`;
        return sql`${sql.raw(kind)} LATERAL (${last('h.after, h.n')}) ${a} ON TRUE`;
      };
      // A period with no end yet (an open season, the last N days): his rating now is his rating
      // after his last game (a rating and its history row are written together: elo = after,
      // games = n), so one seek per player instead of two, as the points' standings do.
      if (to >= Number.MAX_SAFE_INTEGER)
        return sql`SELECT r.user_id, r.elo, r.games - coalesce(b.n, 0) AS games, 0 AS wins, 0 AS best_player,
            0 AS half_points
          FROM ratings r ${seek('LEFT JOIN', 'b', from)}
          WHERE r.guild_id = ${guild} AND r.ruleset = ${ruleset} AND r.games - coalesce(b.n, 0) > 0`;
      return sql`SELECT r.user_id, e.after AS elo, e.n - coalesce(b.n, 0) AS games, 0 AS wins, 0 AS best_player,
          0 AS half_points
        FROM ratings r ${seek('JOIN', 'e', to)}
          ${seek('LEFT JOIN', 'b', from)}
        WHERE r.guild_id = ${guild} AND r.ruleset = ${ruleset} AND e.n - coalesce(b.n, 0) > 0`;
    }
    const where = sql`g.tournament_id = ${tournament} AND g.guild_id = ${guild} AND h.ruleset = ${ruleset}
        AND h.finished_at >= ${from} AND h.finished_at < ${to}`;
    if (this.c.dialect === 'sqlite')
      // SQLite: with max(), the other bare columns come from the row holding the maximum.
      return sql`SELECT h.user_id, h.after AS elo, count(*) AS games, 0 AS wins, 0 AS best_player, 0 AS half_points,
          max(h.finished_at) AS last
        FROM games g CROSS JOIN rating_history h ON h.game_id = g.id
        WHERE ${where}
        GROUP BY h.user_id`;
    // PostgreSQL: each player's last row (DISTINCT ON), his games counted over all of his rows.
    return sql`SELECT DISTINCT ON (h.user_id) h.user_id, h.after AS elo, count(*) OVER (PARTITION BY h.user_id) AS games,
          0 AS wins, 0 AS best_player, 0 AS half_points, h.finished_at AS last
        FROM games g JOIN rating_history h ON h.game_id = g.id
        WHERE ${where}
        ORDER BY h.user_id, h.finished_at DESC`;
  }
}
