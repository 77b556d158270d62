// The rules of tournaments (src/app/tournaments.ts) on their own: no discord.js, a real SQLite
// file, the game service, a fixed lot and a view that records what it is asked to show.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GameService, type GameEffect } from '../../src/app/game-service';
import { TournamentRules, type TournamentSnapshot, type TournamentView } from '../../src/app/tournaments';
import { openDatabase, type OpenDb } from '../../src/db/client';
import { Store } from '../../src/db/store';
import { TournamentStore, type TournamentRow } from '../../src/db/tournament-store';
import { createGame } from '../../src/engine/apply';
import { rolePool } from '../../src/engine/rulesets';
import type { StandingRow } from '../../src/engine/standings';
import { FINAL_ROUND } from '../../src/engine/tournament';
import { seededRng } from '../../src/sim/random-play';

class RecordingView implements TournamentView {
  refreshed: { status: string; snapshot: TournamentSnapshot }[] = [];
  results: StandingRow[][] = [];
  finals: { finalists: readonly string[]; lot: TournamentRow['finalLot'] }[] = [];
  async refresh(tour: TournamentRow, snapshot: TournamentSnapshot): Promise<void> {
    this.refreshed.push({ status: tour.status, snapshot });
  }
  async result(_t: TournamentRow, standings: readonly StandingRow[]): Promise<void> {
    this.results.push([...standings]);
  }
  async finalists(
    _t: TournamentRow,
    _s: unknown,
    finalists: readonly string[],
    lot: TournamentRow['finalLot'],
  ): Promise<void> {
    this.finals.push({ finalists, lot });
  }
}

const opened: OpenDb[] = [];
afterEach(() => {
  for (const o of opened.splice(0)) o.close();
});

async function setup() {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'mafia-tour-rules-')), 'db.sqlite'));
  opened.push(db);
  const store = new Store(db.connection);
  const tstore = new TournamentStore(db.connection);
  const now = { t: 1_000 };
  const service = new GameService(store, { now: () => now.t });
  const view = new RecordingView();
  let kicks = 0;
  const errors: string[] = [];
  const rules = new TournamentRules({
    service,
    store,
    tstore,
    view,
    dealer: (members, ruleset) => ({ seats: [...members], roles: rolePool(ruleset) }),
    now: () => now.t,
    kick: () => void kicks++,
    log: { error: (m) => void errors.push(m) },
    random: seededRng(7),
  });
  const where = { guildId: 'g', channelId: 'c', hostId: 'h' };
  const created = await rules.create({
    ...where,
    name: '  Spring   Cup ',
    ruleset: 'chnu-2016',
    timers: {},
    locale: 'en',
  });
  if (!created.ok) throw new Error(created.code);
  /** Players p<from>..p<from+n-1> join. */
  const register = async (n: number, from = 1) => {
    for (let i = from; i < from + n; i++) {
      const r = await rules.register(created.tour.id, true, {
        userId: `p${i}`,
        name: `P${i}`,
        locale: null,
        bot: false,
      });
      if (!r.ok) throw new Error(r.code);
    }
  };
  /** A table's game played to its end with results (chnu-2016: seats 1-7 win). */
  const finish = async (round: number, table = 1) => {
    const tour = (await tstore.get(created.tour.id))!;
    const tv = (await tstore.tables(tour.id)).find((x) => x.round === round && x.table === table)!;
    const lobby = { guildId: 'g', channelId: `t${round}`, hostId: 'h', ruleset: 'chnu-2016' as const };
    const game = await store.createLobby({ ...lobby, pace: 'live', options: {}, now: 5 });
    await tstore.setTableGame(tour.id, round, table, game.id, {});
    const roles = rolePool('chnu-2016');
    const seats = tv.seats.map((userId, i) => ({ seat: i + 1, userId, role: roles[i]! }));
    await store.startGame(game.id, seats, createGame('chnu-2016', { roles }, {}, 'live', { now: 6 }), 6);
    const insert = db.sqlite.prepare(`INSERT INTO results (game_id, seat, guild_id, user_id, ruleset, role, team,
      outcome, points, breakdown, best_player, killed_night1, finished_at)
      VALUES (?, ?, 'g', ?, 'chnu-2016', ?, 'red', ?, ?, '{}', 0, 0, 9)`);
    tv.seats.forEach((u, i) => insert.run(game.id, i + 1, u, roles[i], i < 7 ? 'win' : 'loss', i < 7 ? 1 : 0));
    await store.setStatus(game.id, 'over', 9);
    return (await store.getGame(game.id))!;
  };
  const { tour, name } = created;
  return { store, tstore, service, rules, view, now, tour, name, join: register, finish, kicks: () => kicks, errors };
}

describe('tournament rules', () => {
  it('a tournament is created with a clean name and a 10-player rule set only', async () => {
    const t = await setup();
    expect(t.name).toBe('Spring Cup');
    expect(t.tour).toMatchObject({ status: 'registration', name: 'Spring Cup', locale: 'en' });
    expect(t.rules.checkCreate('<@123>', 'chnu-2016')).toMatchObject({ ok: false, code: 'tournament/name' });
    expect(t.rules.checkCreate('Cup', 'kiev-12')).toMatchObject({ ok: false, code: 'tournament/ruleset' });
    expect((await t.rules.pick('g', null))!.id).toBe(t.tour.id);
    expect(await t.rules.pick('other', t.tour.id)).toBeNull();
    expect(t.kicks()).toBe(1);
  });

  it('registration: once each, shown on the board; bots refused; closed after the draw', async () => {
    const t = await setup();
    await t.join(3);
    const user = (userId: string, bot = false) => ({ userId, name: userId.toUpperCase(), locale: null, bot });
    expect(await t.rules.register(t.tour.id, true, user('p1'))).toMatchObject({ code: 'tournament/already-joined' });
    expect(await t.rules.register(t.tour.id, false, user('nobody'))).toMatchObject({ code: 'tournament/not-joined' });
    expect(await t.rules.register(t.tour.id, true, user('b', true))).toMatchObject({ code: 'substitute/bot' });
    expect(t.view.refreshed.at(-1)!.snapshot.players.map((p) => p.userId)).toEqual(['p1', 'p2', 'p3']);
    expect(await t.rules.removePlayer(t.tour.id, 'p2')).toEqual({ ok: true, count: 2 });
    expect(await t.rules.removePlayer(t.tour.id, 'p2')).toMatchObject({ ok: false, code: 'tournament/not-registered' });
  });

  it('the draw needs a multiple of 10 players; it makes the qualifying rounds and closes registration', async () => {
    const t = await setup();
    await t.join(9);
    const misfit = await t.rules.draw(t.tour.id);
    expect(misfit).toMatchObject({ ok: false, fit: { add: 1, remove: 0 } });
    await t.join(1, 10);
    expect(await t.rules.draw(t.tour.id)).toEqual({ ok: true, tables: 1 });
    const tour = (await t.tstore.get(t.tour.id))!;
    expect(tour.status).toBe('running');
    expect((await t.tstore.tables(tour.id)).map((x) => [x.round, x.table, x.seats.length])).toEqual([
      [1, 1, 10],
      [2, 1, 10],
      [3, 1, 10],
    ]);
    expect(t.view.refreshed.at(-1)!.snapshot.phase).toEqual({ kind: 'qualifying', round: 1 });
    expect(await t.rules.draw(t.tour.id)).toMatchObject({ ok: false, code: 'tournament/drawn' });
    const late = { userId: 'late', name: 'L', locale: null, bot: false };
    expect(await t.rules.register(t.tour.id, true, late)).toMatchObject({ code: 'tournament/closed' });
  });

  it('a table starts only in its round, with substitutes for players of that table only', async () => {
    const t = await setup();
    await t.join(10);
    await t.rules.draw(t.tour.id);
    const early = await t.rules.checkStart(t.tour.id, 2, 1, {});
    expect(early).toMatchObject({ ok: false, code: 'tournament/not-now', params: { round: 1 } });
    expect(await t.rules.checkStart(t.tour.id, 1, 2, {})).toMatchObject({ ok: false, code: 'tournament/no-table' });
    expect(await t.rules.checkStart(t.tour.id, 1, 1, { stranger: 's' })).toMatchObject({
      code: 'tournament/not-at-table',
    });
    expect(await t.rules.checkStart(t.tour.id, 1, 1, { p1: 'p2' })).toMatchObject({ code: 'tournament/sub-at-table' });
    const plan = await t.rules.checkStart(t.tour.id, 1, 1, { p1: 'sub' });
    if (!plan.ok) throw new Error(plan.code);
    expect(plan.members).toHaveLength(10);
    expect(plan.members).toContain('sub');
    expect(plan.members).not.toContain('p1');
    const opened = await t.rules.openTable(plan, 'table-channel', { p1: 'sub' }, 'h', () => undefined);
    if (!opened.ok) throw new Error(opened.code);
    expect(opened.game).toMatchObject({ status: 'lobby', channelId: 'table-channel' });
    expect(await t.tstore.tableOfGame(opened.game.id)).toEqual({ tournamentId: t.tour.id, round: 1, table: 1 });
    expect((await t.store.getGame(opened.game.id))!.lobby.names).toMatchObject({ sub: 'sub', p2: 'P2' });
  });

  it('the final: refused until the qualifiers are over, then the 10 best; its end finishes the tournament', async () => {
    const t = await setup();
    await t.join(10);
    await t.rules.draw(t.tour.id);
    expect(await t.rules.final(t.tour.id)).toMatchObject({
      ok: false,
      code: 'tournament/qualifying',
      params: { round: 1 },
    });
    for (const round of [1, 2, 3]) await t.finish(round);
    expect(await t.rules.final(t.tour.id)).toEqual({ ok: true });
    expect(t.view.finals).toHaveLength(1);
    expect([...t.view.finals[0]!.finalists].sort()).toEqual(Array.from({ length: 10 }, (_, i) => `p${i + 1}`).sort());
    expect(t.view.finals[0]!.lot).toBeNull();
    expect((await t.tstore.tables(t.tour.id)).some((x) => x.round === FINAL_ROUND)).toBe(true);
    expect(await t.rules.final(t.tour.id)).toMatchObject({ ok: false, code: 'tournament/final-exists' });
    // The final's game ends (the planner's hook): the result, and the tournament is finished.
    const game = await t.finish(FINAL_ROUND);
    const stages = { prev: { stage: { kind: 'vote' } }, state: { stage: { kind: 'over' } } };
    const over = { kind: 'action', game, ...stages } as unknown as GameEffect;
    await t.rules.plan(over);
    expect(t.errors).toEqual([]);
    expect((await t.tstore.get(t.tour.id))!.status).toBe('finished');
    expect(t.view.results).toHaveLength(1);
    const winners = t.view.refreshed.at(-1)!.snapshot.winners;
    expect(winners.length).toBeGreaterThan(0);
    expect(t.view.results[0]!.filter((r) => r.place === 1).map((r) => r.player)).toEqual(winners);
  });

  it('the rules and the keyed queue load no discord.js', () => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const src = readFileSync(file, 'utf8');
      for (const m of src.matchAll(/^import[^'"]*['"]([^'"]+)['"]/gm)) {
        const spec = m[1]!;
        expect(spec.startsWith('discord') || spec.startsWith('@discordjs'), `${file} imports ${spec}`).toBe(false);
        if (spec.startsWith('.')) visit(`${resolve(dirname(file), spec)}.ts`);
      }
    };
    const roots = ['app/tournaments.ts', 'app/async-play.ts', 'app/keyed-queue.ts'];
    for (const f of roots) visit(resolve(__dirname, '../../src', f));
    expect([...seen].some((f) => f.includes('/src/discord/'))).toBe(false);
    expect(seen.size).toBeGreaterThan(5);
  });
});
