// apply() never throws: every malformed action, whatever its shape, is a refusal with a stable
// code and changes nothing (the engine's edge validates the shape once).
import { describe, expect, it } from 'vitest';
import { apply, createGame } from '../../src/engine/apply';
import { actionShapeProblem } from '../../src/engine/action-shape';
import type { Action, GameState } from '../../src/engine/types';
import { randomAction, randomDeal, seededRng } from '../../src/sim/random-play';
import { RULESET_IDS } from '../../src/engine/rulesets';

const KINDS = [
  'pass',
  'nominate',
  'vote',
  'voteAll',
  'shoot',
  'check',
  'askDon',
  'heal',
  'freeze',
  'kill',
  'skip',
  'take',
  'guess',
  'best',
  'host-foul',
  'host-remove',
  'host-kill',
  'host-skip',
  'host-end',
  'host-best',
  'host-bonus',
  'timeout',
];
const VALUES: unknown[] = [
  undefined,
  null,
  0,
  1,
  3,
  -1,
  1.5,
  NaN,
  Infinity,
  '3',
  '',
  true,
  false,
  [],
  [1, 2],
  [1, 'x'],
  {},
  { seat: 1 },
  'red',
  2 ** 60,
];
const FIELDS = ['seat', 'target', 'targets', 'choice', 'note', 'seq', 'count', 'reason', 'winner', 'points', 'extra'];

/** Random objects that look a little like actions, and values that are nothing like them. */
function garbage(rng: () => number): unknown {
  const r = rng();
  if (r < 0.05) return VALUES[Math.floor(rng() * VALUES.length)];
  const o: Record<string, unknown> = {};
  if (rng() < 0.95)
    o.kind = rng() < 0.9 ? KINDS[Math.floor(rng() * KINDS.length)] : VALUES[Math.floor(rng() * VALUES.length)];
  for (const f of FIELDS) if (rng() < 0.35) o[f] = VALUES[Math.floor(rng() * VALUES.length)];
  return o;
}

describe('the engine edge', () => {
  it('refuses with a code the issue names: a night verb without seat, a check without target', () => {
    const s = createGame('chnu-2016', { roles: randomDeal(seededRng(1), 'chnu-2016') });
    expect(apply(s, { kind: 'shoot', target: 3 } as unknown as Action, { now: 0 })).toEqual({
      ok: false,
      code: 'action/missing-field',
    });
    expect(apply(s, { kind: 'check', seat: 1 } as unknown as Action, { now: 0 })).toEqual({
      ok: false,
      code: 'action/missing-field',
    });
    expect(apply(s, { kind: 'vote', seat: 1, target: '3' } as unknown as Action, { now: 0 })).toEqual({
      ok: false,
      code: 'action/bad-field',
    });
    expect(apply(s, { kind: 'vote', seat: 1, target: 3, hack: 1 } as unknown as Action, { now: 0 })).toEqual({
      ok: false,
      code: 'action/extra-field',
    });
    expect(apply(s, { kind: 'fly', seat: 1 } as unknown as Action, { now: 0 })).toEqual({
      ok: false,
      code: 'action/unknown-kind',
    });
    expect(apply(s, null as unknown as Action, { now: 0 })).toEqual({ ok: false, code: 'action/not-an-object' });
    expect(apply(s, [] as unknown as Action, { now: 0 })).toEqual({ ok: false, code: 'action/not-an-object' });
    expect(apply(s, { kind: 'toString', seat: 1 } as unknown as Action, { now: 0 })).toEqual({
      ok: false,
      code: 'action/unknown-kind',
    });
  });

  it('accepts every shape the engine documents (optional fields may be absent or undefined)', () => {
    expect(actionShapeProblem({ kind: 'check', seat: 1, target: 2, note: true, seq: 4 })).toBeNull();
    expect(actionShapeProblem({ kind: 'check', seat: 1, target: 2, note: undefined })).toBeNull();
    expect(actionShapeProblem({ kind: 'guess', seat: 1, targets: [2, 3] })).toBeNull();
    expect(actionShapeProblem({ kind: 'host-foul', target: 2, count: 2, reason: 'talking' })).toBeNull();
    expect(actionShapeProblem({ kind: 'host-end', winner: 'draw' })).toBeNull();
    expect(actionShapeProblem({ kind: 'host-end', winner: 'blue' })).toBe('action/bad-field');
    expect(actionShapeProblem({ kind: 'timeout' })).toBe('action/missing-field');
  });

  it('never throws and a refusal changes nothing, over thousands of garbage actions in random games', () => {
    const rng = seededRng(77);
    let refused = 0;
    for (let g = 0; g < 120; g++) {
      const ruleset = RULESET_IDS[g % RULESET_IDS.length]!;
      let s: GameState = createGame(ruleset, { roles: randomDeal(rng, ruleset) });
      let now = 0;
      for (let step = 0; step < 400 && s.stage.kind !== 'over'; step++) {
        const before = JSON.stringify(s);
        const junk = garbage(rng);
        const r = apply(s, junk as Action, { now });
        if (!r.ok) {
          refused++;
          expect(r.code).toMatch(/^[a-z-]+\/[a-z-]+/);
          expect(JSON.stringify(s)).toBe(before);
        } else s = r.state;
        // Keep the game moving with a legal action now and then.
        const a = randomAction(s, rng);
        if (!a) break;
        if (a.kind === 'timeout') now = Math.max(now, s.deadline ?? now);
        const next = apply(s, a, { now });
        if (next.ok) s = next.state;
      }
    }
    expect(refused).toBeGreaterThan(5_000);
  });
});
