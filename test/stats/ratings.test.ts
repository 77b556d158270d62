// Ratings and standings from stored results (issue 12): the team-average Elo (hand-checked),
// substitutes and removals, which games count, every S-5 tie-break step in SQL against the pure
// standings(), the kiev-12 cap of 5 through the real game-closing transaction, seasons, periods,
// annulment and pagination.
import { describe, expect, it } from 'vitest';
import { GameService } from '../../src/app/game-service';
import { openDatabase } from '../../src/db/client';
import { Store } from '../../src/db/store';
import { eloChanges, redChance, seatShares, voidReason, type RatedSeat } from '../../src/engine/rating';
import { RULESETS } from '../../src/engine/rulesets';
import { standings, type GameRecord } from '../../src/engine/standings';
import type { Role, RulesetId } from '../../src/engine/types';
import { parseScenario } from '../../src/scenario/parse';
import { stepToAction } from '../../src/scenario/run';
import { gameRecord } from '../../src/stats/game-record';
import { PAGE_SIZE, profile, top, type StatsFilter } from '../../src/stats/queries';
import {
  interruptedRebuilds,
  isRebuilding,
  onGameAnnulled,
  rebuildSeason,
  recomputeInBackground,
  recomputeRatings,
  recordGame,
  saveRatingSettings,
  unbuilt,
} from '../../src/stats/record';
import { readJson, OWN_DIR } from '../../testkit/scenario-files';
import { rawSqlite } from '../../testkit/raw-sqlite';
import { join } from 'node:path';

const G = 'g1';

function fresh() {
  const o = openDatabase(':memory:');
  const store = new Store(o.connection);
  return { o, store, db: store.stats };
}

/** A finished game's rows written straight to the results table, then rated as at a game's close. */
async function putGame(
  store: Store,
  ruleset: RulesetId,
  finishedAt: number,
  seats: {
    user: string;
    role: Role;
    points: number;
    outcome: 'win' | 'loss' | 'draw';
    best?: boolean;
    n1?: boolean;
    removed?: boolean;
    holders?: { userId: string; share: number }[];
  }[],
  extra: { noDayVote?: boolean; moves?: number } = {},
): Promise<number> {
  const game = await store.createLobby({
    guildId: G,
    channelId: 'c',
    hostId: 'h',
    ruleset,
    pace: 'live',
    options: {},
    now: finishedAt,
  });
  const ins = rawSqlite(store).prepare(
    `INSERT INTO results (game_id, seat, guild_id, user_id, ruleset, role, team, outcome, points, breakdown, best_player, killed_night1, finished_at, no_day_vote, moves, removed, holders)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '{}', ?, ?, ?, ?, ?, ?, ?)`,
  );
  await store.transaction(async () => {
    seats.forEach((s, i) => {
      const team = ['mafia', 'don', 'prostitute'].includes(s.role) ? 'black' : 'red';
      ins.run(
        game.id,
        i + 1,
        G,
        s.user,
        ruleset,
        s.role,
        team,
        s.outcome,
        s.points,
        s.best ? 1 : 0,
        s.n1 ? 1 : 0,
        finishedAt,
        extra.noDayVote ? 1 : 0,
        extra.moves ?? 100,
        s.removed ? 1 : 0,
        s.holders ? JSON.stringify(s.holders) : null,
      );
    });
    rawSqlite(store).prepare("UPDATE games SET status = 'over', finished_at = ? WHERE id = ?").run(finishedAt, game.id);
    await recordGame(store.stats, game.id, game.guildId);
  });
  return game.id;
}

const filter = (ruleset: RulesetId, extra: Partial<StatsFilter> = {}): StatsFilter => ({
  guildId: G,
  ruleset,
  period: { kind: 'all' },
  now: 10_000 * 86_400_000,
  ...extra,
});

/** All pages of /stats top. */
async function allRows(db: ReturnType<typeof fresh>['db'], f: StatsFilter, by: 'points' | 'elo' = 'points') {
  const out = [];
  const first = await top(db, f, by, 0, null);
  for (let p = 0; p < first.pages; p++) out.push(...(await top(db, f, by, p, null)).rows);
  return out;
}

describe('Elo (team average, as rating sites compute it)', () => {
  it('a hand-checked example: red averages 1100, black 1050, red wins', () => {
    // P(red) = 1 / (1 + 10^((1050 − 1100) / 400)) = 1 / (1 + 10^−0.125) = 1 / 1.74989 = 0.571465
    expect(redChance(1100, 1050)).toBeCloseTo(0.571465, 5);
    const seats: RatedSeat[] = [
      ...Array.from({ length: 7 }, (_, i) => ({
        team: 'red' as const,
        removed: false,
        holders: [{ userId: `r${i}`, share: 1 }],
      })),
      ...Array.from({ length: 3 }, (_, i) => ({
        team: 'black' as const,
        removed: false,
        holders: [{ userId: `b${i}`, share: 1 }],
      })),
    ];
    const c = eloChanges(seats, 'red', (u) => (u.startsWith('r') ? 1100 : 1050), { win: 20, loss: 15, start: 1000 });
    // winners gain 20 × the losing side's chance (0.428535) = +8.5707; losers lose 15 × their own chance = −6.4280
    expect(c.get('r0')!.after).toBeCloseTo(1108.5707, 3);
    expect(c.get('b0')!.after).toBeCloseTo(1043.572, 3);
  });

  it('everyone starts at 1000 and never drops below it; a draw changes nothing', () => {
    const seats: RatedSeat[] = [
      { team: 'red', removed: false, holders: [{ userId: 'a', share: 1 }] },
      { team: 'black', removed: false, holders: [{ userId: 'b', share: 1 }] },
    ];
    const c = eloChanges(seats, 'red', () => 1000);
    expect(c.get('a')!.after).toBeCloseTo(1010, 6); // 20 × 0.5
    expect(c.get('b')!.after).toBe(1000); // 1000 − 7.5, floored at the start
    const d = eloChanges(seats, 'draw', (u) => (u === 'a' ? 1010 : 1000));
    expect([d.get('a')!.after, d.get('b')!.after]).toEqual([1010, 1000]);
  });

  it('a player removed for fouls takes the loss even when his team wins', () => {
    const seats: RatedSeat[] = [
      { team: 'red', removed: true, holders: [{ userId: 'a', share: 1 }] },
      { team: 'red', removed: false, holders: [{ userId: 'b', share: 1 }] },
      { team: 'black', removed: false, holders: [{ userId: 'c', share: 1 }] },
    ];
    const c = eloChanges(seats, 'red', () => 1100);
    expect(c.get('a')!.after).toBeCloseTo(1100 - 15 * 0.5, 6); // his own side's chance
    expect(c.get('b')!.after).toBeCloseTo(1110, 6);
  });

  it('a substitute is rated for the part he played (shares of the moves)', () => {
    expect(seatShares('a', [{ atMove: 30, to: 'b' }], 120)).toEqual([
      { userId: 'a', share: 0.25 },
      { userId: 'b', share: 0.75 },
    ]);
    const seats: RatedSeat[] = [
      {
        team: 'red',
        removed: false,
        holders: [
          { userId: 'a', share: 0.25 },
          { userId: 'b', share: 0.75 },
        ],
      },
      { team: 'black', removed: false, holders: [{ userId: 'c', share: 1 }] },
    ];
    const c = eloChanges(seats, 'red', () => 1200);
    expect(c.get('a')!.after).toBeCloseTo(1200 + 10 * 0.25, 6);
    expect(c.get('b')!.after).toBeCloseTo(1200 + 10 * 0.75, 6);
  });

  it('which games count: annulled, casual, ended by the host before any day vote, fewer moves than the minimum', () => {
    expect(voidReason({ annulled: true, noDayVote: false, moves: 500 }, 0)).toBe('annulled');
    // Issue 24: a casual game never counts, whatever else is true of it.
    expect(voidReason({ annulled: false, casual: true, noDayVote: false, moves: 500 }, 0)).toBe('casual');
    expect(voidReason({ annulled: true, casual: true, noDayVote: false, moves: 500 }, 0)).toBe('annulled');
    expect(voidReason({ annulled: false, casual: false, noDayVote: false, moves: 500 }, 0)).toBeNull();
    expect(voidReason({ annulled: false, noDayVote: true, moves: 500 }, 0)).toBe('no-day-vote');
    expect(voidReason({ annulled: false, noDayVote: false, moves: 9 }, 10)).toBe('min-moves');
    expect(voidReason({ annulled: false, noDayVote: false, moves: 10 }, 10)).toBeNull();
  });
});

describe('S-5 standings in SQL', () => {
  const classicRow = (
    user: string,
    role: Role,
    points: number,
    outcome: 'win' | 'loss',
    o: { best?: boolean; n1?: boolean } = {},
  ) => ({ user, role, points, outcome, ...o });

  it('classic-10: every tie-break step in order (wins, best player, wins as Don, as Sheriff, as mafia, killed on night 1)', async () => {
    const { store, db } = fresh();
    // Each pair has the same points; the pair is decided by exactly one step.
    let at = 1;
    const game = async (rows: Parameters<typeof putGame>[3]) => await putGame(store, 'classic-10', at++, rows);
    // step 1: wins (A1 2 wins of 1.5 each = 3; A2 one win of 3)
    await game([classicRow('A1', 'civilian', 1.5, 'win'), classicRow('A2', 'civilian', 3, 'win')]);
    await game([classicRow('A1', 'civilian', 1.5, 'win')]);
    // step 2: best-player titles (same wins, same points)
    await game([classicRow('B1', 'civilian', 2, 'win', { best: true }), classicRow('B2', 'civilian', 2, 'win')]);
    // step 3: wins as Don
    await game([classicRow('C1', 'don', 1, 'win'), classicRow('C2', 'civilian', 1, 'win')]);
    // step 4: wins as Sheriff
    await game([classicRow('D1', 'sheriff', 0.5, 'win'), classicRow('D2', 'civilian', 0.5, 'win')]);
    // step 5: wins as mafia
    await game([classicRow('E1', 'mafia', -0.5, 'win'), classicRow('E2', 'civilian', -0.5, 'win')]);
    // step 6: killed on night 1
    await game([classicRow('F1', 'civilian', -1, 'loss', { n1: true }), classicRow('F2', 'civilian', -1, 'loss')]);
    // level after every step: they share the place
    await game([classicRow('G1', 'civilian', -2, 'loss'), classicRow('G2', 'civilian', -2, 'loss')]);
    const rows = await allRows(db, filter('classic-10'));
    expect(rows.map((r) => r.userId)).toEqual([
      'A1',
      'A2',
      'B1',
      'B2',
      'C1',
      'C2',
      'D1',
      'D2',
      'E1',
      'E2',
      'F1',
      'F2',
      'G1',
      'G2',
    ]);
    expect(rows.map((r) => r.place)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 13]);
    expect(rows[0]!.points).toBe(3);
  });

  it('chnu-2016: more best-player titles; kiev-12: more games won, then fewer games', async () => {
    const { store, db } = fresh();
    await putGame(store, 'chnu-2016', 1, [
      { user: 'x', role: 'civilian', points: 4, outcome: 'win' },
      { user: 'y', role: 'civilian', points: 1, outcome: 'win', best: true },
    ]);
    await putGame(store, 'chnu-2016', 2, [{ user: 'y', role: 'civilian', points: 3, outcome: 'loss' }]);
    expect((await allRows(db, filter('chnu-2016'))).map((r) => [r.userId, r.points, r.place])).toEqual([
      ['y', 4, 1],
      ['x', 4, 2],
    ]);
    await putGame(store, 'kiev-12', 1, [
      { user: 'k1', role: 'civilian', points: 3, outcome: 'win' },
      { user: 'k2', role: 'civilian', points: 3, outcome: 'loss' },
      { user: 'k3', role: 'civilian', points: 2, outcome: 'win' },
    ]);
    await putGame(store, 'kiev-12', 2, [
      { user: 'k3', role: 'civilian', points: 1, outcome: 'loss' },
      { user: 'k4', role: 'civilian', points: 3, outcome: 'win' },
    ]);
    // k1, k3, k4 have 3 points and 1 win; k1 and k4 have fewer games than k3; k2 has no win.
    expect((await allRows(db, filter('kiev-12'))).map((r) => [r.userId, r.place])).toEqual([
      ['k1', 1],
      ['k4', 1],
      ['k3', 3],
      ['k2', 4],
    ]);
  });

  it('equals the pure standings() on random results of every rule set, across pages, to the half point', async () => {
    const { store, db } = fresh();
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const rs of ['chnu-2016', 'classic-10', 'kiev-12'] as RulesetId[]) {
      const records: GameRecord[] = [];
      const roles: Role[] = ['civilian', 'sheriff', 'don', 'mafia'];
      for (let g = 0; g < 60; g++) {
        const seats = Array.from({ length: 6 }, (_, i) => {
          const user = `u${(g * 7 + i * 13) % 37}`;
          return {
            user,
            role: roles[Math.floor(rnd() * 4)]!,
            points: Math.round(rnd() * 12 - 2) / 2,
            outcome: (rnd() < 0.5 ? 'win' : 'loss') as 'win' | 'loss',
            best: rnd() < 0.15,
            n1: rnd() < 0.1,
          };
        });
        const uniq = seats.filter((s, i) => seats.findIndex((x) => x.user === s.user) === i);
        await putGame(store, rs, 1000 + g, uniq);
        for (const s of uniq)
          records.push({
            player: s.user,
            points: s.points,
            won: s.outcome === 'win',
            role: s.role,
            bestPlayer: s.best,
            killedNight1: s.n1,
          });
      }
      const want = standings(RULESETS[rs].scoring, records);
      const got = await allRows(db, filter(rs));
      expect(got.length).toBeGreaterThan(PAGE_SIZE * 2);
      // The same places and points for every player (order among level players may differ only by name).
      expect(new Map(got.map((r) => [r.userId, [r.place, r.points, r.games, r.wins]]))).toEqual(
        new Map(want.map((r) => [r.player, [r.place, r.points, r.games, r.wins]])),
      );
      expect(got.map((r) => r.place)).toEqual([...got.map((r) => r.place)].sort((a, b) => a - b));
    }
  });

  it("the caller's own row comes with every page; periods and seasons", async () => {
    const { store, db } = fresh();
    const day = 86_400_000;
    for (let g = 0; g < 30; g++)
      await putGame(store, 'classic-10', g * day, [{ user: `p${g}`, role: 'civilian', points: g / 2, outcome: 'win' }]);
    await putGame(store, 'classic-10', 29 * day, [{ user: 'me', role: 'civilian', points: 0, outcome: 'loss' }]);
    const p0 = await top(db, filter('classic-10'), 'points', 0, 'me');
    expect(p0.rows).toHaveLength(10);
    expect(p0.total).toBe(31);
    expect(p0.own?.userId).toBe('me');
    expect(p0.own?.place).toBe(31); // level with p0 on points, but p0 has a win (S-5 classic-10)
    const last = await top(db, filter('classic-10'), 'points', 3, 'me');
    expect(last.rows.map((r) => r.userId)).toContain('me');
    expect(last.own).toBeNull();
    // The last 5 days: games finished at days 25..29 (now = day 30).
    const recent = await top(
      db,
      filter('classic-10', { period: { kind: 'days', days: 5 }, now: 30 * day }),
      'points',
      0,
      null,
    );
    expect(recent.rows.map((r) => r.userId)).toEqual(['p29', 'p28', 'p27', 'p26', 'p25', 'me']);
    // A season defined afterwards gets its standings from the stored results.
    const s = rawSqlite(store)
      .prepare('INSERT INTO seasons (guild_id, name, starts_at, ends_at, created_at) VALUES (?, ?, ?, ?, 0)')
      .run(G, 'Autumn', 10 * day, 20 * day);
    await rebuildSeason(db, G, Number(s.lastInsertRowid));
    const season = await top(
      db,
      filter('classic-10', {
        period: { kind: 'season', id: Number(s.lastInsertRowid), name: 'Autumn', from: 10 * day, to: 20 * day },
      }),
      'points',
      0,
      null,
    );
    expect(season.total).toBe(10);
    expect(season.rows[0]!.userId).toBe('p19');
    // A game closing inside the open season is added to it at once.
    const open = Number(
      rawSqlite(store)
        .prepare('INSERT INTO seasons (guild_id, name, starts_at, ends_at, created_at) VALUES (?, ?, ?, NULL, 0)')
        .run(G, 'Now', 40 * day).lastInsertRowid,
    );
    await putGame(store, 'classic-10', 41 * day, [{ user: 'late', role: 'don', points: 5, outcome: 'win' }]);
    const now = await top(
      db,
      filter('classic-10', { period: { kind: 'season', id: open, name: 'Now', from: 40 * day, to: null } }),
      'points',
      0,
      null,
    );
    expect(now.rows.map((r) => [r.userId, r.points])).toEqual([['late', 5]]);
  });

  it('the last N days and Elo in a period (running totals and index seeks) equal a direct count', async () => {
    const { store, db } = fresh();
    const day = 86_400_000;
    let seed = 11;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const records: (GameRecord & { at: number })[] = [];
    for (let g = 0; g < 150; g++) {
      const at = Math.floor(g * 0.7 * day);
      const users = new Set<string>();
      while (users.size < 6) users.add(`u${Math.floor(rnd() * 20)}`);
      const redWins = rnd() < 0.5;
      const seats = [...users].map((user, i) => {
        const black = i >= 4;
        const won = black ? !redWins : redWins;
        return {
          user,
          role: (black ? (i === 4 ? 'don' : 'mafia') : i === 0 ? 'sheriff' : 'civilian') as Role,
          points: won ? Math.round(rnd() * 8) / 2 : -Math.round(rnd() * 2) / 2,
          outcome: (won ? 'win' : 'loss') as 'win' | 'loss',
          best: rnd() < 0.15,
          n1: rnd() < 0.1,
        };
      });
      await putGame(store, 'classic-10', at, seats);
      for (const s of seats)
        records.push({
          at,
          player: s.user,
          points: s.points,
          won: s.outcome === 'win',
          role: s.role,
          bestPlayer: s.best,
          killedNight1: s.n1,
        });
    }
    const now = 106 * day;
    for (const days of [1, 5, 30, 90, 400]) {
      const cutoff = now - days * day;
      const want = standings(
        'classic',
        records.filter((r) => r.at >= cutoff),
      );
      const got = await allRows(db, filter('classic-10', { period: { kind: 'days', days }, now }));
      expect(
        new Map(got.map((r) => [r.userId, [r.place, r.points, r.games, r.wins, r.bestPlayer]])),
        `${days} days`,
      ).toEqual(new Map(want.map((r) => [r.player, [r.place, r.points, r.games, r.wins, r.bestPlayer]])));
      const hist = rawSqlite(store)
        .prepare('SELECT user_id, after, finished_at FROM rating_history WHERE finished_at >= ? ORDER BY finished_at')
        .all(cutoff) as { user_id: string; after: number }[];
      const last = new Map<string, { elo: number; games: number }>();
      for (const h of hist) last.set(h.user_id, { elo: h.after, games: (last.get(h.user_id)?.games ?? 0) + 1 });
      const elo = await allRows(db, filter('classic-10', { period: { kind: 'days', days }, now }), 'elo');
      expect(new Map(elo.map((r) => [r.userId, { elo: r.elo!, games: r.games }])), `Elo, ${days} days`).toEqual(last);
    }
  });

  it('games that do not count are left out; the minimum moves and an annulment recompute everything', async () => {
    const { store, db } = fresh();
    await putGame(store, 'classic-10', 1, [
      { user: 'a', role: 'civilian', points: 3, outcome: 'win' },
      { user: 'b', role: 'don', points: -1, outcome: 'loss' },
    ]);
    await putGame(store, 'classic-10', 2, [{ user: 'a', role: 'civilian', points: 3, outcome: 'win' }], {
      noDayVote: true,
    });
    const short = await putGame(store, 'classic-10', 3, [{ user: 'b', role: 'don', points: 5, outcome: 'win' }], {
      moves: 12,
    });
    expect((await allRows(db, filter('classic-10'))).map((r) => [r.userId, r.points])).toEqual([
      ['b', 4],
      ['a', 3],
    ]);
    await saveRatingSettings(db, G, { elo: { win: 20, loss: 15, start: 1000 }, minMoves: 20 }, 0);
    await recomputeRatings(db, G);
    expect((await allRows(db, filter('classic-10'))).map((r) => [r.userId, r.points])).toEqual([
      ['a', 3],
      ['b', -1],
    ]);
    await saveRatingSettings(db, G, { elo: { win: 20, loss: 15, start: 1000 }, minMoves: 0 }, 0);
    rawSqlite(store).prepare('UPDATE games SET annulled_at = 5 WHERE id = ?').run(short);
    await recomputeRatings(db, G, 'classic-10');
    expect((await allRows(db, filter('classic-10'))).map((r) => [r.userId, r.points])).toEqual([
      ['a', 3],
      ['b', -1],
    ]);
    // Elo after the recompute equals the incremental Elo of the same counted games.
    const elo = (await allRows(db, filter('classic-10'), 'elo')).map((r) => [
      r.userId,
      Math.round(r.elo! * 1000) / 1000,
    ]);
    expect(elo).toEqual([
      ['a', 1010],
      ['b', 1000],
    ]);
  });

  it('a recompute gives the same Elo as the game-by-game updates', async () => {
    const { store, db } = fresh();
    let seed = 3;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let g = 0; g < 80; g++) {
      const users = new Set<string>();
      while (users.size < 10) users.add(`u${Math.floor(rnd() * 25)}`);
      const redWins = rnd() < 0.55;
      const list = [...users];
      await putGame(
        store,
        'chnu-2016',
        g + 1,
        list.map((u, i) => {
          const black = i >= 7;
          const win = black ? !redWins : redWins;
          return {
            user: u,
            role: (black ? 'mafia' : 'civilian') as Role,
            points: win ? 4 : 0,
            outcome: (win ? 'win' : 'loss') as 'win' | 'loss',
            removed: i === 0 && rnd() < 0.2,
          };
        }),
      );
    }
    const before = (await allRows(db, filter('chnu-2016'), 'elo')).map((r) => [r.userId, r.elo!.toFixed(6), r.games]);
    await recomputeRatings(db, G);
    const after = (await allRows(db, filter('chnu-2016'), 'elo')).map((r) => [r.userId, r.elo!.toFixed(6), r.games]);
    expect(after).toEqual(before);
    expect(before.every((r) => Number(r[1]) >= 1000)).toBe(true);
  });
});

describe('a rebuild while the bot runs', () => {
  it('goes in small steps, takes in a game that closes meanwhile, and ends as a rebuild at once would', async () => {
    const { store, db } = fresh();
    const game = async (at: number, a: string, b: string) =>
      await putGame(store, 'chnu-2016', at, [
        { user: a, role: 'civilian', points: 4, outcome: 'win' },
        { user: b, role: 'mafia', points: 0, outcome: 'loss' },
      ]);
    for (let g = 0; g < 300; g++) await game(g + 1, `u${g % 7}`, `u${(g * 3 + 1) % 7 === g % 7 ? 0 : (g * 3 + 1) % 7}`);
    await saveRatingSettings(db, G, { elo: { win: 30, loss: 15, start: 1000 }, minMoves: 0 }, 0);
    let steps = 0;
    let done = false;
    const job = recomputeInBackground(db, G, 'chnu-2016').then(() => (done = true));
    await new Promise((r) => setImmediate(r));
    expect(isRebuilding(db, G, 'chnu-2016')).toBe(true);
    expect(await interruptedRebuilds(db)).toEqual([{ guildId: G, ruleset: 'chnu-2016' }]); // a crash now: finished at the next start
    await game(10_000, 'late', 'u1'); // a game closes during the rebuild
    while (!done) {
      steps++;
      await new Promise((r) => setImmediate(r));
    }
    await job;
    expect(steps).toBeGreaterThan(3);
    expect(isRebuilding(db, G, 'chnu-2016')).toBe(false);
    expect(await interruptedRebuilds(db)).toEqual([]);
    const background = (await allRows(db, filter('chnu-2016'), 'elo')).map((r) => [
      r.userId,
      r.elo!.toFixed(6),
      r.games,
    ]);
    const points = (await allRows(db, filter('chnu-2016'))).map((r) => [r.userId, r.points, r.games]);
    expect(background.map((r) => r[0])).toContain('late');
    await recomputeRatings(db, G, 'chnu-2016');
    expect((await allRows(db, filter('chnu-2016'), 'elo')).map((r) => [r.userId, r.elo!.toFixed(6), r.games])).toEqual(
      background,
    );
    expect((await allRows(db, filter('chnu-2016'))).map((r) => [r.userId, r.points, r.games])).toEqual(points);
  });
});

describe('an upgrade', () => {
  it('results stored before the ratings existed are found by index seeks and rated once', async () => {
    const { store, db } = fresh();
    const game = await store.createLobby({
      guildId: G,
      channelId: 'c',
      hostId: 'h',
      ruleset: 'kiev-12',
      pace: 'live',
      options: {},
      now: 1,
    });
    rawSqlite(store)
      .prepare(
        `INSERT INTO results (game_id, seat, guild_id, user_id, ruleset, role, team, outcome, points, breakdown, best_player, killed_night1, finished_at)
       VALUES (?, 1, ?, 'old', 'kiev-12', 'civilian', 'red', 'win', 3, '{}', 1, 0, 5)`,
      )
      .run(game.id, G);
    expect(await unbuilt(db)).toEqual([{ guildId: G, ruleset: 'kiev-12' }]);
    for (const u of await unbuilt(db)) await recomputeRatings(db, u.guildId, u.ruleset);
    expect(await unbuilt(db)).toEqual([]);
    expect((await allRows(db, filter('kiev-12'))).map((r) => [r.userId, r.points])).toEqual([['old', 3]]);
  });
});

describe('through the game service (the game-closing transaction)', () => {
  function play(file: string) {
    const sc = parseScenario(readJson(join(OWN_DIR, file)));
    const o = openDatabase(':memory:');
    const store = new Store(o.connection);
    let now = 1_000_000;
    const service = new GameService(store, { now: () => now });
    return {
      store,
      async run(substitute?: { atStep: number; seat: number; to: string }) {
        const game = await service.createLobby({
          guildId: G,
          channelId: 'c',
          hostId: 'host',
          ruleset: sc.ruleset,
          pace: sc.pace,
          options: sc.options,
        });
        await service.start(
          game.id,
          sc.roles.map((_, i) => `u${i + 1}`),
          sc.roles,
        );
        for (const [i, step] of sc.steps.entries()) {
          if (substitute?.atStep === i)
            await service.substitute(game.id, substitute.seat, substitute.to, 'host:host', null);
          const state = await service.state(game.id);
          if (!state) break;
          const action = stepToAction(step, state);
          if (!action) continue;
          if (action.kind === 'timeout' && state.deadline !== null) now = Math.max(now, state.deadline);
          now += 1000;
          await service.dispatch(
            game.id,
            action,
            step.type === 'host' || step.type === 'timeout' ? 'host:host' : `user:${(step as { seat: number }).seat}`,
          );
        }
        await service.close();
        return { game: game.id, expect: sc.expect as { points: Record<string, number> } };
      },
    };
  }

  it('kiev-12: the cap of 5 points per game reaches the standings', async () => {
    const w = play('kiev-black-wins-rating.json');
    const { game, expect: want } = await w.run();
    const db = w.store.stats;
    const rows = await allRows(db, filter('kiev-12'));
    expect(rows.find((r) => r.userId === 'u1')!.points).toBe(5);
    for (const [seat, pts] of Object.entries(want.points))
      expect(rows.find((r) => r.userId === `u${seat}`)?.points ?? 0).toBe(pts);
    const rec = (await gameRecord(db, G, game))!;
    // S-3, S-4: 3 for the rating and +2 from the host: the most a player can take from one game.
    expect(rec.points.find((p) => p.seat === 1)).toMatchObject({ total: 5, items: { rating: 3, bonus: 2 } });
    expect(Math.max(...rec.points.map((p) => p.total))).toBeLessThanOrEqual(5);
    expect(rec.days[0]!.votes.length).toBeGreaterThan(0);
    // Elo: black won; every black player gained, every red player stayed at the floor of 1000.
    const u1 = await profile(db, filter('kiev-12'), 'u1');
    expect(u1.games).toBe(1);
    expect(u1.elo).not.toBeNull();
  });

  it("a substitute: both holders are rated for their share of the moves; the seat's points go to the holder at the end", async () => {
    const w = play('chnu-red-full-strength.json');
    const { game } = await w.run({ atStep: 10, seat: 4, to: 'sub' });
    const db = w.store.stats;
    const holders = JSON.parse(
      (
        rawSqlite(w.store).prepare('SELECT holders FROM results WHERE game_id = ? AND seat = 4').get(game) as {
          holders: string;
        }
      ).holders,
    ) as { userId: string; share: number }[];
    expect(holders.map((h) => h.userId)).toEqual(['u4', 'sub']);
    expect(holders[0]!.share + holders[1]!.share).toBeCloseTo(1, 9);
    expect(holders[0]!.share).toBeGreaterThan(0);
    const hist = rawSqlite(w.store)
      .prepare(
        'SELECT user_id, share, before, after FROM rating_history WHERE game_id = ? AND seat = 4 ORDER BY user_id',
      )
      .all(game) as { user_id: string; share: number; before: number; after: number }[];
    expect(hist.map((h) => h.user_id)).toEqual(['sub', 'u4']);
    // Red won: the seat's gain is split by shares.
    const full = hist.reduce((sum, h) => sum + (h.after - h.before), 0);
    for (const h of hist) expect(h.after - h.before).toBeCloseTo(full * h.share, 9);
    const rows = await allRows(db, filter('chnu-2016'));
    expect(rows.find((r) => r.userId === 'sub')!.points).toBe(9);
    expect(rows.find((r) => r.userId === 'u4')).toBeUndefined();
    const rec = (await gameRecord(db, G, game))!;
    expect(rec.seats.find((x) => x.seat === 4)!.holders!.map((h) => h.userId)).toEqual(['u4', 'sub']);
  });
});

describe('a rebuild after an annul that the database fails (issue 20)', () => {
  it('is logged and tried again later, never left as an unhandled rejection, and ends as a rebuild at once would', async () => {
    const { store, db } = fresh();
    const id = await putGame(store, 'chnu-2016', 1, [
      { user: 'a', role: 'civilian', points: 4, outcome: 'win' },
      { user: 'b', role: 'mafia', points: 0, outcome: 'loss' },
    ]);
    await putGame(store, 'chnu-2016', 2, [
      { user: 'a', role: 'mafia', points: 4, outcome: 'win' },
      { user: 'b', role: 'civilian', points: 0, outcome: 'loss' },
    ]);
    rawSqlite(store).prepare('UPDATE games SET annulled_at = 5 WHERE id = ?').run(id);
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => void unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      // The disk fails twice, then comes back.
      let failures = 2;
      const tx = db.transaction.bind(db);
      db.transaction = (<T>(fn: () => Promise<T>): Promise<T> => {
        if (failures > 0) {
          failures--;
          throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
        }
        return tx(fn);
      }) as typeof db.transaction;
      const logged: string[] = [];
      const timers: { fn: () => void; ms: number }[] = [];
      await onGameAnnulled(db, id, {
        log: (m) => logged.push(m),
        firstDelayMs: 1000,
        setTimer: (fn, ms) => timers.push({ fn, ms }),
      });
      for (let k = 0; k < 3; k++) {
        await new Promise((r) => setTimeout(r, 5));
        timers.shift()?.fn();
      }
      await new Promise((r) => setTimeout(r, 20));
      expect(logged).toHaveLength(2);
      expect(logged[0]).toMatch(/annulling game \d+ failed; trying again in 1 s/);
      expect(logged[1]).toMatch(/trying again in 2 s/);
      expect(unhandled).toEqual([]);
      expect(isRebuilding(db, G, 'chnu-2016')).toBe(false);
      const background = (await allRows(db, filter('chnu-2016'), 'elo')).map((r) => [
        r.userId,
        r.elo!.toFixed(6),
        r.games,
      ]);
      await recomputeRatings(db, G, 'chnu-2016');
      expect(
        (await allRows(db, filter('chnu-2016'), 'elo')).map((r) => [r.userId, r.elo!.toFixed(6), r.games]),
      ).toEqual(background);
      expect(background.every((r) => r[2] === 1)).toBe(true);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
