// npm run rest-proxy — the bot's one request budget for all its processes (issue 22,
// src/delivery/rest-proxy.ts). Run it once per bot and give every process
// DISCORD_API_BASE=http://<this host>:<PROXY_PORT>/api. PROXY_UPSTREAM is where it forwards to
// (default Discord); PROXY_HOST where it listens (default 127.0.0.1: this machine only).
import { z } from 'zod';
import { loadDotEnv } from './config';
import { startRestProxy } from './delivery/rest-proxy';

loadDotEnv();
const env = z
  .object({
    PROXY_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    PROXY_HOST: z.string().min(1).default('127.0.0.1'),
    PROXY_UPSTREAM: z.string().url().default('https://discord.com/api'),
    PROXY_REQUESTS_PER_SECOND: z.coerce.number().int().min(1).max(10_000).default(50),
  })
  .safeParse(process.env);
if (!env.success) {
  const issue = env.error.issues[0]!;
  process.stderr.write(`mafia-bot: ${String(issue.path[0])} ${issue.message}\n`);
  process.exit(1);
}
const o = env.data;
const proxy = await startRestProxy({
  upstream: o.PROXY_UPSTREAM,
  port: o.PROXY_PORT,
  host: o.PROXY_HOST,
  requestsPerSecond: o.PROXY_REQUESTS_PER_SECOND,
});
process.stderr.write(
  `mafia-bot: REST proxy on ${o.PROXY_HOST}:${proxy.port} → ${o.PROXY_UPSTREAM}, ${o.PROXY_REQUESTS_PER_SECOND} requests per second for all processes\n`,
);
const stop = () => void proxy.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
