// Issue 22: one request budget for all processes. Two REST clients, each allowed Discord's whole
// 50 per second (as two processes of the bot would be), against the fake Discord with Discord's
// limits: straight to Discord they overrun the bot's global limit (429s); through the proxy
// (src/delivery/rest-proxy.ts, @discordjs/proxy) they share it and get none. An interaction's
// answer (a route Discord does not count) does not wait behind the counted queue.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REST } from '@discordjs/rest';
import { Routes } from 'discord-api-types/v10';
import { afterEach, describe, expect, it } from 'vitest';
import { startRestProxy, type RunningRestProxy } from '../../src/delivery/rest-proxy';
import { FakeDiscord } from '../../testkit/fake-discord';
import { ROOT } from '../../testkit/scenario-files';

let fake: FakeDiscord | null = null;
let proxy: RunningRestProxy | null = null;
afterEach(async () => {
  await proxy?.close();
  await fake?.stop();
  proxy = null;
  fake = null;
});

/** Two "processes", each firing `n` counted requests at once with its own 50/s limiter. */
async function burst(api: string, channelId: string, n: number): Promise<void> {
  const clients = [0, 1].map(() => new REST({ api, globalRequestsPerSecond: 50 }).setToken('test-token'));
  await Promise.all(clients.flatMap((rest) => Array.from({ length: n }, () => rest.get(Routes.channel(channelId)))));
}

describe('the REST proxy: one budget for every process (issue 22)', () => {
  it('two processes at 50/s each: straight to Discord they hit the global limit; through the proxy never', async () => {
    fake = await FakeDiscord.start({ rateLimits: true });
    const guild = fake.addGuild({ name: 'Club' });
    const channel = fake.addChannel(guild.id, { name: 'mafia' });

    fake.resetStats();
    await burst(fake.apiBase, channel.id, 60);
    const direct = fake.stats.rateLimitedGlobal;
    expect(direct, 'the two processes together overrun 50/s without a shared budget').toBeGreaterThan(0);

    fake.resetRateLimits();
    fake.resetStats();
    proxy = await startRestProxy({ upstream: fake.apiBase, port: 0 });
    await burst(proxy.url, channel.id, 60);
    expect(fake.stats.globalCounted).toBe(120);
    // The fake counts the global limit in one-second windows, as the proxy's limiter does: none
    // of the 120 met it. (Its peakGlobalPerSecond is a sliding second, which two fixed windows'
    // worth of requests around their boundary may exceed without any 429: not asserted.)
    expect(fake.stats.rateLimitedGlobal).toBe(0);
  });

  it('an interaction’s answer is not queued behind the counted requests', async () => {
    fake = await FakeDiscord.start({ rateLimits: true });
    const guild = fake.addGuild({ name: 'Club' });
    const channel = fake.addChannel(guild.id, { name: 'mafia' });
    proxy = await startRestProxy({ upstream: fake.apiBase, port: 0 });
    const rest = new REST({ api: proxy.url, globalRequestsPerSecond: 10_000 }).setToken('test-token');
    const order: string[] = [];
    // 150 counted requests: three seconds of the budget, queued in the proxy.
    const counted = Array.from({ length: 150 }, () =>
      rest.get(Routes.channel(channel.id)).then(() => void order.push('counted')),
    );
    // Then an interaction's answer (unknown to the fake: it fails at once, which is an answer too).
    const answer = rest
      .post(Routes.interactionCallback('1', 'token'), { body: { type: 6 }, auth: false })
      .catch(() => undefined)
      .then(() => void order.push('answer'));
    await Promise.all([...counted, answer]);
    expect(order.indexOf('answer')).toBeLessThan(100);
  });

  it('npm run rest-proxy: starts on PROXY_PORT in front of PROXY_UPSTREAM; a bad setting is one clear line', async () => {
    fake = await FakeDiscord.start({ rateLimits: true });
    const tsx = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
    const run = (env: Record<string, string>) =>
      spawn(process.execPath, ['--import', tsx, join(ROOT, 'src/rest-proxy.ts')], {
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
    const bad = run({ PROXY_PORT: 'eighty' });
    let badErr = '';
    bad.stderr!.on('data', (b: Buffer) => (badErr += b.toString()));
    expect(await new Promise((r) => bad.on('exit', r))).toBe(1);
    expect(badErr.trim()).toMatch(/^mafia-bot: PROXY_PORT /);

    const child = run({ PROXY_PORT: '0', PROXY_UPSTREAM: fake.apiBase });
    try {
      const port = await new Promise<number>((resolve, reject) => {
        let err = '';
        child.stderr!.on('data', (b: Buffer) => {
          err += b.toString();
          const m = /REST proxy on 127\.0\.0\.1:(\d+)/.exec(err);
          if (m) resolve(Number(m[1]));
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
      });
      const rest = new REST({ api: `http://127.0.0.1:${port}/api` }).setToken('test-token');
      const info = (await rest.get(Routes.gatewayBot())) as { url: string };
      expect(info.url).toMatch(/^ws/);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
