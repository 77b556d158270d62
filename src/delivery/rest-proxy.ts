// One request budget for every process of the bot (issue 22). Discord allows 50 requests per
// second per bot, not per process: every process points DISCORD_API_BASE at this proxy, and the
// proxy — `@discordjs/proxy` in front of one `@discordjs/rest` manager — keeps all of them
// together within the budget (and within every route's own limit, which it learns from Discord's
// headers). Interaction answers and follow-ups (`/interactions/…`, `/webhooks/…`), which Discord
// does not count, go through a second manager without the global limit, so a click's answer never
// waits behind the game output of other processes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { proxyRequests } from '@discordjs/proxy';
import { REST } from '@discordjs/rest';
import { exemptFromGlobalLimit } from './wire-gate';

export interface RestProxyOptions {
  /** Where requests go: Discord (`https://discord.com/api`) or, in tests, the fake Discord. */
  upstream?: string;
  port: number;
  host?: string;
  /** The bot's global budget (Discord's is 50 per second). */
  requestsPerSecond?: number;
}

export interface RunningRestProxy {
  /** The base URL to give the bot's processes as DISCORD_API_BASE. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export async function startRestProxy(o: RestProxyOptions): Promise<RunningRestProxy> {
  const api = o.upstream ?? 'https://discord.com/api';
  const counted = proxyRequests(new REST({ api, globalRequestsPerSecond: o.requestsPerSecond ?? 50 }));
  const exempt = proxyRequests(new REST({ api, globalRequestsPerSecond: 10_000 }));
  const server: Server = createServer((req, res) => {
    const handle = exemptFromGlobalLimit(req.url ?? '') ? exempt : counted;
    Promise.resolve(handle(req, res)).catch(() => {
      if (!res.headersSent) res.statusCode = 502;
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${o.host && o.host !== '0.0.0.0' ? o.host : '127.0.0.1'}:${port}/api`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
