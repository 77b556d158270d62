// Issue 20: the host is told of a storage failure in the game's channel (Notices.storageFailed,
// straight through REST), but not for a suspended game: its channel is gone or out of the bot's
// reach, so nothing is posted there and the failure is logged instead.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Routes, type REST } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { GameService } from '../../src/app/game-service';
import { openDatabase, type OpenDb } from '../../src/db/client';
import { LifecycleStore } from '../../src/db/lifecycle-store';
import { OutboxStore } from '../../src/db/outbox-store';
import { Store } from '../../src/db/store';
import { Contexts } from '../../src/discord/context';
import { Notices } from '../../src/discord/notices';
import { t } from '../../src/i18n';

const opened: OpenDb[] = [];
afterEach(() => {
  for (const o of opened.splice(0)) o.close();
});

function setup() {
  const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'mafia-notices-')), 'db.sqlite'));
  opened.push(db);
  const store = new Store(db.connection);
  const service = new GameService(store, { now: () => Date.UTC(2027, 2, 1, 10) });
  const lstore = new LifecycleStore(db.connection);
  const posts: { route: string; body: unknown }[] = [];
  const rest = {
    post: (route: string, o: { body: unknown }) => {
      posts.push({ route, body: o.body });
      return Promise.resolve({});
    },
  } as unknown as REST;
  const logged: string[] = [];
  const log = { warn: (m: string) => void logged.push(m), error: (m: string) => void logged.push(m) };
  const notices = new Notices(
    rest,
    new OutboxStore(db.connection),
    store,
    new Contexts(store, service, 'en'),
    service,
    log,
    async (id) => (await lstore.get(id)) !== null,
  );
  const game = async (channelId: string) =>
    await service.createLobby({
      guildId: 'g',
      channelId,
      hostId: 'host',
      ruleset: 'classic-10',
      pace: 'live',
      options: {},
    });
  return { lstore, notices, posts, logged, game };
}

const ioError = new Database.SqliteError('disk I/O error', 'SQLITE_IOERR');

describe('a storage failure told to the host (issue 20)', () => {
  it('a game that goes on: the host is told in its channel', async () => {
    const s = setup();
    const g = await s.game('c1');
    await s.notices.storageFailed(g.id, ioError, 'en');
    expect(s.posts).toEqual([
      {
        route: Routes.channelMessages('c1'),
        body: {
          content: t('en', 'delivery.storage', { id: g.id, why: 'SQLITE_IOERR' }),
          allowed_mentions: { parse: [], users: ['host'] },
        },
      },
    ]);
  });

  it('a suspended game (its channel out of reach): nothing is posted there, the failure is logged', async () => {
    const s = setup();
    const g = await s.game('c2');
    await s.lstore.add({
      gameId: g.id,
      reason: 'no-access',
      since: 0,
      voidAt: 24 * 3_600_000,
      stageSeq: null,
      extraMs: 0,
      clockStopped: false,
    });
    await s.notices.storageFailed(g.id, ioError, 'en');
    expect(s.posts).toEqual([]);
    expect(s.logged).toEqual([
      expect.stringMatching(new RegExp(`^game ${g.id}: storage error \\(SQLITE_IOERR\\).*suspended`)),
    ]);
  });
});
