// Issue 20: a game running when the bot is upgraded to the version that remembers its own Send
// Messages denies (migration 0008, `perm_holds`). The earlier version's denies (its last wish, in
// the game's `perms` slot) become the bot's own holds, so they are taken back when the game ends;
// finished games and other wishes add nothing.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_MIGRATIONS, openDatabase, type OpenDb } from '../../src/db/client';
import { OutboxStore } from '../../src/db/outbox-store';

const opened: OpenDb[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

const CH = '300000000000000001';
const A = '500000000000000001';
const B = '500000000000000002';
const C = '500000000000000003';

/** The migrations as they were before `tag` (a copy of the folder, its journal cut there). */
function migrationsBefore(tag: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'mafia-mig-')), 'migrations');
  cpSync(DEFAULT_MIGRATIONS, dir, { recursive: true });
  const journalPath = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

describe('migration 0008: the denies of a game running across the upgrade are the bot’s own', () => {
  it('a running game’s denies become holds (taken back at its end); a finished game’s and other wishes do not', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'mafia-up-')), 'mafia.sqlite');
    const old = openDatabase(path, { migrationsFolder: migrationsBefore('0008_perm_holds') });
    // The earlier version's rows, written as its schema has them (today's Store knows later columns).
    old.sqlite
      .prepare(`INSERT INTO servers (guild_id, created_at, updated_at) VALUES ('100000000000000001', 1, 1)`)
      .run();
    const insertGame = old.sqlite.prepare(
      `INSERT INTO games (guild_id, channel_id, host_id, ruleset, pace, status, created_at, updated_at)
       VALUES ('100000000000000001', ?, ?, 'chnu-2016', 'live', 'lobby', 1, 1)`,
    );
    const lobby = (channelId: string) => ({ id: Number(insertGame.run(channelId, C).lastInsertRowid) });
    const running = lobby(CH);
    const over = lobby('300000000000000002');
    old.sqlite.prepare(`UPDATE games SET status = ? WHERE id = ?`).run('running', running.id);
    old.sqlite.prepare(`UPDATE games SET status = ? WHERE id = ?`).run('over', over.id);
    // The earlier version's wishes: the speaker allowed, the others denied, a non-player untouched.
    const slot = old.sqlite.prepare(
      `INSERT INTO slots (game_id, key, kind, dest, payload, version, sent_version, updated_at, message_id) VALUES (?, 'perms', 'perms', ?, ?, 1, 1, 5, ?)`,
    );
    const wish = (channelId: string, members: Record<string, string | null>) => JSON.stringify({ channelId, members });
    slot.run(running.id, `ch:${CH}`, wish(CH, { [A]: 'allow', [B]: 'deny', [C]: null }), CH);
    slot.run(over.id, 'ch:300000000000000002', wish('300000000000000002', { [B]: 'deny' }), '300000000000000002');
    old.close();

    const now = openDatabase(path);
    opened.push(now);
    const holds = new OutboxStore(now.connection);
    expect(await holds.permHolds(CH)).toEqual([
      { channelId: CH, userId: B, gameId: running.id, hadAllow: false, hadDeny: false, existed: false },
    ]);
    expect(await holds.permHolds('300000000000000002')).toEqual([]);
  });
});
