// The process's health figures, written as JSON to a file every few seconds when METRICS_FILE is
// set: the event loop's delay histogram (how long a ready callback waited: every synchronous step
// of the bot shows up here), memory and CPU. The load benchmark reads it from outside.
import { writeFileSync, renameSync } from 'node:fs';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';

export interface Metrics {
  at: number;
  uptimeS: number;
  eventLoopDelayMs: { p50: number; p99: number; max: number; samples: number };
  rssMb: number;
  heapUsedMb: number;
  cpuS: { user: number; system: number };
  /** The longest event-loop stalls since `ready()`, longest first (see Stall). */
  stalls: Stall[];
}

/**
 * One stall of the event loop over 50 ms, with what the process did meanwhile: `cpuMs` is the
 * CPU time it used (all threads), `gcMs` the garbage collector's pauses inside it. A stall with
 * little CPU was not the bot's work: the process was off the CPU (another process had it, or a
 * synchronous disk write waited).
 */
export interface Stall {
  at: number;
  ms: number;
  cpuMs: number;
  gcMs: number;
}

const STALL_MS = 50;
const TICK_MS = 20;

/** Watches for stalls: a timer that should fire every 20 ms and notes when it came late. */
function stallWatch(keep = 20): { list(): Stall[]; reset(): Stall[]; stop(): void } {
  let stalls: Stall[] = [];
  // A stall under way when the list was reset (start-up's last step) still belongs to the old one.
  let carry: Stall[] | null = null;
  const gcs: { start: number; end: number }[] = [];
  const obs = new PerformanceObserver((items) => {
    for (const e of items.getEntries()) gcs.push({ start: e.startTime, end: e.startTime + e.duration });
    if (gcs.length > 500) gcs.splice(0, gcs.length - 500);
  });
  obs.observe({ entryTypes: ['gc'] });
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  const timer = setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage();
    const late = now - last - TICK_MS;
    if (late > STALL_MS) {
      let gcMs = 0;
      for (const g of gcs) gcMs += Math.max(0, Math.min(g.end, now) - Math.max(g.start, last));
      const r = (x: number) => Math.round(x * 10) / 10;
      const into = carry ?? stalls;
      into.push({
        at: Date.now(),
        ms: r(late),
        cpuMs: r((cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000),
        gcMs: r(gcMs),
      });
      into.sort((a, b) => b.ms - a.ms);
      if (into.length > keep) into.length = keep;
    }
    carry = null;
    last = now;
    lastCpu = cpu;
  }, TICK_MS);
  timer.unref();
  return {
    list: () => stalls,
    reset: () => {
      carry = stalls;
      stalls = [];
      return carry;
    },
    stop: () => {
      clearInterval(timer);
      obs.disconnect();
    },
  };
}

/**
 * Where this process writes METRICS_FILE. The ShardingManager (`npm run start:shards`) gives every
 * process it spawns the same environment, so there each process writes its own file, named after
 * its shards (`SHARDS`, which the manager sets): `metrics.json` becomes `metrics.shard-1.json`.
 * Otherwise (one process, or processes started by hand with their own settings) the file as given.
 */
export function metricsFileOf(file: string, managerShards: string | undefined): string {
  if (managerShards === undefined) return file;
  let ids: unknown;
  try {
    ids = JSON.parse(managerShards);
  } catch {
    ids = managerShards;
  }
  const tag = `shard-${[ids].flat().map(String).join('-')}`;
  const slash = file.lastIndexOf('/');
  const dot = file.lastIndexOf('.');
  return dot > slash + 1 ? `${file.slice(0, dot)}.${tag}${file.slice(dot)}` : `${file}.${tag}`;
}

/**
 * Starts writing `file`. `eventLoopDelayMs` covers the time since `ready()` was called (the bot
 * serving games), `startupEventLoopDelayMs` the start-up before it (connecting, recovery).
 */
export function startMetrics(
  file: string,
  extra: () => Record<string, unknown> = () => ({}),
  everyMs = 5000,
): { ready(): void; stop(): void } {
  let h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  let startup: Metrics['eventLoopDelayMs'] | null = null;
  let startupStalls: Stall[] = [];
  const watch = stallWatch();
  const ms = (ns: number) => Math.round((ns / 1e6) * 10) / 10;
  const figures = (x: typeof h) => ({
    p50: ms(x.percentile(50)),
    p99: ms(x.percentile(99)),
    max: ms(x.max),
    samples: x.count,
  });
  // A timer's callback: nothing may escape it (issue 20), not even a failing `extra()`.
  const write = () => {
    try {
      writeOnce();
    } catch {
      // a metrics file that cannot be written must not disturb the bot
    }
  };
  const writeOnce = () => {
    const cpu = process.cpuUsage();
    const mem = process.memoryUsage();
    const m: Metrics & Record<string, unknown> = {
      at: Date.now(),
      uptimeS: Math.round(process.uptime()),
      eventLoopDelayMs: figures(h),
      ...(startup ? { startupEventLoopDelayMs: startup, startupStalls } : {}),
      stalls: watch.list(),
      rssMb: Math.round(mem.rss / 1048576),
      heapUsedMb: Math.round(mem.heapUsed / 1048576),
      cpuS: { user: Math.round(cpu.user / 1e4) / 100, system: Math.round(cpu.system / 1e4) / 100 },
      ...extra(),
    };
    writeFileSync(`${file}.tmp`, JSON.stringify(m));
    renameSync(`${file}.tmp`, file);
  };
  const timer = setInterval(write, everyMs);
  timer.unref();
  process.on('SIGUSR2', write);
  return {
    ready() {
      if (startup) return;
      startup = figures(h);
      startupStalls = watch.reset();
      h.disable();
      h = monitorEventLoopDelay({ resolution: 10 });
      h.enable();
      write();
    },
    stop() {
      clearInterval(timer);
      write();
      h.disable();
      watch.stop();
    },
  };
}
