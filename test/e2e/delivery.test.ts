// What players see is as durable as the game (the outbox): the bot killed right after each commit
// point, a 30 s outage of message posts, a deleted table, closed DMs, a read-only database during
// a timer. After each, everything players should have seen arrives, exactly once.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startBot } from '../../src/discord/bot';
import { parseScenario, type Scenario } from '../../src/scenario/parse';
import { resultOf } from '../../src/scenario/run';
import { allComponents, type StoredMessage } from '../../testkit/fake-discord';
import { compareExpect, OWN_DIR, readJson } from '../../testkit/scenario-files';
import { Driver } from '../../testkit/driver';
import { botConfig, fixedDealer, makeWorld, testDb, type World, type WorldOptions } from '../../testkit/world';

const worlds: World[] = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.stop();
});

async function world(o: WorldOptions): Promise<World> {
  const w = await makeWorld(o);
  worlds.push(w);
  return w;
}

/** A message as a player reads it (ids and times made neutral, so two runs can be compared). */
function readable(w: World, m: Pick<StoredMessage, 'content' | 'embeds' | 'components'>): string {
  const names = new Map([w.host, ...w.users].map((u) => [u.id, u.username]));
  const parts = [m.content];
  for (const e of m.embeds)
    parts.push(e.title ?? '', e.description ?? '', ...(e.fields ?? []).flatMap((f) => [f.name, f.value]));
  for (const c of allComponents(m)) parts.push(`[${c.label ?? c.placeholder ?? ''}${c.disabled ? ' (off)' : ''}]`);
  return parts
    .join('|')
    .replace(/<@!?(\d+)>/g, (_, id: string) => `@${names.get(id) ?? '?'}`)
    .replace(/<t:\d+:[a-zA-Z]>/g, '<t>');
}

/** Everything the bot showed: the channel, the mafia thread, each player's DMs, in order. */
function transcript(w: World): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const bot = w.fake.botUser.id;
  out.channel = w.fake
    .publicMessages(w.channel.id)
    .filter((m) => m.author?.id === bot)
    .map((m) => readable(w, m));
  for (const th of w.fake.threads(w.channel.id))
    out[`thread ${th.name}`] = w.fake.messages(th.id).map((m) => readable(w, m));
  for (const u of [w.host, ...w.users]) out[u.username] = w.fake.dms(u.id).map((m) => readable(w, m));
  return out;
}

/** Plays a scenario file through Discord; `onStep` may restart the bot between steps. */
async function play(w: World, sc: Scenario, onStep: (i: number) => Promise<void> = async () => {}): Promise<Driver> {
  const d = new Driver(w);
  // A bot that dies mid-click never answers it (the click was committed all the same).
  const tolerate = async (f: () => Promise<unknown>) => {
    try {
      await f();
    } catch (e) {
      if (!w.bot.crashed) throw e;
    }
  };
  await tolerate(() => d.createAndStart(sc.ruleset, sc.pace));
  if (!d.gameId) d.gameId = 1;
  await onStep(-1);
  for (const [i, step] of sc.steps.entries()) {
    await tolerate(() => d.step(step));
    await onStep(i);
  }
  // The repair a restart does (old controls turned off for real), so that two runs compare alike.
  await w.bot.outbox.wakeStale(d.gameId);
  w.bot.deliverer.kick();
  await w.bot.idle();
  return d;
}

const FILE = join(OWN_DIR, 'chnu-red-full-strength.json');

describe('delivery survives a crash at every commit point (the outbox, with nonces)', () => {
  const raw = readJson(FILE) as { expect: Record<string, unknown> };
  const sc = parseScenario(raw);
  let reference: Record<string, string[]> | null = null;

  async function referenceRun(): Promise<Record<string, string[]>> {
    if (reference) return reference;
    const w = await world({ players: sc.roles.length, dealer: fixedDealer(sc.roles) });
    await play(w, sc);
    reference = transcript(w);
    return reference;
  }

  const what = {
    sent: 'the first posts reached Discord (not yet recorded)',
    followup: "a turn's message a click sent as its follow-up reached Discord (not yet recorded)",
  } as Record<string, string>;
  for (const point of ['deal', 'night', 'vote', 'game-end', 'post-game', 'sent', 'followup'] as const) {
    it(`killed right after ${what[point] ?? `the ${point} commit`}: after the restart every message arrives, exactly once`, async () => {
      const ref = await referenceRun();
      // `sent`: the 14th post (in the middle of the deal's role cards) reached Discord, then death.
      // `followup`: the 5th message a click delivered (a day's turn) reached Discord, then death:
      // the restarted bot finds it in the channel instead of posting it again.
      const w = await world({
        players: sc.roles.length,
        dealer: fixedDealer(sc.roles),
        crashAt: [point],
        crashAfterSends: point === 'followup' ? 5 : 14,
      });
      let restarts = 0;
      const d = await play(w, sc, async () => {
        if (!w.bot.crashed) return;
        restarts++;
        await w.bot.kill();
        // A new process on the same database and the same Discord.
        w.bot = await startBot(botConfig(w.fake, w.dbPath, { dealer: fixedDealer(sc.roles) }));
        await w.bot.idle();
      });
      expect(restarts).toBe(1);
      if (point === 'followup') expect(w.bot.deliverer.counts.get('GET /channels/:id/messages')).toBeGreaterThan(0);
      const state = (await w.bot.store.getState(d.gameId))!;
      expect(
        compareExpect(resultOf(state, []) as never, { ...raw.expect, refused: undefined } as never).filter(
          (x) => !x.startsWith('refused'),
        ),
      ).toEqual([]);
      // Exactly what an uninterrupted game showed: nothing lost, nothing twice.
      const got = transcript(w);
      if (process.env.E2E_DEBUG)
        for (const k of Object.keys(ref))
          if (JSON.stringify(ref[k]) !== JSON.stringify(got[k])) console.log(k, '\nREF', ref[k], '\nGOT', got[k]);
      expect(got).toEqual(ref);
      // No two messages carry the same nonce.
      const nonces = w.fake
        .publicMessages(w.channel.id)
        .map((m) => m.nonce)
        .filter((n) => n !== undefined);
      expect(new Set(nonces).size).toBe(nonces.length);
    });
  }
});

describe('delivery through Discord trouble', () => {
  it('a 30 s outage of message posts (HTTP 500) loses nothing and doubles nothing', async () => {
    const roles = parseScenario(readJson(FILE)).roles;
    const run = async (outage: boolean) => {
      // Discord's real windows here: 5 posts per 5 s per channel while the outage lasts.
      const w = await world({ players: roles.length, dealer: fixedDealer(roles), limits: 'real' });
      const d = new Driver(w);
      await d.createAndStart('chnu-2016', 'live');
      await w.bot.idle();
      const started = Date.now();
      const restore = outage
        ? w.fake.failFor({ method: 'POST', route: '/channels/:channel/messages', status: 500, ms: 30_000 })
        : () => {};
      // Night 0 ends and three speeches pass (the host skips) while no message can be posted.
      for (let i = 0; i < 4; i++) expect(await d.host('skip', {})).toBe('ok');
      if (outage) {
        await new Promise((r) => setTimeout(r, Math.max(0, 30_000 - (Date.now() - started))));
        restore();
      }
      await w.bot.idle();
      return transcript(w);
    };
    const ref = await run(false);
    expect(await run(true)).toEqual(ref);
  }, 120_000);

  it('a deleted table is posted again and pinned; a deleted lobby too', async () => {
    const w = await world({ players: 10 });
    const d = new Driver(w);
    const r = await d.slash(w.host.id, 'mafia', 'create', { ruleset: 'chnu-2016' });
    d.gameId = Number(/Game #(\d+)/.exec(r.content ?? '')![1]);
    const lobby = d.lobbyMessage();
    w.fake.deleteMessage(w.channel.id, lobby.id);
    await w.fake.waitFor(() => d.lobbyMessageOrNull()?.id !== lobby.id && d.lobbyMessageOrNull());
    await w.bot.idle();
    for (const u of w.users) await w.fake.click(u.id, d.lobbyMessage(), `v1:l:${d.gameId}:join`);
    await (await w.fake.click(w.host.id, d.lobbyMessage(), `v1:l:${d.gameId}:start`)).settled();
    await w.bot.idle();
    const table = d.tableMessage();
    expect(table.pinned).toBe(true);
    w.fake.deleteMessage(w.channel.id, table.id);
    await w.fake.waitFor(() => {
      const t = d.tableMessageOrNull();
      return t && t.id !== table.id && t.pinned;
    });
    await w.bot.idle();
    const again = d.tableMessage();
    expect(again.embeds[0]?.title).toBe(table.embeds[0]?.title);
    const tables = () =>
      w.fake
        .publicMessages(w.channel.id)
        .filter((m) => allComponents(m).some((c) => c.custom_id === `v1:p:${d.gameId}:actions`));
    expect(tables()).toHaveLength(1);
    // /mafia table then links the table in place: nothing is posted again (see table-command.test.ts).
    const where = await d.slash(w.users[0]!.id, 'mafia', 'table');
    expect(where.content).toContain(`https://discord.com/channels/${w.guild.id}/${w.channel.id}/${again.id}`);
    await w.bot.idle();
    expect(tables().map((m) => m.id)).toEqual([again.id]);
    expect(w.fake.publicMessages(w.channel.id).filter((m) => m.pinned)).toHaveLength(1);
  });

  it('a table deleted while the bot was down is posted again after the restart', async () => {
    const w = await world({ players: 10 });
    const d = new Driver(w);
    await d.createAndStart('chnu-2016');
    const table = d.tableMessage();
    await w.bot.kill();
    w.fake.deleteMessage(w.channel.id, table.id);
    w.bot = await startBot(botConfig(w.fake, w.dbPath));
    await w.fake.waitFor(() => d.tableMessageOrNull()?.pinned);
    await w.bot.idle();
    expect(d.tableMessage().id).not.toBe(table.id);
    expect(d.tableMessage().embeds[0]?.title).toBe(table.embeds[0]?.title);
  });

  it('/host log speaks in words, also after the points are posted', async () => {
    const sc = parseScenario(readJson(FILE));
    const w = await world({ players: sc.roles.length, dealer: fixedDealer(sc.roles) });
    const d = await play(w, sc);
    expect((await w.bot.store.getGame(d.gameId))!.status).toBe('over');
    const r = await d.slash(w.host.id, 'host', 'log');
    expect(r.ephemeral).toBe(true);
    expect(r.content).toMatch(/Host log of game #1/);
    expect(r.content).not.toMatch(/[{}"]/); // no raw JSON
    expect(r.content).toMatch(/ended the current turn or stage/);
  });

  it('a player whose DMs close mid-game is pinged once in the channel to use the panel, with the host named', async () => {
    const raw = readJson(join(OWN_DIR, 'chnu-red-full-strength.json'));
    const sc = parseScenario(raw);
    const w = await world({ players: sc.roles.length, dealer: fixedDealer(sc.roles) });
    const d = new Driver(w);
    await d.createAndStart(sc.ruleset, sc.pace);
    const sheriff = w.users[sc.roles.indexOf('sheriff')]!;
    w.fake.setDmsOpen(sheriff.id, false);
    // Through day 1 into night 1 (the sheriff's night panel cannot be sent), then night 2.
    for (const step of sc.steps.slice(0, 40)) await d.step(step);
    await w.bot.idle();
    const notices = w.fake.publicMessages(w.channel.id).filter((m) => m.content.startsWith('📪'));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.content).toContain(`<@${sheriff.id}>`);
    expect(notices[0]!.content).toContain(`<@${w.host.id}>`);
    expect(notices[0]!.content).not.toMatch(/sheriff/i);
  });

  it('closed DMs are told in words and at a moment that mark no role: the Sheriff and a civilian alike, at nightfall (issue 20)', async () => {
    const raw = readJson(join(OWN_DIR, 'chnu-red-full-strength.json'));
    const sc = parseScenario(raw);
    const w = await world({ players: sc.roles.length, dealer: fixedDealer(sc.roles) });
    const d = new Driver(w);
    await d.createAndStart(sc.ruleset, sc.pace);
    const sheriff = w.users[sc.roles.indexOf('sheriff')]!;
    const civilian = w.users[sc.roles.indexOf('civilian')]!;
    w.fake.setDmsOpen(sheriff.id, false);
    w.fake.setDmsOpen(civilian.id, false);
    const notices = () => w.fake.publicMessages(w.channel.id).filter((m) => m.content.startsWith('📪'));
    // Day 1 is played; nobody's DM is due before nightfall, so nobody is named yet.
    let i = 0;
    while (
      (await w.bot.store.getState(d.gameId))!.clock.phase !== 'night' ||
      (await w.bot.store.getState(d.gameId))!.clock.n < 1
    )
      await d.step(sc.steps[i++]!);
    await w.bot.idle();
    // At nightfall every living player gets a DM (a panel, or "nothing to do tonight"): both are
    // named together, in the same words.
    const both = notices();
    expect(both.map((m) => m.content.includes(`<@${sheriff.id}>`) || m.content.includes(`<@${civilian.id}>`))).toEqual([
      true,
      true,
    ]);
    const strip = (c: string) => c.replace(/<@\d+>/g, '@');
    expect(strip(both[0]!.content)).toBe(strip(both[1]!.content));
    expect(both[0]!.content).not.toMatch(/night action|check|role card/i);
    // Every living player without a night action was told he sleeps, in the same moment.
    for (const [k, role] of sc.roles.entries()) {
      if (role !== 'civilian' || w.users[k] === civilian) continue;
      expect(
        w.fake.dms(w.users[k]!.id).some((m) => /nothing to do tonight/.test(m.content)),
        `seat ${k + 1}`,
      ).toBe(true);
    }
  });

  // SQLite's query_only pragma makes the file read-only under the running bot; PostgreSQL's read-only
  // setting reaches only new sessions (the pool's are open): SQLite only.
  it.skipIf(testDb() === 'postgres')(
    'a read-only database during a timer: the process lives, the host is told, the game goes on when it is writable again',
    async () => {
      const w = await world({ players: 10 });
      const d = new Driver(w);
      await d.createAndStart('chnu-2016', 'live', { night: '5s' });
      const gameId = d.gameId;
      expect((await w.bot.store.getState(gameId))!.stage.kind).toBe('night0');
      w.bot.db.sqlite!.sqlite.pragma('query_only = ON');
      await w.fake.waitFor(() => w.fake.publicMessages(w.channel.id).find((m) => m.content.includes('cannot save')), {
        timeout: 15_000,
      });
      expect((await w.bot.store.getState(gameId))!.stage.kind).toBe('night0');
      // Another request is still answered (refused politely: nothing can be written now).
      const r = await w.fake.slash(w.host.id, w.channel.id, 'mafia', { sub: 'role' });
      expect(r.ephemeral).toBe(true);
      w.bot.db.sqlite!.sqlite.pragma('query_only = OFF');
      await w.fake.waitFor(async () => (await w.bot.store.getState(gameId))!.stage.kind !== 'night0', {
        timeout: 15_000,
      });
      await w.bot.idle();
      expect((await w.bot.store.getState(gameId))!.clock).toEqual({ phase: 'day', n: 1 });
    },
    60_000,
  );
});
