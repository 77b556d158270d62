// The structured logs (src/log.ts): JSON lines with a level, each game's server and id on its
// lines, no token anywhere, the level respected, and the pretty form for a terminal.
import { describe, expect, it } from 'vitest';
import { createLog, defaultLogFormat, prettyLine } from '../../src/log';

const TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB';

function collect(level: 'error' | 'warn' | 'info' | 'debug' = 'debug', format: 'json' | 'pretty' = 'json') {
  const lines: string[] = [];
  const log = createLog({ level, format, secrets: [TOKEN], destination: { write: (l: string) => lines.push(l) } });
  log.setGuildOf((gameId) => (gameId === 12 ? '123456789012345678' : null));
  return { log, lines, json: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('createLog', () => {
  it('writes one JSON object per line with a level, a time and the message', () => {
    const { log, lines, json } = collect();
    log.info('mafia-bot: ready as bot#0001', { pending: 3 });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith('\n')).toBe(true);
    const [o] = json();
    expect(o).toMatchObject({ level: 'info', msg: 'mafia-bot: ready as bot#0001', pending: 3 });
    expect(typeof o!.time).toBe('string');
    expect(o).not.toHaveProperty('gameId');
  });

  it("puts the game's id and its server's on every line about a game", () => {
    const { log, json } = collect();
    log.warn('lifecycle: game 12 suspended (channel deleted)');
    log.warn('lobby 12: DM check of 5 failed (forbidden)');
    log.warn('delivery: post to ch:1 keeps failing (server); retrying', { gameId: 12 });
    log.game(12).info('inside a game');
    log.game(12).child({ step: 'x' }).error('deeper', new Error('boom'));
    log.warn('game 77: a game whose server is not known');
    const lines = json();
    for (const l of lines.slice(0, 5)) expect(l).toMatchObject({ gameId: 12, guildId: '123456789012345678' });
    expect(lines[4]).toMatchObject({ level: 'error', step: 'x', err: { type: 'Error', message: 'boom' } });
    expect(lines[5]).toMatchObject({ gameId: 77 });
    expect(lines[5]).not.toHaveProperty('guildId');
  });

  it('never writes the token, in a message, an error or a field', () => {
    const { log, lines } = collect();
    log.error(`login with ${TOKEN} failed`, new Error(`401 for ${TOKEN}`));
    log.info('fields', { token: TOKEN, headers: { authorization: `Bot ${TOKEN}` }, note: `x${TOKEN}x` });
    const all = lines.join('');
    expect(all).not.toContain(TOKEN);
    expect(all).not.toContain(TOKEN.split('.')[2]);
    expect(all).toContain('[redacted]');
  });

  it('keeps to its level', () => {
    const { log, json } = collect('warn');
    log.debug('d');
    log.info('i');
    log.warn('w');
    log.error('e', 'not an Error');
    expect(json().map((l) => [l.level, l.msg, l.err])).toEqual([
      ['warn', 'w', undefined],
      ['error', 'e', 'not an Error'],
    ]);
  });

  it('pretty: the same line for a person', () => {
    const { log, lines } = collect('info', 'pretty');
    log.warn('game 12: effect failed', { what: 'post' });
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d WARN {2}game=12 guild=123456789012345678 game 12: effect failed \{"what":"post"\}\n$/,
    );
    expect(prettyLine('not json')).toBe('not json');
    expect(defaultLogFormat(true)).toBe('pretty');
    expect(defaultLogFormat(false)).toBe('json');
  });
});
