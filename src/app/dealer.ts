// The deal of a starting game: seats and roles at random (G-1). The engine takes the deal as data;
// the randomness lives here, outside it, so tests and replays can fix the deal.
import { randomInt } from 'node:crypto';
import { rolePool } from '../engine/rulesets';
import type { Role, RulesetId } from '../engine/types';

/** G-1: a uniformly random permutation with a cryptographically strong RNG. */
export function cryptoShuffle<T>(xs: readonly T[]): T[] {
  const a = xs.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/** Seats and roles for a starting game: random by default (G-1); tests may fix the deal. */
export type Dealer = (members: readonly string[], ruleset: RulesetId) => { seats: string[]; roles: Role[] };

export const randomDealer: Dealer = (members, ruleset) => ({
  seats: cryptoShuffle(members), // G-1: random seats
  roles: cryptoShuffle(rolePool(ruleset)), // G-1: random roles
});
