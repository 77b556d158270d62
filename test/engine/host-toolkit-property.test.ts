// G-7, property: seeded random games of every rule set with the host's toolkit thrown in at random
// (pause, resume, extend and shorten, revive, undo). After every step the log replays to the same
// state; an accepted undo gives back exactly the state before the entry it took back (when no clock
// control came after it); while paused no timer can fire and no player acts; a refusal changes
// nothing.
import { describe, expect, it } from 'vitest';
import { apply } from '../../src/engine/apply';
import { planUndo, replay, type ReplayEntry } from '../../src/engine/replay';
import { RULESET_IDS } from '../../src/engine/rulesets';
import type { Action, GameState } from '../../src/engine/types';
import { newRandomGame, pick, randomAction, seededRng } from '../../src/sim/random-play';

const GAMES = Number(process.env.HOST_PROPERTY_GAMES ?? 25);
const CLOCK = new Set(['host-pause', 'host-resume', 'host-extend']);

const json = (s: GameState) => JSON.stringify(s);
const noMoves = (s: GameState) => JSON.stringify({ ...s, moves: 0 });

function play(ruleset: (typeof RULESET_IDS)[number], seed: number) {
  const rng = seededRng(seed);
  const pace = rng() < 0.3 ? 'async' : 'live';
  const g = newRandomGame(rng, ruleset, pace, 1_000);
  let s = g.initial;
  let now = 1_000;
  const log: ReplayEntry[] = [];
  const states = new Map<number, GameState>([[0, s]]);
  const counts = { undo: 0, undoExact: 0, pause: 0, revive: 0, refused: 0 };
  for (let step = 0; step < 2_000 && s.stage.kind !== 'over'; step++) {
    now += Math.floor(rng() * 5_000);
    const r = rng();
    let action: Action | null = null;
    if (r < 0.08) {
      const plan = planUndo(g.initial, log, s.moves + 1);
      if (plan.ok) {
        const undone = plan.undone.seq;
        const later = log.filter((e) => e.seq > undone);
        const undoneSet = new Set(
          log.filter((e) => e.action.kind === 'host-undo').map((e) => (e.action as { undone: number }).undone),
        );
        const clockAfter = later.some((e) => CLOCK.has(e.action.kind) && !undoneSet.has(e.seq));
        if (!clockAfter) {
          expect(noMoves(plan.state)).toBe(noMoves(states.get(undone - 1)!));
          counts.undoExact++;
        }
        s = plan.state;
        log.push({ seq: s.moves, action: { kind: 'host-undo', undone }, at: now });
        states.set(s.moves, s);
        counts.undo++;
      } else counts.refused++;
    } else if (s.paused) {
      // Nobody but the host: a player's action and the timer are refused and change nothing.
      const other = randomAction({ ...s, paused: undefined } as GameState, rng);
      if (other && !other.kind.startsWith('host-')) {
        const before = json(s);
        const rr = apply(s, other, { now: now + 10 * 86_400_000 });
        expect(rr.ok ? 'accepted' : rr.code).toBe('game/paused');
        expect(json(s)).toBe(before);
      }
      action =
        rng() < 0.4
          ? { kind: 'host-resume' }
          : rng() < 0.5
            ? { kind: 'host-extend', seconds: pick(rng, [-30, 15, 60]) }
            : { kind: 'host-skip' };
    } else if (r < 0.11) {
      action = { kind: 'host-pause' };
      counts.pause++;
    } else if (r < 0.13) {
      action = { kind: 'host-extend', seconds: pick(rng, [-600, -20, 10, 90]) };
    } else if (r < 0.16) {
      const left = s.out.filter((o) => o.by === 'host' || o.by === 'removed');
      action =
        left.length > 0
          ? { kind: 'host-revive', target: pick(rng, left).seat }
          : {
              kind: 'host-kill',
              target: pick(
                rng,
                s.players.filter((p) => p.alive),
              ).seat,
            };
    } else action = randomAction(s, rng);
    if (action) {
      if (action.kind === 'timeout' && s.deadline !== null) now = Math.max(now, s.deadline);
      const before = json(s);
      const res = apply(s, action, { now });
      if (!res.ok) {
        expect(json(s)).toBe(before);
        counts.refused++;
        continue;
      }
      if (action.kind === 'host-revive') counts.revive++;
      s = res.state;
      if (s.paused) expect(s.deadline).toBeNull();
      log.push({ seq: s.moves, action, at: now });
      states.set(s.moves, s);
    }
    const rep = replay(g.initial, log);
    expect(rep.ok, JSON.stringify(rep)).toBe(true);
    if (rep.ok) expect(json(rep.state)).toBe(json(s));
  }
  return counts;
}

describe('the host toolkit over random games (G-7): replays and undo stay exact', () => {
  for (const ruleset of RULESET_IDS) {
    it(`${ruleset}: ${GAMES} seeded games`, () => {
      const total = { undo: 0, undoExact: 0, pause: 0, revive: 0, refused: 0 };
      for (let k = 0; k < GAMES; k++) {
        const c = play(ruleset, 1_000 + k);
        for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += c[key];
      }
      // The random mix did exercise what it claims to.
      expect(total.undoExact).toBeGreaterThan(GAMES);
      expect(total.pause).toBeGreaterThan(GAMES);
      expect(total.revive).toBeGreaterThan(GAMES / 4);
    });
  }
});
