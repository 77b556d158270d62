// The operators' HTTP endpoint (HTTP_PORT; off by default): GET /healthz and GET /metrics, on
// node:http. Nothing else is served; nothing here can change the bot.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkHealth, type HealthProbes } from './health';
import type { OpsMetrics } from './metrics';

export interface OpsServer {
  /** The port it listens on (the one the system chose when HTTP_PORT=0). */
  readonly port: number;
  readonly host: string;
  close(): Promise<void>;
}

export interface OpsServerOptions {
  port: number;
  host: string;
  health: HealthProbes;
  metrics: OpsMetrics;
  log?: { error(msg: string, e?: unknown): void };
}

export async function startOpsServer(o: OpsServerOptions): Promise<OpsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('method not allowed\n');
      return;
    }
    if (path === '/healthz') {
      void checkHealth(o.health).then((h) =>
        res
          .writeHead(h.ok ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' })
          .end(`${JSON.stringify(h.body)}\n`),
      );
      return;
    }
    if (path === '/metrics') {
      o.metrics.text().then(
        (text) => res.writeHead(200, { 'content-type': o.metrics.contentType }).end(text),
        (e: unknown) => {
          o.log?.error('ops: /metrics could not be collected', e);
          res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics could not be collected\n');
        },
      );
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: try /healthz or /metrics\n');
  });
  // A scrape that hangs must not keep a shutdown waiting.
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  return {
    port: addr.port,
    host: o.host,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
