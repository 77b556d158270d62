// T-1..T-3: the draw's spread of meetings (20, 30, 40 players), the not-fitting count, what a
// tournament's games count for, the final's cut, the live table, the CSV export.
import { describe, expect, it } from 'vitest';
import { drawQualifiers, type GameRecord } from '../../src/engine/standings';
import {
  FINAL_ROUND,
  drawFit,
  pageOf,
  phaseOf,
  selectFinalists,
  tournamentCsv,
  tournamentRecords,
  tournamentStandings,
  type TournamentResult,
  type TournamentTable,
} from '../../src/engine/tournament';
import { seededRng } from '../../src/sim/random-play';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `p${String(i + 1).padStart(3, '0')}`);

/** How often each pair of players met over the three rounds (pairs that never met included). */
function meetings(players: string[], rounds: string[][][]): Map<string, number> {
  const met = new Map<string, number>();
  for (let a = 0; a < players.length; a++)
    for (let b = a + 1; b < players.length; b++) met.set(`${players[a]}|${players[b]}`, 0);
  for (const round of rounds)
    for (const table of round)
      for (const a of table)
        for (const b of table) {
          const k = `${a}|${b}`;
          if (met.has(k)) met.set(k, met.get(k)! + 1);
        }
  return met;
}

function histogram(met: Map<string, number>): Record<number, number> {
  const h: Record<number, number> = {};
  for (const v of met.values()) h[v] = (h[v] ?? 0) + 1;
  return h;
}

/**
 * The fewest repeated meetings any draw can have: for each two rounds, a table of the later round
 * takes its 10 players from the earlier round's tables, and the pairs that come from one table
 * have met before; that is fewest when the 10 are split as evenly as possible.
 */
function repeatLowerBound(tables: number): number {
  const base = Math.floor(10 / tables);
  const extra = 10 % tables;
  const perTable = (extra * ((base + 1) * base)) / 2 + ((tables - extra) * (base * (base - 1))) / 2;
  return 3 /* round pairs */ * tables * perTable;
}

describe('T-1: the qualifying draw spreads meetings as evenly as possible', () => {
  // A pair that meets k times counts k·(k-1)/2 repeats (once per two rounds it shared a table).
  const repeats = (met: Map<string, number>) => [...met.values()].reduce((s, k) => s + (k * (k - 1)) / 2, 0);

  it.each([
    // players, tables per round, the histogram of pair meetings (0, 1, 2, 3 times) the draw reaches
    [20, 2, { 0: 24, 1: 78, 2: 72, 3: 16 }],
    [30, 3, { 0: 135, 1: 198, 2: 99, 3: 3 }],
    [40, 4, { 0: 336, 1: 348, 2: 96 }],
  ] as const)('T-1: %i players: every player once a round, repeats at the lower bound', (n, tables, expected) => {
    const players = ids(n);
    for (const seed of [1, 2, 3]) {
      const draw = drawQualifiers(players, seededRng(seed));
      if (!draw.ok) throw new Error('draw refused');
      expect(draw.rounds).toHaveLength(3);
      for (const round of draw.rounds) {
        expect(round.map((t) => t.length)).toEqual(new Array(tables).fill(10));
        expect(new Set(round.flat()).size).toBe(n);
        expect(round.flat().every((p) => players.includes(p))).toBe(true);
      }
      const met = meetings(players, draw.rounds);
      // No draw can have fewer repeated meetings than the bound; this one has exactly that many.
      expect(repeats(met)).toBe(repeatLowerBound(tables));
      expect(histogram(met)).toEqual(expected);
      // Every player sits with 27 others' seats over three rounds.
      const perPlayer = players.map((p) =>
        [...met.entries()].filter(([k]) => k.split('|').includes(p)).reduce((s, [, v]) => s + v, 0),
      );
      expect(new Set(perPlayer)).toEqual(new Set([27]));
    }
  });

  it('T-1: 20 players: the 16 triple meetings cannot be avoided, 30: the 3 cannot, 40: nobody meets three times', () => {
    // 20: after two rounds the players form four groups of 5 who met twice; a round-3 table of 10
    // from four groups has at least 3+3+2+2, i.e. 8 such pairs: 16 over two tables.
    // 30: nine groups (round-1 table × round-2 table); a table of 10 from nine groups has two of one.
    for (const [n, triples] of [
      [20, 16],
      [30, 3],
      [40, 0],
    ] as const) {
      const players = ids(n);
      const draw = drawQualifiers(players, seededRng(n));
      if (!draw.ok) throw new Error('draw refused');
      const met = meetings(players, draw.rounds);
      expect([...met.values()].filter((v) => v >= 3).length, `${n} players`).toBe(triples);
      expect(Math.max(...met.values())).toBeLessThanOrEqual(3);
    }
  });

  it('T-1: the lot decides: another lot, another draw (same quality)', () => {
    const players = ids(30);
    const a = drawQualifiers(players, seededRng(11));
    const b = drawQualifiers(players, seededRng(12));
    if (!a.ok || !b.ok) throw new Error('draw refused');
    expect(a.rounds).not.toEqual(b.rounds);
    expect(repeats(meetings(players, a.rounds))).toBe(repeats(meetings(players, b.rounds)));
  });

  it('T-1: players × 3 not a multiple of 10: how many to add or remove', () => {
    expect(drawFit(23)).toEqual({ ok: false, add: 7, remove: 3 });
    expect(drawFit(37)).toEqual({ ok: false, add: 3, remove: 7 });
    expect(drawFit(7)).toEqual({ ok: false, add: 3, remove: 0 });
    expect(drawFit(0)).toEqual({ ok: false, add: 10, remove: 0 });
    expect(drawFit(30)).toEqual({ ok: true, tables: 3 });
    expect(drawQualifiers(ids(23), seededRng(1))).toMatchObject({ ok: false, add: 7, remove: 3 });
    for (let n = 0; n <= 60; n++) {
      const fit = drawFit(n);
      expect(fit.ok, `${n}`).toBe((n * 3) % 10 === 0 && n > 0);
      if (!fit.ok) {
        expect(((n + fit.add) * 3) % 10).toBe(0);
        if (fit.remove > 0) expect(((n - fit.remove) * 3) % 10).toBe(0);
      }
    }
  });
});

const res = (
  userId: string,
  seat: number,
  points: number,
  extra: Partial<TournamentResult> = {},
): TournamentResult => ({
  userId,
  seat,
  points,
  won: points > 0,
  role: 'civilian',
  bestPlayer: false,
  killedNight1: false,
  ...extra,
});

function table(
  round: number,
  no: number,
  seats: string[],
  points: (u: string, i: number) => number,
  extra: (u: string) => Partial<TournamentResult> = () => ({}),
  played: string[] = seats,
): TournamentTable {
  return {
    round,
    table: no,
    seats,
    gameId: round * 100 + no,
    results: played.map((u, i) => res(u, i + 1, points(u, i), extra(u))),
  };
}

describe('T-2, T-3: what counts, the final, the table', () => {
  it('T-3: a game counts for the players the draw seated there; a substitute counts only in his own stats', () => {
    const seats = ids(10);
    // p001 was missing: "sub" played his seat.
    const t = table(
      1,
      1,
      seats,
      () => 4,
      () => ({}),
      ['sub', ...seats.slice(1)],
    );
    const recs: GameRecord[] = tournamentRecords([t]);
    expect(recs.map((r) => r.player)).toEqual(seats.slice(1));
    const st = tournamentStandings('chnu', seats, [t]);
    expect(st.find((r) => r.player === 'p001')).toMatchObject({ points: 0, games: 0 });
    expect(st.some((r) => r.player === 'sub')).toBe(false);
    // A table not yet played (or annulled) counts nothing.
    expect(tournamentRecords([{ ...t, results: null }])).toEqual([]);
  });

  it('T-2: the ten best after the qualifiers, level points by best-player titles (S-5); the final itself is not counted for the cut', () => {
    const players = ids(20);
    const tables = [1, 2, 3].flatMap((round) => [
      table(round, 1, players.slice(0, 10), (_u, i) => i),
      table(
        round,
        2,
        players.slice(10),
        (_u, i) => i,
        (u) => ({ bestPlayer: u === 'p011' && round === 1 }),
      ),
    ]);
    const sel = selectFinalists('chnu', players, tables, seededRng(1));
    expect(sel.lot).toBeNull();
    expect(sel.finalists).toHaveLength(10);
    // Seats 6..10 of both tables: 5..9 points a game.
    expect(new Set(sel.finalists)).toEqual(new Set([...players.slice(5, 10), ...players.slice(15, 20)]));
    // Ties on points are decided by titles: p006 and p016 both have 15 points; add a title to p006.
    const tied = tables.map((t) =>
      t.round === 2 && t.table === 1
        ? { ...t, results: t.results!.map((r) => (r.userId === 'p006' ? { ...r, bestPlayer: true } : r)) }
        : t,
    );
    const sel2 = selectFinalists('chnu', players, tied, seededRng(1));
    expect(sel2.table.findIndex((r) => r.player === 'p006')).toBeLessThan(
      sel2.table.findIndex((r) => r.player === 'p016'),
    );
    // The final's points do not decide who plays the final.
    const withFinal = [...tables, table(FINAL_ROUND, 1, players.slice(0, 10), () => 100)];
    expect(selectFinalists('chnu', players, withFinal, seededRng(1)).finalists).toEqual(sel.finalists);
  });

  it('T-2: players still level after every tie-break across the cut are drawn by lot (decision)', () => {
    const players = ids(20);
    // Everybody has the same points and no titles: all 20 share first place; 10 go through by lot.
    const tables = [1, 2, 3].flatMap((round) => [
      table(round, 1, players.slice(0, 10), () => 4),
      table(round, 2, players.slice(10), () => 4),
    ]);
    const a = selectFinalists('chnu', players, tables, seededRng(5));
    const b = selectFinalists('chnu', players, tables, seededRng(6));
    expect(a.lot?.among).toHaveLength(20);
    expect(a.finalists).toHaveLength(10);
    expect(new Set(a.finalists).size).toBe(10);
    expect(a.lot!.chosen.sort()).toEqual([...a.finalists].sort());
    expect(a.finalists).not.toEqual(b.finalists);
    // Only those level at the cut are drawn: the sure ones are in whatever the lot.
    const tables2 = tables.map((t) =>
      t.round === 1 && t.table === 1
        ? { ...t, results: t.results!.map((r, i) => (i < 5 ? { ...r, points: 9 } : r)) }
        : t,
    );
    const c = selectFinalists('chnu', players, tables2, seededRng(7));
    expect(c.finalists.slice(0, 5)).toEqual(players.slice(0, 5));
    expect(c.lot?.among).toHaveLength(15);
    expect(c.lot?.chosen).toHaveLength(5);
  });

  it('T-3: the winner has the most points over all four games; level points go to more best-player titles', () => {
    const players = ids(10);
    const q = [1, 2, 3].map((round) =>
      table(
        round,
        1,
        players,
        (u) => (u === 'p001' ? 5 : u === 'p002' ? 2 : 1),
        (u) => ({ bestPlayer: u === 'p002' && round < 3 }),
      ),
    );
    const fin = table(FINAL_ROUND, 1, players, (u) => (u === 'p001' ? 5 : u === 'p002' ? 14 : 1));
    const st = tournamentStandings('chnu', players, [...q, fin]);
    // p001: 20 points, no title; p002: 20 points, 2 titles.
    expect(st.slice(0, 2).map((r) => [r.player, r.points, r.bestPlayer, r.place])).toEqual([
      ['p002', 20, 2, 1],
      ['p001', 20, 0, 2],
    ]);
  });

  it('phases: registration, each qualifying round in turn, qualified, final, finished', () => {
    const players = ids(10);
    const r = (round: number, done: boolean) => ({
      ...table(round, 1, players, () => 1),
      results: done ? table(round, 1, players, () => 1).results : null,
    });
    expect(phaseOf('registration', [])).toEqual({ kind: 'registration' });
    expect(phaseOf('running', [r(1, false), r(2, false), r(3, false)])).toEqual({ kind: 'qualifying', round: 1 });
    expect(phaseOf('running', [r(1, true), r(2, false), r(3, false)])).toEqual({ kind: 'qualifying', round: 2 });
    expect(phaseOf('running', [r(1, true), r(2, true), r(3, true)])).toEqual({ kind: 'qualified' });
    expect(phaseOf('running', [r(1, true), r(2, true), r(3, true), r(FINAL_ROUND, false)])).toEqual({ kind: 'final' });
    expect(phaseOf('running', [r(1, true), r(2, true), r(3, true), r(FINAL_ROUND, true)])).toEqual({
      kind: 'finished',
    });
    expect(phaseOf('finished', [])).toEqual({ kind: 'finished' });
  });

  it('pages of the standings are clamped', () => {
    const rows = Array.from({ length: 23 }, (_, i) => i);
    expect(pageOf(rows, 1, 10)).toEqual({ rows: rows.slice(0, 10), page: 1, pages: 3 });
    expect(pageOf(rows, 3, 10).rows).toEqual([20, 21, 22]);
    expect(pageOf(rows, 99, 10).page).toBe(3);
    expect(pageOf(rows, -4, 10).page).toBe(1);
    expect(pageOf([], 1, 10)).toEqual({ rows: [], page: 1, pages: 1 });
  });

  it('the CSV has every game’s points, one line per player, quoted where needed and safe in a spreadsheet', () => {
    const seats = ids(10);
    const t = table(
      1,
      1,
      seats,
      (_u, i) => (i === 0 ? -1 : 4.5),
      () => ({}),
      ['sub', ...seats.slice(1)],
    );
    const names = (u: string) => (u === 'p002' ? 'Smith, "Jo"' : u === 'p003' ? '=HYPERLINK("x")' : u);
    const csv = tournamentCsv([t, { ...table(2, 1, seats, () => 1), results: null }], names);
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('round,table,game,seat,user_id,name,role,won,points,best_player,counted');
    expect(lines).toHaveLength(11);
    expect(lines[1]).toBe('1,1,101,1,sub,sub,civilian,false,-1,false,false');
    expect(lines[2]).toBe('1,1,101,2,p002,"Smith, ""Jo""",civilian,true,4.5,false,true');
    expect(lines[3]).toBe(`1,1,101,3,p003,"'=HYPERLINK(""x"")",civilian,true,4.5,false,true`);
  });
});
