// The process's health figures, written as JSON to a file every few seconds when METRICS_FILE is
// set: the event loop's delay histogram (how long a ready callback waited: every synchronous step
// of the bot shows up here), memory and CPU. The load benchmark reads it from outside.
import { writeFileSync, renameSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface Metrics {
  at: number;
  uptimeS: number;
  eventLoopDelayMs: { p50: number; p99: number; max: number; samples: number };
  rssMb: number;
  heapUsedMb: number;
  cpuS: { user: number; system: number };
}

/**
 * Starts writing `file`. `eventLoopDelayMs` covers the time since `ready()` was called (the bot
 * serving games), `startupEventLoopDelayMs` the start-up before it (connecting, recovery).
 */
export function startMetrics(file: string, extra: () => Record<string, unknown> = () => ({}), everyMs = 5000): { ready(): void; stop(): void } {
  let h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  let startup: Metrics['eventLoopDelayMs'] | null = null;
  const ms = (ns: number) => Math.round((ns / 1e6) * 10) / 10;
  const figures = (x: typeof h) => ({ p50: ms(x.percentile(50)), p99: ms(x.percentile(99)), max: ms(x.max), samples: x.count });
  const write = () => {
    const cpu = process.cpuUsage();
    const mem = process.memoryUsage();
    const m: Metrics & Record<string, unknown> = {
      at: Date.now(),
      uptimeS: Math.round(process.uptime()),
      eventLoopDelayMs: figures(h),
      ...(startup ? { startupEventLoopDelayMs: startup } : {}),
      rssMb: Math.round(mem.rss / 1048576),
      heapUsedMb: Math.round(mem.heapUsed / 1048576),
      cpuS: { user: Math.round(cpu.user / 1e4) / 100, system: Math.round(cpu.system / 1e4) / 100 },
      ...extra(),
    };
    try {
      writeFileSync(`${file}.tmp`, JSON.stringify(m));
      renameSync(`${file}.tmp`, file);
    } catch {
      // a metrics file that cannot be written must not disturb the bot
    }
  };
  const timer = setInterval(write, everyMs);
  timer.unref();
  process.on('SIGUSR2', write);
  return {
    ready() {
      if (startup) return;
      startup = figures(h);
      h.disable();
      h = monitorEventLoopDelay({ resolution: 10 });
      h.enable();
      write();
    },
    stop() {
      clearInterval(timer);
      write();
      h.disable();
    },
  };
}
