// `npm run bench:load -- --games N [--restart] [--ruleset r] [--think a-b] [--speech a-b] [--arrival S] [--returning]
//                        [--shards N] [--processes P]`:
// the real bot, started as `npm start` starts it (a child process), against the project's fake
// Discord with Discord's rate limits on, and N concurrent games of simulated players who read what
// the bot shows and click with human think times (--think for clicks, --speech for how long a
// speaker holds the floor: the game's pace, and so how much of Discord's budget N games ask for). One game alone first, then N together, in the same run, so the loaded
// figures can be read against the unloaded ones. Prints JSON.
//
// With --restart the bot is SIGKILLed in the middle of the N-game phase and started again: the
// figure is how long after the new gateway session every game accepted its next action.
//
// With --shards N (issue 22) the bot runs N gateway shards (SHARD_COUNT=N), and the games are
// spread over N servers, one on each shard (game k on shard k mod N). --processes P says how many
// processes hold them: 1 (the default: one process, `npm start`, every shard) or N (`npm run
// start:shards`: discord.js's ShardingManager, one process per shard, each owning its shard's
// servers and pacing its deliverer at its share of the budget; Discord sends every DM click to
// shard 0, whose process relays the clicks of other shards' games through the manager). The
// project has no clusters (several shards in each of several processes), so P is 1 or N. The
// fake Discord's limits are per bot token, as Discord's, so all processes share one budget. The
// JSON then also gives each process's figures (`perProcess`) and the gateway sessions' shards.
// Without these options the bench runs as before: one server, one process, SHARD_COUNT unset.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGame } from '../src/engine/apply';
import type { RulesetId } from '../src/engine/types';
import { openDatabase } from '../src/db/client';
import { Store } from '../src/db/store';
import { t } from '../src/i18n';
import {
  allComponents,
  FakeDiscord,
  type FakeUserInfo,
  type InteractionResult,
  type RateLimitScope,
  type StoredMessage,
} from '../testkit/fake-discord';
import { lowerBound } from './delivery-bench';
import { metricsFileOf, type Stall } from '../src/metrics';
import { deliveryRate } from '../src/discord/bot';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TSX = createRequire(import.meta.url).resolve('tsx');

interface Args {
  games: number;
  restart: boolean;
  ruleset: RulesetId;
  think: [number, number];
  /** How long a speaker holds the floor before he passes (the game's pace); --think when not given. */
  speech: [number, number] | null;
  /** Give up on a phase after this long. */
  maxSeconds: number;
  /** The N lobbies open over this many seconds. */
  arrival: number;
  /**
   * The players have played with the bot before (today): their DM channels are known and their
   * DMs worked within the last hours, as the database has them after an earlier game.
   */
  returning: boolean;
  /** Gateway shards (SHARD_COUNT); 1 = as before (SHARD_COUNT unset, one server). */
  shards: number;
  /** Bot processes holding them: 1 (all shards in one) or `shards` (the ShardingManager, one per shard). */
  processes: number;
}

export function parseArgs(argv: string[]): Args {
  const a: Args = {
    games: 50,
    restart: false,
    ruleset: 'chnu-2016',
    think: [300, 1500],
    speech: null,
    maxSeconds: 900,
    arrival: 5,
    returning: false,
    shards: 1,
    processes: 1,
  };
  let shardsGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = argv[i + 1];
    if (k === '--games' && v && /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 2000) {
      a.games = Number(v);
      i++;
    } else if (k === '--restart') a.restart = true;
    else if (k === '--ruleset' && (v === 'chnu-2016' || v === 'classic-10' || v === 'kiev-12')) {
      a.ruleset = v;
      i++;
    } else if (k === '--think' && v && /^\d+-\d+$/.test(v)) {
      const [lo, hi] = v.split('-').map(Number) as [number, number];
      a.think = [Math.min(lo, hi), Math.max(lo, hi)];
      i++;
    } else if (k === '--speech' && v && /^\d+-\d+$/.test(v)) {
      const [lo, hi] = v.split('-').map(Number) as [number, number];
      a.speech = [Math.min(lo, hi), Math.max(lo, hi)];
      i++;
    } else if (k === '--max-seconds' && v && /^\d+$/.test(v)) {
      a.maxSeconds = Number(v);
      i++;
    } else if (k === '--arrival' && v && /^\d+$/.test(v) && Number(v) <= 3600) {
      a.arrival = Number(v);
      i++;
    } else if (k === '--returning') a.returning = true;
    else if (k === '--shards' && v && /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 16) {
      a.shards = Number(v);
      shardsGiven = true;
      i++;
    } else if (k === '--processes' && v && /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 16) {
      a.processes = Number(v);
      i++;
    } else
      throw new Error(
        `bench:load: unknown or bad argument ${k ?? ''} (use --games N, --restart, --ruleset chnu-2016|classic-10|kiev-12, --think 300-1500, --speech 5000-15000, --max-seconds S, --arrival S, --returning, --shards 1-16, --processes 1-16)`,
      );
  }
  // --processes alone: one shard per process.
  if (!shardsGiven) a.shards = Math.max(a.shards, a.processes);
  if (a.processes > a.shards)
    throw new Error(
      `bench:load: --processes ${a.processes} with --shards ${a.shards}: each process holds at least one shard`,
    );
  if (a.processes !== 1 && a.processes !== a.shards)
    throw new Error(
      `bench:load: --processes ${a.processes} with --shards ${a.shards}: the bot runs its shards in one process or one process per shard (the ShardingManager); use --processes 1 or ${a.shards}`,
    );
  if (a.restart && a.processes > 1)
    throw new Error('bench:load: --restart kills the one bot process; it is not measured with --processes above 1');
  return a;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const STALE = t('en', 'refusal.stage/stale');
const PLAYERS: Record<RulesetId, number> = { 'chnu-2016': 10, 'classic-10': 10, 'kiev-12': 12 };

function pct(xs: number[], p: number): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!);
}

/**
 * The bot as `npm start` runs it, in its own process; or, with `manager`, as `npm run start:shards`
 * runs it: discord.js's ShardingManager, which spawns one such process per shard.
 */
class BotProcess {
  child: ChildProcess | null = null;
  readonly lines: string[] = [];
  constructor(
    private readonly env: Record<string, string>,
    private readonly cwd: string,
    private readonly manager = false,
  ) {}
  start(): void {
    const script = this.manager ? 'src/shard-manager.ts' : 'src/index.ts';
    // BENCH_CPU_PROF=<dir>: every bot process writes a CPU profile there when it stops (the
    // manager's processes too: it gives them its own node options).
    const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
    const child = spawn(process.execPath, [...prof, '--import', TSX, join(ROOT, script)], {
      cwd: this.cwd,
      env: { PATH: process.env.PATH ?? '', ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (b: Buffer) => {
      for (const l of b.toString().split('\n')) if (l.trim()) this.lines.push(l);
      if (this.lines.length > 2000) this.lines.splice(0, 1000);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.child = child;
  }
  /**
   * The bot's processes by shard: this one (holding every shard), or the manager's children, each
   * known by the SHARDS its manager gave it (read from /proc, as test/e2e/shard-processes.test.ts does).
   */
  botPids(): Map<number, number> {
    const pid = this.child?.pid;
    if (!pid) return new Map();
    if (!this.manager) return new Map([[0, pid]]);
    const out = new Map<number, number>();
    for (const d of readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue;
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) continue;
        const shards = readFileSync(`/proc/${d}/environ`, 'utf8')
          .split('\0')
          .find((e) => e.startsWith('SHARDS='));
        if (shards) out.set([JSON.parse(shards.slice(7)) as number | number[]].flat()[0]!, Number(d));
      } catch {
        // gone meanwhile
      }
    }
    return out;
  }
  /** Ask every bot process to write its metrics file now. */
  flushMetrics(): void {
    for (const pid of this.botPids().values()) {
      try {
        process.kill(pid, 'SIGUSR2');
      } catch {
        // gone
      }
    }
  }
  kill(signal: NodeJS.Signals): Promise<void> {
    const c = this.child;
    if (!c || c.exitCode !== null) return Promise.resolve();
    const children = this.manager ? [...this.botPids().values()] : [];
    return new Promise((r) => {
      // The manager hands SIGTERM on to its processes, which drain and exit; then it exits.
      const force = setTimeout(() => c.kill('SIGKILL'), 20_000);
      c.once('exit', () => {
        clearTimeout(force);
        // A shard process its manager left behind (killed before it could stop them).
        for (const pid of children) {
          try {
            if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('src/index.ts')) process.kill(pid, 'SIGKILL');
          } catch {
            // gone: as it should be
          }
        }
        r();
      });
      c.kill(signal);
    });
  }
}

interface PhaseStats {
  ackMs: number[];
  /** When each answered click was made (the same order as ackMs). */
  ackAt: number[];
  /** Whether it was made in the lobby (joins, Start), before the game was dealt. */
  ackInLobby: boolean[];
  /** Whether it was made in a DM (with --processes, those of games off shard 0 are relayed). */
  ackInDm: boolean[];
  nextTurnMs: number[];
  /** The same, for the turns that were not the click's own follow-up (they took the budget). */
  nextTurnPostedMs: number[];
  /** Every measured turn: when its click was made, how long until the next turn was seen. */
  turnLog: { t0: number; ms: number; posted: boolean }[];
  createToDealtMs: number[];
  startToDealtMs: number[];
  stale: number;
  /** When each stale refusal came (to tell those of the restart from the rest). */
  staleAt: number[];
  staleLog: string[];
  otherRefusals: number;
  failedClicks: number;
  clicks: number;
  /** /mafia create made again because the first got no answer in time. */
  createRetries: number;
}

function emptyStats(): PhaseStats {
  return {
    ackMs: [],
    ackAt: [],
    ackInLobby: [],
    ackInDm: [],
    nextTurnMs: [],
    nextTurnPostedMs: [],
    turnLog: [],
    createToDealtMs: [],
    startToDealtMs: [],
    stale: 0,
    staleAt: [],
    staleLog: [],
    otherRefusals: 0,
    failedClicks: 0,
    clicks: 0,
    createRetries: 0,
  };
}

/** Several games' figures as one (each game keeps its own, so a process's can be told apart). */
function mergeStats(list: PhaseStats[]): PhaseStats {
  const m = emptyStats();
  for (const x of list) {
    for (const k of Object.keys(m) as (keyof PhaseStats)[]) {
      const into = m[k];
      if (Array.isArray(into)) (into as unknown[]).push(...(x[k] as unknown[]));
      else (m[k] as number) += x[k] as number;
    }
  }
  m.staleLog = m.staleLog.slice(0, 20);
  return m;
}

/** One game's simulated players: they see what their users see and act on it. */
class GameAgent {
  gameId = 0;
  readonly seatOf = new Map<string, number>();
  readonly dead = new Set<string>();
  /** Clicks on their way, per user. */
  private readonly busy = new Map<string, number>();
  /** Users who clicked at once after the restart (see hurry). */
  private readonly hurried = new Set<string>();
  private readonly done = new Set<string>();
  private scanQueued = false;
  private turnWait: { seq: number; t0: number } | null = null;
  createdAt = 0;
  startedAt = 0;
  /** When a day's turn was first seen (the first night, which has nothing to click, is over). */
  dayAt = 0;
  dealtAt = 0;
  over = false;
  /** After a restart: when this game first accepted an action again. */
  resumedAt = 0;
  restartedAt = 0;
  /** After a restart: when the new gateway session was up. */
  readyAt = 0;
  lastOkAt = 0;
  private bestSeenAt = 0;
  private failures = 0;

  constructor(
    private readonly fake: FakeDiscord,
    readonly channelId: string,
    readonly host: FakeUserInfo,
    readonly users: FakeUserInfo[],
    private readonly args: Args,
    readonly stats: PhaseStats,
  ) {}
  /** The shard of its server, and the index of the bot process that holds it. */
  shard = 0;
  proc = 0;

  /**
   * Between the new gateway session and this game's first accepted action the players click at
   * once, without thinking, and again while a click from before is still failing: the figure is
   * how soon the bot accepts, not how soon a player would try.
   */
  private get hurry(): boolean {
    return this.readyAt > 0 && !this.resumedAt;
  }

  private think(kind: 'click' | 'speech' = 'click'): Promise<void> {
    if (this.hurry) return Promise.resolve();
    const [lo, hi] = kind === 'speech' ? (this.args.speech ?? this.args.think) : this.args.think;
    return sleep(lo + Math.random() * (hi - lo));
  }

  private async call(f: () => Promise<InteractionResult>, inDm = false): Promise<InteractionResult | null> {
    this.stats.clicks++;
    const sentAt = Date.now();
    try {
      const r = await f();
      await r.settled({ timeout: 20_000 }).catch(() => undefined);
      this.stats.ackMs.push(r.respondedInMs);
      this.stats.ackAt.push(sentAt);
      this.stats.ackInLobby.push(!this.dealtAt || sentAt < this.dealtAt);
      this.stats.ackInDm.push(inDm);
      const text = (r.content ?? r.message?.content ?? '').trim();
      const refused =
        r.ephemeral && text.startsWith('⛔')
          ? true
          : r.ephemeral && !text.startsWith('✅') && (r.type === 4 || r.type === 5) && !/Game #/.test(text);
      if (refused || text.includes(STALE)) {
        if (text.includes(STALE)) {
          this.stats.stale++;
          this.stats.staleAt.push(Date.now());
          // Which control, how long after it was clicked the refusal came (to tell a late bot from a late player).
          if (this.stats.staleLog.length < 20)
            this.stats.staleLog.push(`${r.label} (answered in ${r.respondedInMs} ms)`);
        } else this.stats.otherRefusals++;
      } else this.accepted(sentAt);
      return r;
    } catch {
      this.stats.failedClicks++;
      this.failures++;
      return null;
    }
  }

  private accepted(sentAt: number): void {
    const now = Date.now();
    this.lastOkAt = now;
    if (this.readyAt && !this.resumedAt && sentAt >= this.readyAt) this.resumedAt = now;
  }

  async create(): Promise<void> {
    this.createdAt = Date.now();
    // A /mafia create that got no answer in time is made again, as a host would; if the bot did
    // create the lobby (its answer came too late), the host finds it in the channel instead.
    const posted = () => {
      for (const x of this.fake.publicMessages(this.channelId))
        for (const c of allComponents(x)) {
          const id = /^v1:l:(\d+):join$/.exec(c.custom_id ?? '');
          if (id) return Number(id[1]);
        }
      return null;
    };
    let last = 'no answer';
    for (let tries = 0; tries < 5 && !this.gameId; tries++) {
      if (tries > 0) {
        this.stats.createRetries++;
        // Look at the channel a while first (a late lobby is posted there).
        for (let k = 0; k < 10 && !this.gameId; k++) {
          await sleep(500);
          this.gameId = posted() ?? 0;
        }
        if (this.gameId) break;
      }
      const r = await this.call(() =>
        this.fake.slash(this.host.id, this.channelId, 'mafia', {
          sub: 'create',
          options: { ruleset: this.args.ruleset, pace: 'live' },
        }),
      );
      const m = /Game #(\d+)/.exec(r?.content ?? '');
      if (m) this.gameId = Number(m[1]);
      last = r?.content ?? 'no answer';
    }
    if (!this.gameId) throw new Error(`create failed: ${last}`);
    const lobby = () =>
      this.fake
        .publicMessages(this.channelId)
        .find((x) => allComponents(x).some((c) => c.custom_id === `v1:l:${this.gameId}:join`));
    // The players were waiting for the lobby: each joins after his own think time.
    await Promise.all(
      this.users.map(async (u) => {
        await this.think();
        const l = lobby();
        if (l) await this.call(() => this.fake.click(u.id, l, `v1:l:${this.gameId}:join`));
      }),
    );
    // The host starts once the lobby shows Start enabled; a player whose join did not land (no
    // answer in time) sees he is not on the list and joins again.
    // A Start that got no answer, or was refused (a join still on its way), is pressed again.
    for (let tries = 0; tries < 300 && !this.dealtAt; tries++) {
      await this.think();
      const l = lobby();
      const start = l && allComponents(l).find((c) => c.custom_id === `v1:l:${this.gameId}:start` && !c.disabled);
      if (l && start && (!this.startedAt || Date.now() - this.startedAt > 10_000)) {
        this.startedAt ||= Date.now();
        await this.call(() => this.fake.click(this.host.id, l, start.custom_id!));
        continue;
      }
      if (this.startedAt) {
        // Started: the deal is on its way (the role cards tell).
        this.learnCards();
        if (!l || !allComponents(l).some((c) => c.custom_id === `v1:l:${this.gameId}:start`)) break;
        continue;
      }
      if (l && tries % 3 === 2) {
        for (const u of this.users)
          if (!l.content.includes(`<@${u.id}>`) && !(l.embeds[0]?.description ?? '').includes(`<@${u.id}>`))
            await this.call(() => this.fake.click(u.id, l, `v1:l:${this.gameId}:join`));
      }
    }
  }

  /** Something changed where this game's players look: look again soon. */
  poke(m?: StoredMessage, created = false): void {
    if (m && created && this.turnWait && m.channel_id === this.channelId) {
      // The next stage's message: a new message with its deadline or its controls.
      const seq = this.seqOf(m);
      if ((seq !== null && seq > this.turnWait.seq) || (seq === null && /<t:\d+:R>/.test(m.content))) {
        this.stats.nextTurnMs.push(Date.now() - this.turnWait.t0);
        if (!m.interaction_metadata) this.stats.nextTurnPostedMs.push(Date.now() - this.turnWait.t0);
        this.stats.turnLog.push({
          t0: this.turnWait.t0,
          ms: Date.now() - this.turnWait.t0,
          posted: !m.interaction_metadata,
        });
        this.turnWait = null;
      }
    }
    if (this.scanQueued || this.over) return;
    this.scanQueued = true;
    setTimeout(() => {
      this.scanQueued = false;
      this.scan();
    }, 20);
  }

  private seqOf(m: StoredMessage): number | null {
    for (const c of allComponents(m)) {
      const p = c.custom_id?.split(':');
      if (p && p[0] === 'v1' && p[1] === 'a' && p[2] === String(this.gameId)) return Number(p[3]);
    }
    return null;
  }

  learnCards(): void {
    if (this.dealtAt) return;
    let n = 0;
    for (const u of this.users) {
      const card = this.fake
        .dms(u.id)
        .find(
          (m) =>
            / — seat \d+$/.test(m.embeds[0]?.title ?? '') &&
            m.embeds[0]?.footer?.text?.includes(`#${this.gameId}`) !== false,
        );
      const s = / — seat (\d+)$/.exec(card?.embeds[0]?.title ?? '');
      if (s) {
        this.seatOf.set(u.id, Number(s[1]));
        n++;
      }
    }
    if (n === this.users.length) {
      this.dealtAt = Date.now();
      this.stats.createToDealtMs.push(this.dealtAt - this.createdAt);
      if (this.startedAt) this.stats.startToDealtMs.push(this.dealtAt - this.startedAt);
    }
  }

  private latestPublic(): StoredMessage | null {
    const msgs = this.fake.publicMessages(this.channelId);
    for (let i = msgs.length - 1; i >= Math.max(0, msgs.length - 6); i--) {
      if (allComponents(msgs[i]!).some((c) => !c.disabled && c.custom_id?.startsWith(`v1:a:${this.gameId}:`)))
        return msgs[i]!;
    }
    return null;
  }

  private latestDm(userId: string): StoredMessage | null {
    const msgs = this.fake.dms(userId);
    for (let i = msgs.length - 1; i >= Math.max(0, msgs.length - 4); i--) {
      if (allComponents(msgs[i]!).some((c) => !c.disabled && c.custom_id?.startsWith(`v1:a:${this.gameId}:`)))
        return msgs[i]!;
    }
    return null;
  }

  private act(userId: string, key: string, work: () => Promise<void>, kind: 'click' | 'speech' = 'click'): void {
    const hurry = this.hurry && !this.hurried.has(userId);
    if (this.done.has(key) || (this.busy.get(userId) && !hurry)) return;
    if (hurry) this.hurried.add(userId);
    this.busy.set(userId, (this.busy.get(userId) ?? 0) + 1);
    void (async () => {
      await this.think(kind);
      try {
        // A click that got no answer (the bot was down) is tried again, as a player would.
        const failedBefore = this.failures;
        await work();
        if (this.failures === failedBefore) this.done.add(key);
      } finally {
        const left = (this.busy.get(userId) ?? 1) - 1;
        if (left > 0) this.busy.set(userId, left);
        else this.busy.delete(userId);
        this.poke();
      }
    })();
  }

  private scan(): void {
    if (!this.dealtAt) return this.learnCards();
    const pub = this.latestPublic();
    const speaker = pub ? this.speakerOf(pub) : null;
    if (speaker && !this.dayAt) this.dayAt = Date.now();
    for (const u of this.users) {
      const dm = this.latestDm(u.id);
      if (dm) this.actInDm(u.id, dm);
      if (!pub) continue;
      const comps = allComponents(pub).filter((c) => !c.disabled && c.custom_id?.startsWith(`v1:a:${this.gameId}:`));
      const seq = this.seqOf(pub)!;
      const verb = (c: { custom_id?: string }) => c.custom_id!.split(':')[4];
      const votes = comps.filter((c) => verb(c) === 'vote' || verb(c) === 'voteAll');
      const best = comps.find((c) => verb(c) === 'best' && c.options);
      // Everyone who played votes for the best player; the rest only while at the table.
      if (this.dead.has(u.id) && !best) continue;
      if (votes.length > 0) {
        const pick = votes[Math.floor(Math.random() * votes.length)]!;
        this.act(u.id, `${u.id}|${seq}|vote`, async () => {
          const r = await this.call(() => this.fake.click(u.id, this.fake.message(pub.id)!, pick.custom_id!));
          if (/left the table|lost your vote/.test(r?.content ?? '')) this.dead.add(u.id);
        });
        continue;
      }
      if (best) {
        const values = [best.options![Math.floor(Math.random() * best.options!.length)]!.value];
        this.act(
          u.id,
          `${u.id}|${seq}|best`,
          async () =>
            void (await this.call(() => this.fake.select(u.id, this.fake.message(pub.id)!, best.custom_id!, values))),
        );
        continue;
      }
      if (speaker !== u.id) continue;
      const nominate = comps.find((c) => verb(c) === 'nominate' && c.options);
      const menu = comps.find((c) => verb(c) === 'menu');
      const pass = comps.find((c) => verb(c) === 'pass');
      this.act(
        u.id,
        `${u.id}|${seq}|turn`,
        async () => {
          const msg = () => this.fake.message(pub.id)!;
          if (nominate && Math.random() < 0.5) {
            const o = nominate.options!.filter((x) => x.value !== String(this.seatOf.get(u.id)));
            if (o.length)
              await this.call(() =>
                this.fake.select(u.id, msg(), nominate.custom_id!, [o[Math.floor(Math.random() * o.length)]!.value]),
              );
            await this.think();
          }
          if (menu && menu.custom_id!.split(':')[5] !== 'nominate') await this.useMenu(u.id, msg(), menu.custom_id!);
          if (pass) {
            this.turnWait = { seq, t0: Date.now() };
            await this.call(() => this.fake.click(u.id, msg(), pass.custom_id!));
          }
        },
        'speech',
      );
    }
    // The host closes the best-player vote once the players have had their say.
    if (pub && allComponents(pub).some((c) => !c.disabled && c.custom_id?.split(':')[4] === 'best')) {
      this.bestSeenAt ||= Date.now();
      if (Date.now() - this.bestSeenAt > 8000)
        this.act(
          this.host.id,
          `host|${pub.id}`,
          async () =>
            void (await this.call(() =>
              this.fake.slash(this.host.id, this.channelId, 'host', { sub: 'skip', options: {} }),
            )),
        );
    }
    // The host closes a game that waits for him (a best player to name, the points to post).
    if (pub === null) {
      const last = this.fake.publicMessages(this.channelId).at(-1);
      if (last && /\/host skip/.test(last.content)) {
        this.act(
          this.host.id,
          `host|${last.id}`,
          async () =>
            void (await this.call(() =>
              this.fake.slash(this.host.id, this.channelId, 'host', { sub: 'skip', options: {} }),
            )),
        );
      }
    }
  }

  /** The stage's own paragraph names whose turn it is. */
  private speakerOf(m: StoredMessage): string | null {
    const part = m.content.split('\n\n').find((p) => /<t:\d+:R>/.test(p)) ?? '';
    return /<@(\d+)>/.exec(part)?.[1] ?? null;
  }

  private async useMenu(userId: string, message: StoredMessage, customId: string): Promise<void> {
    const r = await this.call(() => this.fake.click(userId, message, customId));
    const menu = r?.message;
    const c = menu ? allComponents(menu).find((x) => x.custom_id && x.options && !x.disabled) : undefined;
    if (!menu || !c) return;
    const n = Math.max(c.min_values ?? 1, Math.min(c.max_values ?? 1, 3));
    const values = [...c.options!]
      .sort(() => Math.random() - 0.5)
      .slice(0, n)
      .map((o) => o.value);
    await this.think();
    await this.call(() => this.fake.select(userId, menu, c.custom_id!, values));
  }

  private actInDm(userId: string, dm: StoredMessage): void {
    const comps = allComponents(dm).filter((c) => !c.disabled && c.custom_id?.startsWith(`v1:a:${this.gameId}:`));
    const seq = this.seqOf(dm)!;
    // Shots agree (the lowest seat offered), so nights kill and games end; checks are random.
    const select = comps.find((c) => c.options && c.options.length > 0 && c.custom_id!.split(':')[4] !== 'checkNote');
    const button = comps.find((c) => !c.options && !['skip'].includes(c.custom_id!.split(':')[4]!));
    this.act(userId, `${userId}|${seq}|${dm.id}|${select?.custom_id ?? button?.custom_id ?? ''}`, async () => {
      const msg = this.fake.message(dm.id)!;
      if (select) {
        const verb = select.custom_id!.split(':')[4];
        const opts = select.options!;
        const n = Math.max(select.min_values ?? 1, Math.min(select.max_values ?? 1, 3));
        const values =
          verb === 'shoot'
            ? [opts[0]!.value]
            : [...opts]
                .sort(() => Math.random() - 0.5)
                .slice(0, n)
                .map((o) => o.value);
        await this.call(() => this.fake.select(userId, msg, select.custom_id!, values), true);
      } else if (button) await this.call(() => this.fake.click(userId, msg, button.custom_id!), true);
    });
  }
}

interface PhaseResult {
  games: number;
  finished: number;
  seconds: number;
  ackMs: {
    p50: number | null;
    p95: number | null;
    p99: number | null;
    lobby: { p50: number | null; p95: number | null; p99: number | null; clicks: number };
    inGames: { p50: number | null; p95: number | null; p99: number | null; clicks: number };
    outsideRestart?: { p50: number | null; p95: number | null; p99: number | null; clicks: number };
  };
  clickToNextTurnVisibleMs: {
    p50: number | null;
    p99: number | null;
    turns: number;
    posted: { p50: number | null; p99: number | null; turns: number };
    outsideRestart?: {
      p50: number | null;
      p99: number | null;
      turns: number;
      posted: { p50: number | null; p99: number | null; turns: number };
    };
  };
  createToDealtMs: { p50: number | null; p95: number | null };
  startToDealtMs: { p50: number | null; p95: number | null };
  clicks: number;
  staleRefusals: number;
  staleRefusalsOutsideRestart?: number;
  staleClicks: string[];
  otherRefusals: number;
  failedClicks: number;
  createRetries: number;
  globalCallsPerGame: number;
  lowerBoundPerGame: number;
  ratio: number;
  globalByRoutePerGame: Record<string, number>;
  rateLimited429: number;
  rateLimitedGlobal: number;
  rateLimitedByRoute: Record<string, number>;
  rateLimitedByScope: Record<RateLimitScope, number>;
  /** The first global 429s: seconds into the phase, and the route. */
  rateLimitedGlobalAt?: { s: number; route: string }[];
  globalCallsPerSecond: number;
  peakGlobalCallsPerSecond: number;
  eventLoopDelayMs: { p50: number; p99: number; max: number } | null;
  stalls: Stall[];
  channelWindowWaits: { posts: number; ms: number };
  startupEventLoopDelayMs: { p50: number; p99: number; max: number } | null;
  beforeRestart?: { eventLoopDelayMs: { p50: number; p99: number; max: number }; stalls: Stall[]; rssMb: number };
  rssMbPerGame: number | null;
  cpuSecondsPerGame: number | null;
  shards?: number;
  processes?: number;
  gatewaySessions?: { shard: [number, number]; connected: boolean; guilds: number }[];
  perProcess?: ProcessFigures[];
  restart?: {
    killedAt: string;
    runningGames: number;
    readyAfterMs: number | null;
    allAcceptedAfterReadyMs: { p50: number | null; max: number | null; games: number };
  };
}

async function phase(n: number, args: Args, restart: boolean): Promise<PhaseResult> {
  const dir = mkdtempSync(join(tmpdir(), 'mafia-load-'));
  const dbPath = join(dir, 'mafia.sqlite');
  const metricsFile = join(dir, 'metrics.json');
  // A click that Discord has not seen answered within its 3 s fails in the player's client ("This interaction
  // failed"); the player then clicks again.
  const fake = await FakeDiscord.start({ interactionTimeout: 4_000, interactionDeadlineMs: 3_000, rateLimits: true });
  // --shards: one server on each shard, the games spread over them (game k on shard k mod N).
  const sharded = args.shards > 1 || args.processes > 1;
  const guilds = sharded
    ? Array.from({ length: args.shards }, (_, k) =>
        fake.addGuild({ name: `Load ${k}`, locale: 'en-US', shard: [k, args.shards] }),
      )
    : [fake.addGuild({ name: 'Load', locale: 'en-US' })];
  const agents: GameAgent[] = [];
  for (let g = 0; g < n; g++) {
    const shard = g % guilds.length;
    const guild = guilds[shard]!;
    const channel = fake.addChannel(guild.id, { name: `mafia-${g + 1}` });
    const host = fake.addUser({ username: `host${g + 1}`, guilds: [guild.id], locale: 'en-US' });
    const users = Array.from({ length: PLAYERS[args.ruleset] }, (_, i) =>
      fake.addUser({ username: `g${g + 1}p${i + 1}`, guilds: [guild.id], locale: 'en-US' }),
    );
    const agent = new GameAgent(fake, channel.id, host, users, args, emptyStats());
    agent.shard = shard;
    // One process per shard under the manager, or one process holding them all.
    agent.proc = args.processes > 1 ? shard : 0;
    agents.push(agent);
  }
  const byChannel = new Map(agents.map((a) => [a.channelId, a]));
  // Each player's DM channel with the bot (the same one the bot opens).
  const dmOwner = new Map<string, GameAgent>();
  for (const a of agents) for (const u of a.users) dmOwner.set(fake.dmChannelId(u.id), a);
  const onMsg = (created: boolean) => (m: StoredMessage) =>
    (byChannel.get(m.channel_id) ?? dmOwner.get(m.channel_id))?.poke(m, created);
  fake.onMessage('create', onMsg(true));
  fake.onMessage('update', onMsg(false));

  if (args.returning) {
    // What an earlier game left in the database: each player's DM channel, and DMs that worked.
    const db = openDatabase(dbPath);
    const put = db.sqlite.prepare(
      'INSERT INTO dm_channels (user_id, channel_id, ok_at, updated_at) VALUES (?, ?, ?, ?)',
    );
    const at = Date.now() - 3_600_000;
    db.sqlite.transaction(() => {
      for (const a of agents) for (const u of a.users) put.run(u.id, fake.dmChannelId(u.id), at, at);
    })();
    db.close();
  }
  const bot = new BotProcess(
    {
      DISCORD_TOKEN: 'test-token',
      DISCORD_API_BASE: fake.apiBase,
      DATABASE_PATH: dbPath,
      METRICS_FILE: metricsFile,
      LOG_LEVEL: 'warn',
      ...(sharded ? { SHARD_COUNT: String(args.shards) } : {}),
    },
    dir,
    args.processes > 1,
  );
  // Each process's metrics file (under the manager each writes its own: src/metrics.ts metricsFileOf).
  const metricsFiles =
    args.processes > 1
      ? Array.from({ length: args.processes }, (_, k) => metricsFileOf(metricsFile, String(k)))
      : [metricsFile];
  const readAll = () => metricsFiles.map(readMetrics);
  bot.start();
  // Every shard's gateway session (the manager starts its processes one after another).
  await waitFor(() => fake.stats.connected >= args.shards, 120_000, 'the bot never connected every shard');
  fake.resetStats();
  const t0 = Date.now();
  // Lobbies open over the first seconds (--arrival), as an evening's games would.
  // (Not awaited: the games already dealt are looked after below while later lobbies fill.)
  void Promise.all(
    agents.map(async (a, k) => {
      await sleep((k * args.arrival * 1000) / Math.max(1, n));
      await a.create().catch((e: unknown) => process.stderr.write(`bench:load: ${(e as Error).message}\n`));
    }),
  );
  const store = () => new Store(openDatabase(dbPath, { readonly: true }).connection);
  const reader = openDatabase(dbPath, { readonly: true });
  const running = () => reader.sqlite.prepare(`SELECT id, status FROM games`).all() as { id: number; status: string }[];
  let restartInfo: PhaseResult['restart'];
  let restartWindow: [number, number] | null = null;
  let metricsBefore: ReturnType<typeof readMetrics> = null;
  let restarted = !restart;
  const deadline = t0 + args.maxSeconds * 1000;
  let lastDebug = 0;
  // The global 429s as they come (from the fake's request log, read every second): when, and which route.
  const global429: { s: number; route: string }[] = [];
  let logSeen = 0;
  const read429s = () => {
    for (const e of fake.log) {
      if (e.at <= logSeen) continue;
      if (e.status === 429 && e.rateLimit === 'global' && global429.length < 50)
        global429.push({ s: Math.round((e.at - t0) / 100) / 10, route: `${e.method} ${e.route}` });
    }
    logSeen = fake.log.at(-1)?.at ?? logSeen;
  };
  while (Date.now() < deadline) {
    const rows = running();
    const status = new Map(rows.map((r) => [r.id, r.status]));
    for (const a of agents)
      if (a.gameId && ['over', 'archived', 'cancelled', 'expired'].includes(status.get(a.gameId) ?? '')) a.over = true;
    if (agents.every((a) => a.over)) break;
    // The kill: once every game is into its first day, where each stage has something to click
    // (or, if a lobby is stuck, four minutes in).
    const inDay = agents.every((a) => a.dayAt && Date.now() - a.dayAt > 10_000);
    if (!restarted && (inDay || Date.now() - t0 > args.arrival * 1000 + 240_000)) {
      restarted = true;
      // The running games (a lobby still filling has no next action to take).
      const live = agents.filter((a) => !a.over && a.dealtAt);
      bot.flushMetrics();
      await sleep(300);
      metricsBefore = readMetrics(metricsFile);
      await bot.kill('SIGKILL');
      const killedAt = Date.now();
      for (const a of live) a.restartedAt = killedAt;
      const sessionsBefore = fake.stats.identifies;
      bot.start();
      await waitFor(() => fake.stats.identifies > sessionsBefore, 120_000, 'the restarted bot never identified');
      const readyAt = Date.now();
      for (const a of live) {
        a.readyAt = readyAt;
        a.poke();
      }
      // Players keep looking (and click again what got no answer) while the games come back.
      await waitFor(
        () => live.every((a) => a.resumedAt || a.over),
        300_000,
        'not every game resumed',
        () => {
          for (const a of live) a.poke();
        },
      ).catch(() => undefined);
      const after = live.filter((a) => a.resumedAt).map((a) => Math.max(0, a.resumedAt - readyAt));
      restartWindow = [killedAt, Math.max(Date.now(), ...live.map((a) => a.resumedAt))];
      restartInfo = {
        killedAt: new Date(killedAt).toISOString(),
        runningGames: live.length,
        readyAfterMs: readyAt - killedAt,
        allAcceptedAfterReadyMs: {
          p50: pct(after, 50),
          max: after.length ? Math.max(...after) : null,
          games: after.length,
        },
      };
    }
    read429s();
    // Nudge every game now and then (a player who missed an event looks again).
    for (const a of agents) a.poke();
    if (process.env.BENCH_DEBUG && n > 1 && Date.now() - lastDebug >= 10_000) {
      lastDebug = Date.now();
      const started = agents.filter((a) => a.startedAt).length;
      const dealt = agents.filter((a) => a.dealtAt).length;
      const levels = Object.entries(combineMetrics(readAll())?.delivery ?? {}).filter(
        ([k]) => k.startsWith('level ') || k.startsWith('post ') || k.startsWith('POST /users'),
      );
      process.stderr.write(
        `t=${Math.round((Date.now() - t0) / 1000)}s calls=${fake.stats.globalCounted} started=${started} dealt=${dealt} over=${agents.filter((a) => a.over).length} ${JSON.stringify(Object.fromEntries(levels))}\n`,
      );
    }
    await sleep(1000);
  }
  read429s();
  const seconds = Math.round((Date.now() - t0) / 1000);
  if (process.env.BENCH_DEBUG) {
    for (const a of agents.filter((x) => !x.over).slice(0, 3)) {
      process.stderr.write(`--- game ${a.gameId} not over; last public messages:\n`);
      for (const m of fake.publicMessages(a.channelId).slice(-3))
        process.stderr.write(
          `  ${m.content.slice(0, 300).replace(/\n/g, ' | ')} ${JSON.stringify(allComponents(m).map((c) => [c.custom_id, c.disabled]))}\n`,
        );
      for (const u of a.users) {
        const d = fake.dms(u.id).at(-1);
        if (d)
          process.stderr.write(
            `  dm ${u.username}: ${d.content.slice(0, 120).replace(/\n/g, ' | ')} ${JSON.stringify(allComponents(d).map((c) => [c.custom_id, c.disabled]))}\n`,
          );
      }
    }
    process.stderr.write(bot.lines.slice(-20).join('\n') + '\n');
  }
  bot.flushMetrics();
  await sleep(500);
  const byProcess = readAll();
  const metrics = combineMetrics(byProcess);
  const http = fake.stats;
  const sessions = fake
    .gatewaySessions()
    .map((x) => ({ shard: x.shard, connected: x.connected, guilds: x.guildIds.length }));
  await bot.kill('SIGTERM');
  const botLines = [...bot.lines];
  const stats = mergeStats(agents.map((a) => a.stats));
  // Calls against the bound, from the games' own logs.
  const s = store();
  let bound = 0;
  let finished = 0;
  const finishedBy = new Map<number, number>();
  for (const a of agents) {
    const game = a.gameId ? await s.getGame(a.gameId) : null;
    if (!game?.deal || !game.startedAt) continue;
    if (a.over) {
      finished++;
      finishedBy.set(a.proc, (finishedBy.get(a.proc) ?? 0) + 1);
    }
    const initial = createGame(game.ruleset as RulesetId, { roles: game.deal }, game.options, game.pace, {
      now: game.startedAt,
    });
    bound += lowerBound(initial, await s.log(a.gameId));
  }
  const perGame: Record<string, number> = {};
  for (const [route, k] of Object.entries(http.byRoute))
    if (!route.includes('/interactions/') && !route.includes('/webhooks/'))
      perGame[route] = Math.round((k / n) * 10) / 10;
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
  return {
    games: n,
    finished,
    seconds,
    ackMs: {
      p50: pct(stats.ackMs, 50),
      p95: pct(stats.ackMs, 95),
      p99: pct(stats.ackMs, 99),
      lobby: (() => {
        const l = stats.ackMs.filter((_, k) => stats.ackInLobby[k]);
        return { p50: pct(l, 50), p95: pct(l, 95), p99: pct(l, 99), clicks: l.length };
      })(),
      // In the games only (not the lobbies' joins and Starts); with --restart, outside the kill (below).
      inGames: (() => {
        const l = stats.ackMs.filter((_, k) => !stats.ackInLobby[k]);
        return { p50: pct(l, 50), p95: pct(l, 95), p99: pct(l, 99), clicks: l.length };
      })(),
      ...(restartWindow
        ? (() => {
            const [from, to] = restartWindow;
            const clear = stats.ackMs.filter((_, k) => stats.ackAt[k]! < from || stats.ackAt[k]! > to);
            const inGame = stats.ackMs.filter(
              (_, k) => !stats.ackInLobby[k] && (stats.ackAt[k]! < from || stats.ackAt[k]! > to),
            );
            return {
              outsideRestart: { p50: pct(clear, 50), p95: pct(clear, 95), p99: pct(clear, 99), clicks: clear.length },
              // In the games only (not the lobbies' joins and Starts), outside the kill.
              inGames: { p50: pct(inGame, 50), p95: pct(inGame, 95), p99: pct(inGame, 99), clicks: inGame.length },
            };
          })()
        : {}),
    },
    clickToNextTurnVisibleMs: {
      p50: pct(stats.nextTurnMs, 50),
      p99: pct(stats.nextTurnMs, 99),
      turns: stats.nextTurnMs.length,
      posted: {
        p50: pct(stats.nextTurnPostedMs, 50),
        p99: pct(stats.nextTurnPostedMs, 99),
        turns: stats.nextTurnPostedMs.length,
      },
      ...(restartWindow
        ? (() => {
            // Turns the kill did not touch: seen before it, or clicked after every game was back.
            const [from, to] = restartWindow;
            const clear = stats.turnLog.filter((x) => x.t0 + x.ms < from || x.t0 > to);
            const posted = clear.filter((x) => x.posted).map((x) => x.ms);
            const all = clear.map((x) => x.ms);
            return {
              outsideRestart: {
                p50: pct(all, 50),
                p99: pct(all, 99),
                turns: all.length,
                posted: { p50: pct(posted, 50), p99: pct(posted, 99), turns: posted.length },
              },
            };
          })()
        : {}),
    },
    createToDealtMs: { p50: pct(stats.createToDealtMs, 50), p95: pct(stats.createToDealtMs, 95) },
    startToDealtMs: { p50: pct(stats.startToDealtMs, 50), p95: pct(stats.startToDealtMs, 95) },
    clicks: stats.clicks,
    staleRefusals: stats.stale,
    staleClicks: stats.staleLog,
    ...(restartWindow
      ? {
          staleRefusalsOutsideRestart: stats.staleAt.filter((x) => x < restartWindow![0] || x > restartWindow![1])
            .length,
        }
      : {}),
    otherRefusals: stats.otherRefusals,
    failedClicks: stats.failedClicks,
    createRetries: stats.createRetries,
    globalCallsPerGame: Math.round((http.globalCounted / n) * 10) / 10,
    lowerBoundPerGame: Math.round((bound / n) * 10) / 10,
    ratio: bound ? Math.round((http.globalCounted / bound) * 100) / 100 : 0,
    globalByRoutePerGame: perGame,
    rateLimited429: http.rateLimited429,
    rateLimitedGlobal: http.rateLimitedGlobal,
    rateLimitedByRoute: http.rateLimitedByRoute,
    // Every 429 by the scope it was sent with (the fake's limiter has no shared buckets).
    rateLimitedByScope: http.rateLimitedByScope,
    ...(global429.length ? { rateLimitedGlobalAt: global429.slice(0, 20) } : {}),
    globalCallsPerSecond: Math.round((http.globalCounted / Math.max(1, seconds)) * 10) / 10,
    // The most counted requests the fake saw in any one second (sliding): Discord allows 50.
    peakGlobalCallsPerSecond: http.peakGlobalPerSecond,
    eventLoopDelayMs: metrics ? metrics.eventLoopDelayMs : null,
    stalls: metrics?.stalls?.slice(0, 5) ?? [],
    // How often a post waited for its channel's 5-per-5 s window (the deliverer's own count).
    channelWindowWaits: {
      posts: metrics?.delivery?.['waits for a channel window'] ?? 0,
      ms: metrics?.delivery?.['ms waited for channel windows'] ?? 0,
    },
    startupEventLoopDelayMs: metrics?.startupEventLoopDelayMs ?? null,
    ...(metricsBefore
      ? {
          beforeRestart: {
            eventLoopDelayMs: metricsBefore.eventLoopDelayMs,
            stalls: metricsBefore.stalls?.slice(0, 5) ?? [],
            rssMb: metricsBefore.rssMb,
          },
        }
      : {}),
    rssMbPerGame: metrics ? Math.round((Math.max(metrics.rssMb, metricsBefore?.rssMb ?? 0) / n) * 10) / 10 : null,
    cpuSecondsPerGame: metrics
      ? Math.round(
          ((metrics.cpuS.user +
            metrics.cpuS.system +
            (metricsBefore ? metricsBefore.cpuS.user + metricsBefore.cpuS.system : 0)) /
            n) *
            100,
        ) / 100
      : null,
    ...(restartInfo ? { restart: restartInfo } : {}),
    ...(sharded
      ? {
          shards: args.shards,
          processes: args.processes,
          gatewaySessions: sessions,
          perProcess: byProcess.map((m, k) =>
            processFigures(
              k,
              args,
              agents.filter((a) => a.proc === k),
              finishedBy.get(k) ?? 0,
              m,
              seconds,
            ),
          ),
        }
      : {}),
    ...(finished < n
      ? {
          notFinished: agents
            .filter((a) => !a.over)
            .map((a) => ({ game: a.gameId, dealt: a.dealtAt > 0, startPressed: a.startedAt > 0 }))
            .slice(0, 10),
          botLog: botLines.filter((l) => /warn|error/i.test(l)).slice(-20),
        }
      : {}),
  };
}

/** One bot process's share of the N-game phase (with --shards). */
interface ProcessFigures {
  process: number;
  shards: number[];
  games: number;
  finished: number;
  ackMs: { p50: number | null; p95: number | null; p99: number | null; clicks: number };
  ackInLobbiesMs: { p50: number | null; p99: number | null; clicks: number };
  ackInGamesMs: { p50: number | null; p99: number | null; clicks: number };
  /** Clicks in DMs: with --processes, those of games off shard 0 went through shard 0's process and the manager. */
  ackInDmsMs: { p50: number | null; p99: number | null; clicks: number };
  clickToNextTurnVisibleMs: { p50: number | null; p99: number | null; turns: number };
  /** What its deliverer allows itself (src/discord/bot.ts deliveryRate: its share of the shards). */
  delivererBudgetPerSecond: number;
  /** The calls its deliverer made against the budget, per second of the phase. */
  delivererCallsPerSecond: number | null;
  channelWindowWaits: number | null;
  eventLoopDelayMs: { p50: number; p99: number; max: number } | null;
  stalls: Stall[];
  rssMb: number | null;
  cpuSeconds: number | null;
}

function processFigures(
  k: number,
  args: Args,
  agents: GameAgent[],
  finished: number,
  m: BotMetrics | null,
  seconds: number,
): ProcessFigures {
  const st = mergeStats(agents.map((a) => a.stats));
  const shards = args.processes > 1 ? [k] : Array.from({ length: args.shards }, (_, i) => i);
  const dm = st.ackMs.filter((_, i) => st.ackInDm[i]);
  const lobby = st.ackMs.filter((_, i) => st.ackInLobby[i]);
  const games = st.ackMs.filter((_, i) => !st.ackInLobby[i]);
  const paced = m?.delivery
    ? Object.entries(m.delivery)
        .filter(([key]) => key.startsWith('level '))
        .reduce((sum, [, v]) => sum + v, 0)
    : null;
  return {
    process: k,
    shards,
    games: agents.length,
    finished,
    ackMs: { p50: pct(st.ackMs, 50), p95: pct(st.ackMs, 95), p99: pct(st.ackMs, 99), clicks: st.ackMs.length },
    ackInLobbiesMs: { p50: pct(lobby, 50), p99: pct(lobby, 99), clicks: lobby.length },
    ackInGamesMs: { p50: pct(games, 50), p99: pct(games, 99), clicks: games.length },
    ackInDmsMs: { p50: pct(dm, 50), p99: pct(dm, 99), clicks: dm.length },
    clickToNextTurnVisibleMs: {
      p50: pct(st.nextTurnMs, 50),
      p99: pct(st.nextTurnMs, 99),
      turns: st.nextTurnMs.length,
    },
    delivererBudgetPerSecond: deliveryRate(50, { auto: false, ids: shards, count: args.shards }),
    delivererCallsPerSecond: paced === null ? null : Math.round((paced / Math.max(1, seconds)) * 10) / 10,
    channelWindowWaits: m ? (m.delivery?.['waits for a channel window'] ?? 0) : null,
    eventLoopDelayMs: m ? m.eventLoopDelayMs : null,
    stalls: m?.stalls?.slice(0, 3) ?? [],
    rssMb: m?.rssMb ?? null,
    cpuSeconds: m ? Math.round((m.cpuS.user + m.cpuS.system) * 10) / 10 : null,
  };
}

type BotMetrics = NonNullable<ReturnType<typeof readMetrics>>;

/**
 * The processes' metrics as one: the worst event loop of them, their stalls, their RSS, CPU and
 * deliverer counts together. One process: its own.
 */
function combineMetrics(list: (BotMetrics | null)[]): BotMetrics | null {
  const ms = list.filter((m): m is BotMetrics => m !== null);
  if (ms.length <= 1) return ms[0] ?? null;
  const worst = (f: (m: BotMetrics) => { p50: number; p99: number; max: number } | undefined) => {
    const xs = ms.map(f).filter((x) => x !== undefined);
    return xs.length
      ? {
          p50: Math.max(...xs.map((x) => x.p50)),
          p99: Math.max(...xs.map((x) => x.p99)),
          max: Math.max(...xs.map((x) => x.max)),
        }
      : undefined;
  };
  const delivery: Record<string, number> = {};
  for (const m of ms) for (const [k, v] of Object.entries(m.delivery ?? {})) delivery[k] = (delivery[k] ?? 0) + v;
  const startup = worst((m) => m.startupEventLoopDelayMs);
  return {
    eventLoopDelayMs: worst((m) => m.eventLoopDelayMs)!,
    stalls: ms.flatMap((m) => m.stalls ?? []).sort((a, b) => b.ms - a.ms),
    delivery,
    ...(startup ? { startupEventLoopDelayMs: startup } : {}),
    rssMb: ms.reduce((x, m) => x + m.rssMb, 0),
    cpuS: {
      user: ms.reduce((x, m) => x + m.cpuS.user, 0),
      system: ms.reduce((x, m) => x + m.cpuS.system, 0),
    },
  };
}

function readMetrics(file: string): {
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  stalls?: Stall[];
  delivery?: Record<string, number>;
  startupEventLoopDelayMs?: { p50: number; p99: number; max: number };
  rssMb: number;
  cpuS: { user: number; system: number };
} | null {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as never;
  } catch {
    return null;
  }
}

async function waitFor(cond: () => boolean, ms: number, what: string, everySecond?: () => void): Promise<void> {
  const end = Date.now() + ms;
  let tick = Date.now();
  while (!cond()) {
    if (Date.now() > end) throw new Error(`bench:load: ${what} within ${ms} ms`);
    await sleep(100);
    if (everySecond && Date.now() - tick >= 1000) {
      tick = Date.now();
      everySecond();
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(2);
  }
  const one = await phase(1, args, false);
  const many = args.games > 1 || args.restart ? await phase(args.games, args, args.restart) : null;
  console.log(
    JSON.stringify(
      {
        node: process.version,
        ruleset: args.ruleset,
        thinkMs: args.think,
        speechMs: args.speech ?? args.think,
        arrivalSeconds: args.arrival,
        returningPlayers: args.returning,
        ...(args.shards > 1 || args.processes > 1 ? { shards: args.shards, processes: args.processes } : {}),
        oneGame: one,
        ...(many ? { loaded: many } : {}),
      },
      null,
      2,
    ),
  );
  process.exit(0);
}
