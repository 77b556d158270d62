// The bot as its own process (npm start's entry point) against the fake Discord: killed in the
// middle of a night, started again on the same database, and the game finished with the buttons
// sent before the restart.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allComponents, FakeDiscord, type StoredMessage } from '../../testkit/fake-discord';
import { ROOT } from '../../testkit/scenario-files';
import { isPostgresUrl, testDatabase } from '../../testkit/world';

const children: ChildProcess[] = [];
let fake: FakeDiscord;

function startBotProcess(env: Record<string, string>): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/index.ts')], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    const onData = (d: Buffer) => {
      out += d;
      if (out.includes('mafia-bot: ready')) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d) => (out += d));
    child.on('exit', (code) => reject(new Error(`bot exited early (${code}): ${out}`)));
  });
}

function killed(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await fake?.stop();
  for (const d of drops) await d();
});

describe('restart', () => {
  it('a bot killed mid-night picks the game up again and the old buttons still work', async () => {
    fake = await FakeDiscord.start({ interactionTimeout: 15_000 });
    const guild = fake.addGuild({ name: 'Club', locale: 'en-US' });
    const channel = fake.addChannel(guild.id, { name: 'mafia' });
    const host = fake.addUser({ username: 'host', guilds: [guild.id] });
    const users = Array.from({ length: 10 }, (_, i) => fake.addUser({ username: `p${i + 1}`, guilds: [guild.id] }));
    // npm start on the SQLite file, or under TEST_DB=postgres on a PostgreSQL database (DATABASE_URL).
    const db = await testDatabase();
    drops.push(db.drop);
    const env = {
      DISCORD_TOKEN: 'test-token',
      DISCORD_API_BASE: fake.apiBase,
      ...(isPostgresUrl(db.path)
        ? { DATABASE_URL: db.path, DATABASE_PATH: join(mkdtempSync(join(tmpdir(), 'mafia-restart-')), 'unused.sqlite') }
        : { DATABASE_PATH: db.path }),
    };
    let bot = await startBotProcess(env);

    const created = await fake.slash(host.id, channel.id, 'mafia', {
      sub: 'create',
      options: { ruleset: 'chnu-2016' },
    });
    const gameId = Number(/Game #(\d+)/.exec(created.content ?? '')![1]);
    const lobby = await fake.waitForMessage(channel.id, (m) =>
      allComponents(m).some((c) => c.custom_id === `v1:l:${gameId}:join`),
    );
    for (const u of users) await fake.click(u.id, lobby, `v1:l:${gameId}:join`);
    await fake.waitFor(() => fake.message(lobby.id)!.embeds[0]?.description?.includes('10/10'));
    const start = await fake.click(host.id, fake.message(lobby.id)!, `v1:l:${gameId}:start`);
    await start.settled();
    // Everybody learns his role and seat from the card.
    const roles = new Map<string, { seat: number; role: string }>();
    await fake.waitFor(() =>
      users.every((u) => fake.dms(u.id).some((m) => / — seat \d+$/.test(m.embeds[0]?.title ?? ''))),
    );
    for (const u of users) {
      const m = /^(.+) — seat (\d+)$/.exec(
        fake.dms(u.id).find((x) => / — seat \d+$/.test(x.embeds[0]?.title ?? ''))!.embeds[0]!.title!,
      )!;
      roles.set(u.id, { seat: Number(m[2]), role: m[1]! });
    }
    const byRole = (r: string) => users.filter((u) => roles.get(u.id)!.role === r);
    // Night 0 ends by the host; day 1: everybody thanks, nobody is nominated: night 1.
    await (await fake.slash(host.id, channel.id, 'host', { sub: 'skip' })).settled();
    for (let i = 0; i < 10; i++) {
      const ping = await fake.waitFor(() =>
        [...fake.publicMessages(channel.id)]
          .reverse()
          .find((m) => allComponents(m).some((c) => c.custom_id?.endsWith(':pass') && !c.disabled)),
      );
      const speaker = users.find((u) => ping.content.includes(`<@${u.id}>`))!;
      const pass = allComponents(ping).find((c) => c.custom_id?.endsWith(':pass'))!;
      // A player takes a moment to read his turn before he clicks. (Clicking the very instant the
      // message appears, before the bot has recorded its id, is answered the old way: a private
      // "✅ Thank you." and the turn message edited later. Reported as a race in the router.)
      await new Promise((res) => setTimeout(res, 300));
      const r = await fake.click(speaker.id, ping, pass.custom_id!);
      // "Thank you" is answered by the turn message itself, its controls disabled.
      expect(r.type).toBe(7);
      expect(r.message?.id).toBe(ping.id);
      expect(allComponents(r.message!).every((c) => !c.custom_id || c.disabled)).toBe(true);
      await fake.waitFor(() => allComponents(fake.message(ping.id)!).every((c) => !c.custom_id || c.disabled));
    }
    // Night 1: the prompts arrive by DM.
    const prompt = (u: { id: string }, verb: string): Promise<StoredMessage> =>
      fake.waitFor(() =>
        [...fake.dms(u.id)]
          .reverse()
          .find((m) => allComponents(m).some((c) => c.custom_id?.endsWith(`:${verb}`) && !c.disabled)),
      );
    const [mafiaA, mafiaB] = byRole('Mafia');
    const don = byRole('Don')[0]!;
    const sheriff = byRole('Sheriff')[0]!;
    const victim = byRole('Civilian')[0]!;
    const target = String(roles.get(victim.id)!.seat);
    const prompts = {
      a: await prompt(mafiaA!, 'shoot'),
      b: await prompt(mafiaB!, 'shoot'),
      donShoot: await prompt(don, 'shoot'),
      sheriff: await prompt(sheriff, 'check'),
    };
    const idOf = (m: StoredMessage, verb: string) =>
      allComponents(m).find((c) => c.custom_id?.endsWith(`:${verb}`))!.custom_id!;
    const shootA = idOf(prompts.a, 'shoot');
    const first = await fake.select(mafiaA!.id, prompts.a, shootA, [target]);
    // His DM panel is updated in place by his click.
    expect(first.type).toBe(7);
    expect(first.message?.id).toBe(prompts.a.id);
    expect(first.message?.content).toMatch(/^✅ Your shot at/);

    // The bot dies in the middle of the night.
    await killed(bot, 'SIGKILL');
    bot = await startBotProcess(env);

    // What the first shot owed the other shooters (they see a teammate's pick) reaches them,
    // whether it went out before the kill or is delivered from the outbox at start-up.
    const aimed = `#${roles.get(mafiaA!.id)!.seat} <@${mafiaA!.id}> aims at #${target} <@${victim.id}>.`;
    for (const u of [mafiaB!, don]) await fake.waitFor(() => fake.dms(u.id).some((m) => m.content === aimed));
    // The old DM buttons, sent before the restart, still work.
    const b = await fake.select(mafiaB!.id, prompts.b, idOf(prompts.b, 'shoot'), [target]);
    expect(b.type).toBe(7);
    expect(b.message?.content).toMatch(/^✅ Your shot at/);
    const d = await fake.select(don.id, prompts.donShoot, idOf(prompts.donShoot, 'shoot'), [target]);
    expect(d.type).toBe(7);
    expect(d.message?.content).toMatch(/^✅ Your shot at/);
    // A second shot from a stale copy of the first prompt (a client that did not refresh).
    const again = await fake.select(mafiaA!.id, prompts.a, shootA, [target], { forge: true });
    expect(again.type).toBe(4);
    expect(again.ephemeral).toBe(true);
    expect(again.content).toMatch(/^⛔ .*already picked your shot/); // acknowledged before the kill: kept
    const donPanel = fake.message(prompts.donShoot.id)!;
    const dc = await fake.select(don.id, donPanel, idOf(donPanel, 'check'), [String(roles.get(sheriff.id)!.seat)]);
    expect(dc.type).toBe(7);
    expect(dc.message?.content).toMatch(/the Sheriff/);
    // The Sheriff's panel shows his answer in place, with what is left to do (ask about the Don).
    const sc = await fake.select(sheriff.id, prompts.sheriff, idOf(prompts.sheriff, 'check'), [
      String(roles.get(don.id)!.seat),
    ]);
    expect(sc.type).toBe(7);
    expect(sc.message?.id).toBe(prompts.sheriff.id);
    expect(sc.message?.content).toMatch(/black/);
    const sheriffPanel = fake.message(prompts.sheriff.id)!;
    const ask = await fake.click(sheriff.id, sheriffPanel, idOf(sheriffPanel, 'askDon'));
    expect(ask.type).toBe(7);
    // His question ends the night; the bot dies again at once. What the night's end owes the
    // players (the morning, the other panels closed) is in the outbox and goes out at start-up.
    await killed(bot, 'SIGKILL');
    bot = await startBotProcess(env);
    // Morning: the victim has left.
    const morning = await fake.waitForMessage(channel.id, (m) => m.content.includes('Morning after night 1'));
    expect(morning.content).toContain(`#${target} <@${victim.id}>`);
    // The night's panels, sent before the restart, lose their controls by edits.
    for (const m of Object.values(prompts))
      await fake.waitFor(() => allComponents(fake.message(m.id)!).every((c) => !c.custom_id || c.disabled));
    for (const u of [mafiaB!, don]) expect(fake.dms(u.id).filter((m) => m.content === aimed)).toHaveLength(1);

    // A clean stop (SIGTERM) and one more start; the host ends the game and closes the vote.
    await killed(bot, 'SIGTERM');
    bot = await startBotProcess(env);
    await (await fake.slash(host.id, channel.id, 'host', { sub: 'end', options: { winner: 'draw' } })).settled();
    await (await fake.slash(host.id, channel.id, 'host', { sub: 'skip' })).settled();
    await fake.waitForMessage(channel.id, (m) => (m.embeds[0]?.title ?? '').startsWith('Points'));
    await killed(bot, 'SIGTERM');
  }, 120_000);
});
