// Nothing acknowledged is lost: the simulator is killed with SIGKILL at random moments, resumed,
// and at the end every acknowledged action is in the log, every game finished, and replaying every
// log from its deal gives the stored state (db:verify).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client';
import { Store } from '../../src/db/store';
import { seededRng } from '../../src/sim/random-play';
import { ROOT } from '../../testkit/scenario-files';

const KILLS_PER_RULESET = 7; // 21 kills across the suite

interface Ack {
  game: number;
  seq: number;
  kind: string;
}

/** Runs the simulator; kills it with SIGKILL after `killAfter` acknowledgements (if given). */
function runSim(args: string[], killAfter: number | null): Promise<{ acks: Ack[]; killed: boolean; summary: unknown }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/sim.ts'), ...args, '--acks'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acks: Ack[] = [];
    let summary: unknown = null;
    let killed = false;
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('ack ')) {
        if (killed) return; // printed after the kill decision: not counted as seen
        const [, game, seq, kind] = line.split(' ');
        acks.push({ game: Number(game), seq: Number(seq), kind: kind! });
        if (killAfter !== null && acks.length >= killAfter) {
          killed = true;
          child.kill('SIGKILL');
        }
      } else if (line.startsWith('{')) summary = JSON.parse(line);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (!killed && code !== 0) reject(new Error(`sim exited ${code ?? signal}: ${stderr}`));
      else resolve({ acks, killed: killed && signal === 'SIGKILL', summary });
    });
  });
}

describe('crash safety: SIGKILL at random moments, then --resume', () => {
  for (const [i, ruleset] of (['chnu-2016', 'classic-10', 'kiev-12'] as const).entries()) {
    it.concurrent(
      `${ruleset}: ${KILLS_PER_RULESET} kills lose no acknowledged action; every game finishes; db:verify clean`,
      async () => {
        const dir = mkdtempSync(join(tmpdir(), 'mafia-crash-'));
        const db = join(dir, 'crash.sqlite');
        const rng = seededRng(100 + i);
        const acked: Ack[] = [];
        let kills = 0;
        const first = await runSim(
          ['--db', db, '--games', '40', '--ruleset', ruleset, '--seed', String(i + 1)],
          50 + Math.floor(rng() * 400),
        );
        acked.push(...first.acks);
        if (first.killed) kills++;
        for (let round = 0; round < 40; round++) {
          const killAfter = kills < KILLS_PER_RULESET ? 20 + Math.floor(rng() * 600) : null;
          const r = await runSim(['--db', db, '--resume', '--seed', String(round + 7)], killAfter);
          acked.push(...r.acks);
          if (r.killed) kills++;
          else if (killAfter === null || !r.killed) {
            if (kills >= KILLS_PER_RULESET) break;
          }
        }
        expect(kills).toBeGreaterThanOrEqual(KILLS_PER_RULESET);

        const open = openDatabase(db);
        const store = new Store(open.connection);
        // Every acknowledged action is in the log, with the same kind.
        const logs = new Map<number, Map<number, string>>();
        for (const id of await store.allGameIds())
          logs.set(id, new Map((await store.log(id)).map((e) => [e.seq, e.action.kind])));
        for (const a of acked) expect(logs.get(a.game)?.get(a.seq), `game ${a.game} seq ${a.seq}`).toBe(a.kind);
        // Every game finished, with results.
        const games = await store.gamesWithStatus(['lobby', 'running', 'post-game', 'over']);
        expect(games).toHaveLength(40);
        expect(games.every((g) => g.status === 'over')).toBe(true);
        open.close();

        const verify = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/db-verify.ts'), db], {
          cwd: ROOT,
          encoding: 'utf8',
        });
        expect(verify.status, verify.stderr).toBe(0);
        const report = JSON.parse(verify.stdout);
        expect(report.checked).toBe(40);
        expect(report.mismatches).toEqual([]);
      },
      240_000,
    );
  }
});
