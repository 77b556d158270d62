// npm start and npm run deploy-commands as a newcomer meets them: a missing or invalid variable
// is one clear line (no stack trace); commands are registered with uk and ru localizations.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { FakeDiscord } from '../../testkit/fake-discord';
import { ROOT } from '../../testkit/scenario-files';

const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

/** Runs an entry point in an empty directory (no .env) with exactly these variables. */
function run(
  entry: string,
  env: Record<string, string>,
  cwd = mkdtempSync(join(tmpdir(), 'mafia-cli-')),
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', TSX, join(ROOT, entry)], {
      cwd,
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

let fake: FakeDiscord | null = null;
afterAll(async () => {
  await fake?.stop();
});

describe('npm start: configuration problems are one clear line', () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    ['no token', {}, /^mafia-bot: DISCORD_TOKEN is not set: copy \.env\.example to \.env/],
    [
      'a token that is not a token',
      { DISCORD_TOKEN: 'hello world' },
      /^mafia-bot: DISCORD_TOKEN does not look like a bot token/,
    ],
    [
      'a bad API base',
      { DISCORD_TOKEN: 'test-token', DISCORD_API_BASE: 'not a url' },
      /^mafia-bot: DISCORD_API_BASE must be a URL/,
    ],
    [
      'a bad app id',
      { DISCORD_TOKEN: 'test-token', DISCORD_APP_ID: '12' },
      /^mafia-bot: DISCORD_APP_ID must be a Discord id/,
    ],
    ['a bad language', { DISCORD_TOKEN: 'test-token', DEFAULT_LOCALE: 'fr' }, /^mafia-bot: DEFAULT_LOCALE/],
    ['a bad HTTP port', { DISCORD_TOKEN: 'test-token', HTTP_PORT: 'http' }, /^mafia-bot: HTTP_PORT/],
    ['a bad log format', { DISCORD_TOKEN: 'test-token', LOG_FORMAT: 'xml' }, /^mafia-bot: LOG_FORMAT/],
  ];
  for (const [what, env, message] of cases) {
    it(what, async () => {
      const r = await run('src/index.ts', env);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(message);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    });
  }

  it('a database file that is not SQLite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mafia-cli-'));
    writeFileSync(join(dir, 'bad.sqlite'), 'not a database at all, just text'.repeat(50));
    const r = await run('src/index.ts', { DISCORD_TOKEN: 'test-token', DATABASE_PATH: join(dir, 'bad.sqlite') }, dir);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^mafia-bot: .*bad\.sqlite is not a SQLite database/);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });

  it('reads .env from the working directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mafia-cli-'));
    writeFileSync(join(dir, '.env'), 'DISCORD_TOKEN=hello world\n');
    const r = await run('src/index.ts', {}, dir);
    expect(r.err).toMatch(/DISCORD_TOKEN does not look like a bot token/);
  });
});

describe('npm start: logs and the operators endpoint', () => {
  it('JSON lines with a level and no token; HTTP_PORT=0 serves /healthz on the port it logs; SIGTERM stops it', async () => {
    fake ??= await FakeDiscord.start();
    const token = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB';
    const dir = mkdtempSync(join(tmpdir(), 'mafia-cli-'));
    const child = spawn(process.execPath, ['--import', TSX, join(ROOT, 'src/index.ts')], {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '',
        DISCORD_TOKEN: token,
        DISCORD_API_BASE: fake.apiBase,
        DATABASE_PATH: join(dir, 'db.sqlite'),
        HTTP_PORT: '0',
        LOG_LEVEL: 'debug',
      },
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const ready = new Promise<void>((resolve) =>
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('mafia-bot: ready')) resolve();
      }),
    );
    await Promise.race([ready, exited.then(() => Promise.reject(new Error(`exited: ${out}${err}`)))]);
    const lines = () =>
      out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    const port = lines().find((l) => typeof l.port === 'number')?.port as number;
    expect(port).toBeGreaterThan(0);
    const h = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(h.status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(err).toBe('');
    // stdout is not a terminal: JSON, every line with a level and a time; the token never.
    for (const l of lines()) expect(l).toMatchObject({ level: expect.any(String), time: expect.any(String) });
    expect(lines().map((l) => l.msg)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^mafia-bot: ready/),
        'mafia-bot: SIGTERM, finishing pending work and stopping',
      ]),
    );
    expect(out).not.toContain(token.split('.')[2]);
  });
});

describe('npm run deploy-commands', () => {
  it('registers /mafia, /host, /stats and /tournament in the dev guild with uk and ru localizations', async () => {
    fake = await FakeDiscord.start();
    const guild = fake.addGuild({ name: 'Dev' });
    const r = await run('src/cli/deploy-commands.ts', {
      DISCORD_TOKEN: 'test-token',
      DISCORD_API_BASE: fake.apiBase,
      DISCORD_APP_ID: fake.applicationId,
      DEV_GUILD_ID: guild.id,
    });
    expect(r.err).toBe('');
    expect(r.out).toMatch(/registered 4 commands in guild/);
    const cmds = fake.commands(guild.id);
    expect(cmds.map((c) => c.name).sort()).toEqual(['host', 'mafia', 'stats', 'tournament']);
    expect(cmds.find((c) => c.name === 'tournament')!.name_localizations).toMatchObject({ uk: 'турнір', ru: 'турнир' });
    const mafia = cmds.find((c) => c.name === 'mafia')!;
    expect(mafia.name_localizations).toMatchObject({ uk: 'мафія', ru: 'мафия' });
    expect(Object.keys(mafia.description_localizations ?? {}).sort()).toEqual(['ru', 'uk']);
    const global = await run('src/cli/deploy-commands.ts', {
      DISCORD_TOKEN: 'test-token',
      DISCORD_API_BASE: fake.apiBase,
    });
    expect(global.out).toMatch(/registered 4 commands globally/);
    expect(
      fake
        .commands()
        .map((c) => c.name)
        .sort(),
    ).toEqual(['host', 'mafia', 'stats', 'tournament']);
  });
});
