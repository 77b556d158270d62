// Issue 23: `npm run db:migrate-to-postgres -- --from FILE --to URL` copies a real SQLite database
// (games played through the fake Discord and through the game service: finished ones with results,
// ratings and standings, a running one, the outbox, a tournament, a season, a suspension) into a
// fresh PostgreSQL database; every table's rows are the same, the sequences continue after the
// highest id, `db:verify` finds the same games on both, a tampered state is a mismatch, and bad
// input (arguments, a non-empty target, a file of another version) is refused with exit 2 and one
// line, changing nothing.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameService } from '../../src/app/game-service';
import { AsyncStore } from '../../src/db/async-store';
import { openDatabase } from '../../src/db/client';
import { copyPlan, type TablePlan } from '../../src/db/copy-to-postgres';
import { storeReader } from '../../src/db/game-reader';
import { pgGameReader } from '../../src/db/pg-game-reader';
import { looksLikePostgresUrl, redactUrl } from '../../src/db/pg-connect';
import { parseMigrateArgs } from '../../src/cli/migrate-args';
import { RelayStore } from '../../src/db/relay-store';
import { ConductStore } from '../../src/db/conduct-store';
import { LifecycleStore } from '../../src/db/lifecycle-store';
import { Store } from '../../src/db/store';
import { TournamentStore } from '../../src/db/tournament-store';
import { parseScenario } from '../../src/scenario/parse';
import { randomAction, randomDeal, seededRng } from '../../src/sim/random-play';
import type { RulesetId } from '../../src/engine/types';
import { Driver } from '../../testkit/driver';
import { postgresOrSkip, testPostgres, type TestPostgres } from '../../testkit/postgres';
import { OWN_DIR, readJson, ROOT } from '../../testkit/scenario-files';
import { fixedDealer, makeWorld } from '../../testkit/world';

interface Run {
  code: number | null;
  out: string;
  err: string;
}

function cli(entry: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, entry), ...args], { cwd: ROOT });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}
const migrateCli = (...args: string[]) => cli('src/cli/db-migrate-to-postgres.ts', args);
const verifyCli = (target: string) => cli('src/cli/db-verify.ts', [target]);

/** One line on stderr, nothing on stdout. */
function refusal(r: Run, code: number, message: RegExp): void {
  expect(r.code, r.err + r.out).toBe(code);
  expect(r.out).toBe('');
  expect(r.err.trim().split('\n')).toHaveLength(1);
  expect(r.err).toMatch(message);
}

/** A client whose bigint columns come back as numbers (pg gives them as strings). */
async function connect(url: string): Promise<pg.Client> {
  const c = new pg.Client({
    connectionString: url,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === pg.types.builtins.INT8
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  await c.connect();
  return c;
}

/**
 * A database of a club that played: a chnu-2016 game to the end through the fake Discord (its
 * outbox, slots, threads, permissions and DMs), an async classic-10 game still running (its
 * deadline, reminders and seat holders), 24 random games through the game service (16 finished,
 * of three rule sets), a lobby, a tournament with its players and draw, a season, rating settings,
 * a suspended game and a substitute call.
 */
async function playedDatabase(): Promise<{ file: string; runningId: number }> {
  const sc = parseScenario(readJson(join(OWN_DIR, 'chnu-red-full-strength.json')));
  const w = await makeWorld({ players: 10, dealer: fixedDealer(sc.roles) });
  let runningId: number;
  try {
    const d = new Driver(w);
    await d.createAndStart(sc.ruleset, sc.pace);
    for (const step of sc.steps) await d.step(step);
    expect((await w.bot.store.getGame(d.gameId))!.status).toBe('over');
    await d.createAndStart('classic-10', 'async');
    runningId = d.gameId;
    expect((await w.bot.store.getGame(runningId))!.status).toBe('running');
  } finally {
    await w.stop();
  }

  const open = openDatabase(w.dbPath);
  const store = new Store(open.connection);
  let clock = (await store.lastActionTime()) + 1000;
  const service = new GameService(store, {
    now: () => clock,
    timers: { setTimeout: () => null, clearTimeout: () => {} },
  });
  const rng = seededRng(23);
  const rulesets: RulesetId[] = ['classic-10', 'kiev-12', 'chnu-2016'];
  for (let i = 0; i < 24; i++) {
    const ruleset = rulesets[i % 3]!;
    const game = await service.createLobby({
      guildId: 'sim',
      channelId: `sim-${i}`,
      hostId: 'sim-host',
      ruleset,
      pace: 'live',
      options: {},
    });
    const roles = randomDeal(rng, ruleset);
    const r = await service.start(
      game.id,
      roles.map((_, seat) => `sim-${game.id}-${seat + 1}`),
      roles,
    );
    expect(r.ok).toBe(true);
    // Two in three to the end; the others stop after a few actions.
    const limit = i % 3 === 2 ? 15 : Infinity;
    for (let n = 0; n < limit; n++) {
      const s = (await service.state(game.id))!;
      if (s.stage.kind === 'over') break;
      const a = randomAction(s, rng);
      if (!a) break;
      if (a.kind === 'timeout' && s.deadline !== null) clock = Math.max(clock, s.deadline);
      else clock += 1 + Math.floor(rng() * 500);
      await service.dispatch(game.id, a, a.kind === 'timeout' ? 'timer' : 'host:sim-host');
    }
  }
  await service.createLobby({
    guildId: 'sim',
    channelId: 'sim-lobby',
    hostId: 'sim-host',
    ruleset: 'kiev-12',
    pace: 'live',
    options: {},
  });
  await service.close();

  const tstore = new TournamentStore(open.connection);
  const t = await tstore.create({
    guildId: 'sim',
    channelId: 'sim-cup',
    hostId: 'sim-host',
    name: 'Cup',
    ruleset: 'classic-10',
    options: {},
    locale: 'uk',
    now: clock,
  });
  const entrants = Array.from({ length: 10 }, (_, i) => `cup-${i}`);
  for (const u of entrants) await tstore.join(t.id, { userId: u, name: `Ім'я "${u}"`, locale: null }, clock);
  await tstore.addTables(t.id, 1, [entrants]);
  await store.stats.addSeason('sim', 'Весна', clock - 86_400_000, null, clock);
  await store.stats.saveRatingSettings('sim', { win: 25, loss: 12.5, start: 1000, minMoves: 3 }, clock);
  const lobby = (await store.gamesWithStatus(['lobby'])).at(-1)!;
  await new LifecycleStore(open.connection).add({
    gameId: lobby.id,
    reason: 'channel-deleted',
    since: clock,
    voidAt: clock + 86_400_000,
    stageSeq: null,
    extraMs: 0,
    clockStopped: true,
  });
  const astore = new AsyncStore(open.connection);
  await astore.createCall(runningId, 3, clock);
  // Its stage owes nothing yet (night 0): the reminders a later stage would get.
  const seq = (await store.getState(runningId))!.seq;
  await astore.setReminders(
    runningId,
    seq,
    [
      { kind: 'half', at: clock + 3_600_000 },
      { kind: 'hour', at: clock + 7_200_000 },
    ],
    clock,
  );
  // A DM click handed to another process (issue 23), waiting to be taken.
  await new RelayStore(open.connection).put(
    { interactionId: '900000000000000001', guildId: 'sim', payload: JSON.stringify({ id: '900000000000000001' }) },
    clock,
  );
  // A host's ban on the server (issue 24's conduct), with its reason.
  await ConductStore.of(open.connection).add({
    guildId: 'sim',
    at: clock,
    actorId: 'host:100000000000000001',
    action: 'ban',
    userId: '100000000000000002',
    reason: 'two accounts',
  });
  open.close();
  return { file: w.dbPath, runningId };
}

/** Every row of a SQLite table, booleans as booleans, in primary-key order. */
function sqliteRows(file: string, p: TablePlan): unknown[] {
  const db = new Database(file, { readonly: true });
  try {
    const order = p.primaryKey.map((k) => `"${k}"`).join(', ');
    const rows = db.prepare(`select * from "${p.name}" order by ${order}`).all() as Record<string, unknown>[];
    return rows.map((r) => {
      const out: Record<string, unknown> = {};
      for (const c of p.columns) out[c.name] = c.kind === 'boolean' && r[c.name] !== null ? r[c.name] === 1 : r[c.name];
      return out;
    });
  } finally {
    db.close();
  }
}

async function pgRows(client: pg.Client, p: TablePlan): Promise<unknown[]> {
  const order = p.primaryKey.map((k) => `"${k}"`).join(', ');
  // PostgreSQL sorts text by its collation, SQLite by bytes: sort by bytes here too.
  const collated = p.primaryKey
    .map((k) => (p.columns.find((c) => c.name === k)!.kind === 'text' ? `"${k}" collate "C"` : `"${k}"`))
    .join(', ');
  const r = await client.query(`select * from "${p.name}" order by ${collated || order}`);
  return r.rows;
}

let pgdb: TestPostgres | null = null;
const extra: TestPostgres[] = [];
let file = '';
let runningId = 0;
let fileReport: { games: number; checked: number; skipped: number; actions: number; mismatches: unknown[] };
let report: {
  tables: Record<string, number>;
  rows: number;
  nextIds: Record<string, number>;
  games: number;
  checked: number;
  skipped: number;
  actions: number;
  mismatches: unknown[];
  seconds: { copy: number; verify: number; total: number };
};

beforeAll(async () => {
  pgdb = await postgresOrSkip('db:migrate-to-postgres');
  ({ file, runningId } = await playedDatabase());
  const v = await verifyCli(file);
  expect(v.code, v.err).toBe(0);
  fileReport = JSON.parse(v.out);
}, 240_000);

afterAll(async () => {
  await pgdb?.drop();
  for (const d of extra) await d.drop();
});

/** A copy of the played database (SQLite's online backup: the WAL included). */
async function copyOf(name: string): Promise<string> {
  const to = join(mkdtempSync(join(tmpdir(), 'mafia-copy-')), name);
  const src = new Database(file, { readonly: true });
  try {
    await src.backup(to);
  } finally {
    src.close();
  }
  return to;
}

/** Another fresh database on the test server. */
async function another(): Promise<TestPostgres> {
  const d = (await testPostgres())!;
  extra.push(d);
  return d;
}

describe('the copy plan', () => {
  it('every table of the schema, each after the tables its foreign keys point at', () => {
    const plan = copyPlan();
    expect(plan.map((p) => p.name).sort()).toEqual(
      [
        'servers',
        'games',
        'players',
        'actions',
        'deadlines',
        'results',
        'audit',
        'outbox',
        'slots',
        'perm_holds',
        'thread_sync',
        'dm_channels',
        'tournaments',
        'tournament_players',
        'tournament_tables',
        'rating_settings',
        'seasons',
        'ratings',
        'rating_history',
        'standings',
        'standings_log',
        'reminders',
        'seat_holders',
        'substitute_calls',
        'suspensions',
        'relayed_clicks',
        'server_audit',
        'achievements',
      ].sort(),
    );
    const at = new Map(plan.map((p, i) => [p.name, i]));
    for (const p of plan)
      for (const parent of p.parents)
        expect(at.get(parent)!, `${parent} before ${p.name}`).toBeLessThan(at.get(p.name)!);
    expect(plan.find((p) => p.name === 'tournaments')!.parents.sort()).toEqual(['games', 'servers']);
  });
});

describe('db:migrate-to-postgres on a real PostgreSQL', () => {
  it('copies every table row for row; the report counts them and every game replays', async (ctx) => {
    if (!pgdb) return ctx.skip();
    const r = await migrateCli('--from', file, '--to', pgdb.url, '--batch', '50');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe('');
    report = JSON.parse(r.out);
    const plan = copyPlan();
    // Every table has rows: the comparison below covers each of them.
    for (const p of plan) expect(report.tables[p.name], p.name).toBeGreaterThan(0);
    expect(report.mismatches).toEqual([]);
    expect(report.games).toBe(fileReport.games);
    expect(report.checked).toBe(fileReport.checked);
    expect(report.actions).toBe(fileReport.actions);
    expect(report.games).toBeGreaterThanOrEqual(28);
    expect(report.actions).toBeGreaterThan(1000);

    const client = await connect(pgdb.url);
    try {
      for (const p of plan) {
        const want = sqliteRows(file, p);
        expect(report.tables[p.name], p.name).toBe(want.length);
        expect(await pgRows(client, p), p.name).toEqual(want);
      }
      // The booleans are booleans in PostgreSQL (not 0/1 that happened to compare).
      const b = await client.query<{ t: string }>(
        "select data_type as t from information_schema.columns where table_name = 'results' and column_name = 'counts'",
      );
      expect(b.rows[0]!.t).toBe('boolean');
    } finally {
      await client.end();
    }
  });

  it('reads every game on PostgreSQL in the shapes the Store gives on SQLite', async (ctx) => {
    if (!pgdb) return ctx.skip();
    const open = openDatabase(file, { readonly: true });
    const client = await connect(pgdb.url);
    try {
      const lite = storeReader(new Store(open.connection));
      const pgr = pgGameReader(client);
      const ids = await lite.allGameIds();
      expect(await pgr.allGameIds()).toEqual(ids);
      for (const id of ids) {
        expect(await pgr.getGame(id)).toEqual(await lite.getGame(id));
        expect(await pgr.rawState(id)).toBe(await lite.rawState(id));
        expect(await pgr.log(id)).toEqual(await lite.log(id));
        expect(await pgr.deadlineOf(id)).toEqual(await lite.deadlineOf(id));
      }
      expect(await pgr.deadlineOf(runningId)).not.toBeNull();
    } finally {
      await client.end();
      open.close();
    }
  });

  it('db:verify on the PostgreSQL URL finds the games and actions it finds in the file', async (ctx) => {
    if (!pgdb) return ctx.skip();
    const v = await verifyCli(pgdb.url);
    expect(v.code, v.err).toBe(0);
    const onPg = JSON.parse(v.out);
    expect(onPg.url).toBe(pgdb.url);
    expect(onPg.mismatches).toEqual([]);
    expect({ ...onPg, url: undefined }).toEqual({ ...fileReport, file: undefined });
  });

  it('a target that holds rows is refused and left unchanged (exit 2)', async (ctx) => {
    if (!pgdb) return ctx.skip();
    const client = await connect(pgdb.url);
    const digest = async () =>
      (
        await client.query<{ h: string }>(
          `select md5(string_agg(id::text || ':' || coalesce(state, '') || ':' || moves, ',' order by id)) as h from games`,
        )
      ).rows[0]!.h;
    try {
      const before = await digest();
      const r = await migrateCli('--from', file, '--to', pgdb.url);
      refusal(r, 2, new RegExp(`is not empty \\(.*games: ${report.tables.games} rows.*\\); it was left unchanged`));
      expect(await digest()).toBe(before);
      const n = await client.query<{ n: number }>('select count(*)::int8 as n from actions');
      expect(n.rows[0]!.n).toBe(report.tables.actions);
    } finally {
      await client.end();
    }
    // Any table with a row makes a target not empty, the bot's or not.
    const other = await another();
    const c = await connect(other.url);
    try {
      await c.query('create table notes (body text)');
      await c.query("insert into notes values ('keep me')");
      const r = await migrateCli('--from', file, '--to', other.url);
      refusal(r, 2, /is not empty \(notes: 1 row\)/);
      const t = await c.query<{ t: string | null }>("select to_regclass('public.games')::text as t");
      expect(t.rows[0]!.t).toBeNull();
    } finally {
      await c.end();
    }
  });

  it('the sequences continue after the highest id: a new game gets max(id) + 1', async (ctx) => {
    if (!pgdb) return ctx.skip();
    const client = await connect(pgdb.url);
    try {
      const max = (await client.query<{ m: number }>('select max(id) as m from games')).rows[0]!.m;
      expect(report.nextIds.games).toBe(max + 1);
      const g = await client.query<{ id: number }>(
        `insert into games (guild_id, channel_id, host_id, ruleset, pace, status, created_at, updated_at)
         values ('sim', 'new', 'host', 'classic-10', 'live', 'lobby', 1, 1) returning id`,
      );
      expect(g.rows[0]!.id).toBe(max + 1);
      for (const table of ['outbox', 'audit', 'tournaments', 'seasons', 'substitute_calls']) {
        const m = (await client.query<{ m: number }>(`select max(id) as m from ${table}`)).rows[0]!.m;
        const next = (
          await client.query<{ n: number }>(`select nextval(pg_get_serial_sequence('${table}', 'id')) as n`)
        ).rows[0]!.n;
        expect(next, table).toBe(m + 1);
        expect(report.nextIds[table], table).toBe(m + 1);
      }
    } finally {
      await client.end();
    }
  });

  it('a state tampered with on PostgreSQL is a mismatch (db:verify exit 1)', async (ctx) => {
    if (!pgdb) return ctx.skip();
    const client = await connect(pgdb.url);
    let id: number;
    try {
      const r = await client.query<{ id: number; state: string }>(
        "select id, state from games where status = 'over' order by id desc limit 1",
      );
      id = r.rows[0]!.id;
      const s = JSON.parse(r.rows[0]!.state) as { moves: number };
      s.moves += 1;
      await client.query('update games set state = $1 where id = $2', [JSON.stringify(s), id]);
    } finally {
      await client.end();
    }
    const v = await verifyCli(pgdb.url);
    expect(v.code, v.err).toBe(1);
    const out = JSON.parse(v.out);
    expect(out.mismatches).toEqual([{ gameId: id, problem: expect.stringMatching(/replayed state differs/) }]);
  });

  it('a game already broken in the file is a mismatch of the copy, marked as in the file too (exit 1)', async (ctx) => {
    if (!pgdb) return ctx.skip();
    const broken = await copyOf('broken.sqlite');
    const db = new Database(broken);
    const g = db.prepare("select id, moves from games where status = 'over' order by id limit 1").get() as {
      id: number;
      moves: number;
    };
    db.prepare('delete from actions where game_id = ? and seq = (select max(seq) from actions where game_id = ?)').run(
      g.id,
      g.id,
    );
    db.close();
    const target = await another();
    const r = await migrateCli('--from', broken, '--to', target.url);
    expect(r.code, r.err).toBe(1);
    const out = JSON.parse(r.out);
    expect(out.mismatches.length).toBeGreaterThan(0);
    for (const m of out.mismatches) expect(m).toEqual({ gameId: g.id, problem: expect.any(String), alsoInFile: true });
    expect(out.mismatches[0].problem).toBe(`moves ${g.moves} but ${g.moves - 1} actions in the log`);
  });

  it('a target that holds only the schema (the bot started on it) is filled', async (ctx) => {
    if (!pgdb) return ctx.skip();
    const target = await another();
    const first = await migrateCli('--from', file, '--to', target.url);
    expect(first.code, first.err).toBe(0);
    const client = await connect(target.url);
    try {
      // Empty every table (children first), leaving the schema and the migrations' record.
      for (const p of [...copyPlan()].reverse()) await client.query(`delete from "${p.name}"`);
    } finally {
      await client.end();
    }
    const again = await migrateCli('--from', file, '--to', target.url);
    expect(again.code, again.err).toBe(0);
    expect(JSON.parse(again.out).tables).toEqual(report.tables);
  });
});

describe('db:migrate-to-postgres refuses bad input with exit 2 and one line', () => {
  it('bad arguments and bad URLs are told apart before anything is opened', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mafia-copy-'));
    const src = join(dir, 'x.sqlite');
    writeFileSync(src, '');
    const url = 'postgres://me@localhost:5432/mafia';
    const cases: [string[], RegExp][] = [
      [[], /^needs --from FILE; usage:/],
      [['--from', src], /^needs --to URL; usage:/],
      [['--from', src, '--to', url, 'extra'], /^Unexpected argument 'extra'/],
      [['--form', file, '--to', url], /^Unknown option '--form'/],
      [['--from', src, '--to', url, '--batch', '0'], /^--batch must be a whole number/],
      [['--from', src, '--to', url, '--batch', '1e3'], /^--batch must be a whole number/],
      [['--from', join(dir, 'none.sqlite'), '--to', url], /^no database file at .*none\.sqlite/],
      [['--from', dir, '--to', url], /is not a file$/],
      [['--from', src, '--to', 'mysql://u@h/db'], /^not a PostgreSQL URL \(the scheme is mysql:\)/],
      [['--from', src, '--to', 'postgres://u@h/'], /^not a PostgreSQL URL \(no database name/],
      [['--from', src, '--to', 'postgres://u@h/db x'], /spaces or control characters/],
      [['--from', src, '--to', 'postgres://u@h:99999/db'], /^not a PostgreSQL URL \(it cannot be parsed/],
      [['--from', src, '--to', 'postgres:///db'], /^not a PostgreSQL URL \(no host/],
      [['--from', src, '--to', 'postgres://u:pw@h/a/b'], /^not a PostgreSQL URL \(the database name holds a "\/"/],
    ];
    for (const [args, message] of cases) {
      const r = parseMigrateArgs(args);
      expect(r.ok, args.join(' ')).toBe(false);
      if (!r.ok) expect(r.error, args.join(' ')).toMatch(message);
    }
    const ok = parseMigrateArgs([
      '--from',
      src,
      '--to',
      'postgresql://u:pw@db.example:6543/mafia?sslmode=require',
      '--batch',
      '500',
    ]);
    expect(ok).toMatchObject({ ok: true, from: src, batch: 500 });
    if (ok.ok) expect(redactUrl(ok.to)).toBe('postgresql://u:***@db.example:6543/mafia?sslmode=require');
    // A Unix socket's directory as the host parameter.
    expect(parseMigrateArgs(['--from', src, '--to', 'postgres:///mafia?host=/run/postgresql']).ok).toBe(true);
    expect(looksLikePostgresUrl('postgresql://h/db') && !looksLikePostgresUrl('./data/mafia.sqlite')).toBe(true);
  });

  it('the command says so in one line with exit 2; a password is never shown', async () => {
    refusal(await migrateCli('--to'), 2, /^db:migrate-to-postgres: Option '--to <value>' argument missing; usage:/);
    const r = await migrateCli('--from', file, '--to', 'postgres://me:s3cret@127.0.0.1:1/db');
    refusal(
      r,
      2,
      /^db:migrate-to-postgres: cannot connect to postgres:\/\/me:\*\*\*@127\.0\.0\.1:1\/db \(.*ECONNREFUSED/,
    );
    expect(r.err).not.toContain('s3cret');
  });

  it('a file that is not SQLite, of an older version, with a table PostgreSQL lacks or a value it cannot hold: nothing copied', async (ctx) => {
    if (!pgdb) return ctx.skip();
    const dir = mkdtempSync(join(tmpdir(), 'mafia-copy-'));
    const target = await another();
    const text = join(dir, 'notes.sqlite');
    writeFileSync(text, 'not a database'.repeat(100));
    refusal(await migrateCli('--from', text, '--to', target.url), 2, /cannot be read as a SQLite database/);

    const older = await copyOf('older.sqlite');
    let db = new Database(older);
    db.prepare(
      'delete from __drizzle_migrations where created_at = (select max(created_at) from __drizzle_migrations)',
    ).run();
    db.close();
    refusal(
      await migrateCli('--from', older, '--to', target.url),
      2,
      /lacks 1 of this version's \d+ migrations .*: start the bot on it once/,
    );

    const foreign = await copyOf('foreign.sqlite');
    db = new Database(foreign);
    db.exec('create table notes (body text)');
    db.close();
    refusal(await migrateCli('--from', foreign, '--to', target.url), 2, /table notes of .* has no PostgreSQL twin/);

    const client = await connect(target.url);
    try {
      const t = await client.query("select 1 from information_schema.tables where table_schema = 'public'");
      expect(t.rowCount).toBe(0);
      // A text PostgreSQL cannot hold (SQLite keeps a NUL character): named, and nothing copied.
      const nul = await copyOf('nul.sqlite');
      db = new Database(nul);
      const a = db.prepare('select max(id) as id from audit').get() as { id: number };
      db.prepare('update audit set reason = ? where id = ?').run('late\u0000', a.id);
      db.close();
      refusal(
        await migrateCli('--from', nul, '--to', target.url),
        2,
        new RegExp(`audit\\.reason of the row id = ${a.id} holds a NUL character.*; nothing was copied`),
      );
      const rows = await client.query<{ n: number }>('select count(*)::int8 as n from games');
      expect(rows.rows[0]!.n).toBe(0);
    } finally {
      await client.end();
    }
  });

  it('db:verify: a URL with no bot database, a bad URL, a server that is not there (exit 2)', async (ctx) => {
    if (!pgdb) return ctx.skip();
    const empty = await another();
    refusal(await verifyCli(empty.url), 2, /^db:verify: .* has no games table/);
    refusal(await verifyCli('postgres://u@h'), 2, /^db:verify: not a PostgreSQL URL \(no database name/);
    refusal(await verifyCli('postgres://u@127.0.0.1:1/db'), 2, /^db:verify: cannot connect to .*ECONNREFUSED/);
  });
});
