import { describe, expect, it } from 'vitest';
import { drawQualifiers, finalists, standings, tournamentTable, type GameRecord } from '../../src/engine/standings';
import { seededRng } from '../../src/sim/random-play';

const rec = (player: string, points: number, extra: Partial<GameRecord> = {}): GameRecord => ({
  player,
  points,
  won: false,
  role: 'civilian',
  bestPlayer: false,
  killedNight1: false,
  ...extra,
});

describe('S-5 standings', () => {
  it('S-5: adds up points over games and ranks by points', () => {
    const rows = standings('chnu', [rec('a', 4), rec('b', 5), rec('a', 4.5), rec('b', -1)]);
    expect(rows.map((r) => [r.player, r.points, r.games, r.place])).toEqual([
      ['a', 8.5, 2, 1],
      ['b', 4, 2, 2],
    ]);
  });

  it('S-5 chnu-2016: level points go to the player with more best-player titles', () => {
    const rows = standings('chnu', [rec('a', 4), rec('b', 1, { bestPlayer: true }), rec('b', 3)]);
    expect(rows.map((r) => r.player)).toEqual(['b', 'a']);
  });

  it('S-5 classic-10: wins, best player, wins as Don, Sheriff, mafia, then killed on night 1', () => {
    const base = (p: string, extra: Partial<GameRecord>) => rec(p, 3, extra);
    expect(standings('classic', [base('a', {}), base('b', { won: true })]).map((r) => r.player)).toEqual(['b', 'a']);
    expect(
      standings('classic', [base('a', { won: true }), base('b', { won: true, bestPlayer: true })]).map((r) => r.player),
    ).toEqual(['b', 'a']);
    expect(
      standings('classic', [base('a', { won: true, role: 'mafia' }), base('b', { won: true, role: 'don' })]).map(
        (r) => r.player,
      ),
    ).toEqual(['b', 'a']);
    expect(
      standings('classic', [base('a', { won: true, role: 'mafia' }), base('b', { won: true, role: 'sheriff' })]).map(
        (r) => r.player,
      ),
    ).toEqual(['b', 'a']);
    expect(
      standings('classic', [base('a', { won: true, role: 'civilian' }), base('b', { won: true, role: 'mafia' })]).map(
        (r) => r.player,
      ),
    ).toEqual(['b', 'a']);
    expect(standings('classic', [base('a', {}), base('b', { killedNight1: true })]).map((r) => r.player)).toEqual([
      'b',
      'a',
    ]);
  });

  it('S-5 kiev-12: more games won, then fewer games (decision); full ties share the place', () => {
    const rows = standings('kiev', [
      rec('a', 3, { won: true }),
      rec('a', 0),
      rec('b', 3, { won: true }),
      rec('c', 3),
      rec('d', 3),
    ]);
    expect(rows.map((r) => [r.player, r.place])).toEqual([
      ['b', 1],
      ['a', 2],
      ['c', 3],
      ['d', 3],
    ]);
  });
});

/**
 * S-5 tie-break order. Each case gives two players level on points and on every step above the one
 * being tested; the player expected first is always `zed`, who sorts last by name, so a dropped step
 * (the players would fall back to a shared place, listed by name) also fails.
 */
describe('S-5 tie-break order: swapped or dropped steps are caught', () => {
  type Case = { name: string; zed: Partial<GameRecord>[]; amy: Partial<GameRecord>[] };
  // Both players end on 6 points in all, split evenly over their games.
  const order = (system: 'chnu' | 'classic' | 'kiev', c: Case) => {
    const recs = [
      ...c.amy.map((x) => rec('amy', 6 / c.amy.length, x)),
      ...c.zed.map((x) => rec('zed', 6 / c.zed.length, x)),
    ];
    // The same outcome whichever order the games come in.
    for (const list of [recs, [...recs].reverse()]) {
      const rows = standings(system, list);
      expect(
        rows.map((r) => [r.player, r.place]),
        c.name,
      ).toEqual([
        ['zed', 1],
        ['amy', 2],
      ]);
    }
  };
  const won = (role: GameRecord['role'], extra: Partial<GameRecord> = {}): Partial<GameRecord> => ({
    won: true,
    role,
    ...extra,
  });
  const lost = (extra: Partial<GameRecord> = {}): Partial<GameRecord> => ({ won: false, role: 'civilian', ...extra });

  // classic-10: wins; best-player titles; wins as Don; as Sheriff; as mafia; times killed on night 1.
  const classicAdjacent: Case[] = [
    // wins before best-player titles: zed 2 wins 0 titles, amy 1 win 1 title.
    {
      name: 'wins before best-player titles',
      zed: [won('civilian'), won('civilian')],
      amy: [won('civilian'), lost({ bestPlayer: true })],
    },
    // titles before Don wins: same wins (1), zed has a title, amy won as Don.
    { name: 'best-player titles before wins as Don', zed: [won('civilian', { bestPlayer: true })], amy: [won('don')] },
    // Don wins before Sheriff wins: same wins and titles.
    { name: 'wins as Don before wins as Sheriff', zed: [won('don')], amy: [won('sheriff')] },
    {
      name: 'wins as Don before wins as Sheriff (2 games each)',
      zed: [won('don'), won('civilian')],
      amy: [won('sheriff'), won('sheriff')],
    },
    // Sheriff wins before mafia wins.
    { name: 'wins as Sheriff before wins as mafia', zed: [won('sheriff')], amy: [won('mafia')] },
    {
      name: 'wins as Sheriff before wins as mafia (2 games each)',
      zed: [won('sheriff'), won('civilian')],
      amy: [won('mafia'), won('mafia')],
    },
    // mafia wins before times killed on night 1.
    {
      name: 'wins as mafia before times killed on night 1',
      zed: [won('mafia')],
      amy: [won('civilian', { killedNight1: true })],
    },
  ];
  // Each step alone decides when everything else is level (a dropped step fails).
  const classicAlone: Case[] = [
    { name: 'wins alone', zed: [won('civilian')], amy: [lost()] },
    { name: 'best-player titles alone', zed: [lost({ bestPlayer: true })], amy: [lost()] },
    { name: 'wins as Don alone', zed: [won('don')], amy: [won('civilian')] },
    { name: 'wins as Sheriff alone', zed: [won('sheriff')], amy: [won('civilian')] },
    { name: 'wins as mafia alone', zed: [won('mafia')], amy: [won('civilian')] },
    { name: 'times killed on night 1 alone', zed: [lost({ killedNight1: true })], amy: [lost()] },
  ];

  it.each(classicAdjacent.map((c) => [c.name, c] as const))(
    'S-5 classic-10: %s (adjacent steps not swapped)',
    (_n, c) => order('classic', c),
  );
  it.each(classicAlone.map((c) => [c.name, c] as const))(
    'S-5 classic-10: %s decides a tie (step not dropped)',
    (_n, c) => order('classic', c),
  );

  it('S-5 classic-10: points come before every tie-break', () => {
    // zed has half a point more; amy wins every tie-break.
    const rows = standings('classic', [
      rec('zed', 3.5),
      rec('amy', 1, won('don', { bestPlayer: true, killedNight1: true })),
      rec('amy', 1, won('sheriff')),
      rec('amy', 1, won('mafia')),
    ]);
    expect(rows.map((r) => r.player)).toEqual(['zed', 'amy']);
  });

  it('S-5 classic-10: a lower step never outweighs a higher one, whatever the margin', () => {
    // amy: 3 Sheriff wins + 3 mafia wins + killed on night 1 three times; zed: one more Don win.
    const zed = [won('don'), won('don'), won('civilian'), won('civilian'), won('civilian'), won('civilian')];
    const amy = [
      won('don'),
      won('sheriff', { killedNight1: true }),
      won('sheriff', { killedNight1: true }),
      won('sheriff', { killedNight1: true }),
      won('mafia'),
      won('mafia'),
    ];
    order('classic', { name: 'one Don win beats many lower steps', zed, amy });
  });

  it('S-5 chnu-2016: best-player titles break a tie on points (not dropped), and never beat points', () => {
    order('chnu', { name: 'titles alone', zed: [lost({ bestPlayer: true })], amy: [lost()] });
    // Wins are not a chnu-2016 tie-break: more wins without a title is behind.
    order('chnu', {
      name: 'titles, not wins',
      zed: [lost({ bestPlayer: true }), lost()],
      amy: [won('don'), won('sheriff')],
    });
    expect(standings('chnu', [rec('amy', 3, { bestPlayer: true }), rec('zed', 3.5)]).map((r) => r.player)).toEqual([
      'zed',
      'amy',
    ]);
  });

  it('S-5 kiev-12: games won before fewer games (not swapped), each step decides alone (not dropped)', () => {
    // zed: 2 wins in 3 games; amy: 1 win in 1 game (fewer games, fewer wins) -> zed.
    order('kiev', {
      name: 'wins before fewer games',
      zed: [won('civilian'), won('civilian'), lost()],
      amy: [won('civilian')],
    });
    order('kiev', { name: 'games won alone', zed: [won('civilian'), lost()], amy: [lost(), lost()] });
    // Same wins: the player with fewer games is first.
    order('kiev', { name: 'fewer games alone', zed: [won('civilian')], amy: [won('civilian'), lost()] });
    expect(standings('kiev', [rec('amy', 3, { won: true }), rec('zed', 4)]).map((r) => r.player)).toEqual([
      'zed',
      'amy',
    ]);
  });
});

describe('T tournament (chnu-2016)', () => {
  const players = Array.from({ length: 30 }, (_, i) => `p${i + 1}`);

  it('T-1: three rounds of tables of 10, everyone plays once per round, meetings spread', () => {
    const draw = drawQualifiers(players, seededRng(7));
    if (!draw.ok) throw new Error('draw failed');
    expect(draw.rounds).toHaveLength(3);
    for (const round of draw.rounds) {
      expect(round.map((t) => t.length)).toEqual([10, 10, 10]);
      expect(new Set(round.flat()).size).toBe(30);
    }
    // With 30 players and 3 tables some pair must meet 3 times (a round-2 table takes at least 4
    // players of some round-1 table, and round 3 has only 3 tables for them); the draw keeps such
    // triples rare: fewer than any of 20 plain random draws.
    const repeats = (rounds: string[][][]) => {
      const met = new Map<string, number>();
      for (const round of rounds)
        for (const t of round)
          for (const a of t) for (const b of t) if (a < b) met.set(a + '|' + b, (met.get(a + '|' + b) ?? 0) + 1);
      return { max: Math.max(...met.values()), triples: [...met.values()].filter((v) => v >= 3).length };
    };
    const ours = repeats(draw.rounds);
    expect(ours.max).toBeLessThanOrEqual(3);
    const rng = seededRng(99);
    const naive = Array.from({ length: 20 }, () => {
      const rounds = Array.from({ length: 3 }, () => {
        const order = [...players].sort(() => rng() - 0.5);
        return [order.slice(0, 10), order.slice(10, 20), order.slice(20)];
      });
      return repeats(rounds).triples;
    });
    expect(ours.triples).toBeLessThan(Math.min(...naive));
  });

  it('T-1: when players × 3 is not a multiple of 10 the draw says how many to add or remove', () => {
    expect(drawQualifiers(players.slice(0, 27), seededRng(1))).toEqual({ ok: false, players: 27, add: 3, remove: 7 });
    expect(drawQualifiers(players.slice(0, 5), seededRng(1))).toEqual({ ok: false, players: 5, add: 5, remove: 5 });
  });

  it('T-2: the 10 players with the most points play the final', () => {
    const recs = players.map((p, i) => rec(p, i));
    expect(finalists(recs)).toEqual(players.slice(20).reverse());
  });

  it('T-3: the winner has the most points over all 4 games; ties by best-player titles', () => {
    const recs = [rec('a', 10), rec('a', 5), rec('b', 12), rec('b', 3, { bestPlayer: true }), rec('c', 1)];
    const table = tournamentTable(recs);
    expect(table[0]!.player).toBe('b');
    expect(table[1]!.player).toBe('a');
  });

  it('T-4: entry limits (three players per faculty) are not checked', () => {
    // Players are plain ids: the draw takes any 10k players, whatever faculty they come from.
    const sameFaculty = Array.from({ length: 10 }, (_, i) => `physics-${i}`);
    expect(drawQualifiers(sameFaculty, seededRng(3)).ok).toBe(true);
  });
});
