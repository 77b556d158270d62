import { openDatabase } from '../src/db/client';
import { Store } from '../src/db/store';
import { OutboxStore } from '../src/delivery/outbox-store';
const db = openDatabase(':memory:');
const store = new Store(db.db);
const outbox = new OutboxStore(db.sqlite);
const now = Date.now();
for (const n of [200, 2000, 6000]) {
  db.sqlite.exec('DELETE FROM outbox');
  const g = store.createLobby({ guildId: '1', channelId: '2', hostId: '3', ruleset: 'chnu-2016', pace: 'live', options: {}, now });
  db.sqlite.transaction(() => {
    for (let i = 0; i < n; i++) outbox.add(g.id, `dm:${1000 + i}`, 'post', { content: 'x'.repeat(300) }, now);
    for (let i = 0; i < 200; i++) outbox.add(g.id, `ch:${5000 + i}`, 'post', { content: 'y'.repeat(300) }, now);
  })();
  for (const q of ['heads', 'channelHeads'] as const) {
    const t0 = performance.now();
    for (let k = 0; k < 50; k++) outbox[q](now, 64);
    console.log(n, q, ((performance.now() - t0) / 50).toFixed(2), 'ms');
  }
}
