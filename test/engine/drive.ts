// A small driver for engine tests: plays a game through apply() step by step, failing loudly on a
// step that is refused when it should be accepted (or the reverse). Not a test file itself.
import { apply, createGame, currentSpeaker } from '../../src/engine/apply';
import { hasBallot } from '../../src/engine/flow';
import { RULESETS } from '../../src/engine/rulesets';
import type {
  Action,
  GameEvent,
  GameState,
  OptionOverrides,
  Pace,
  PointsBreakdown,
  Role,
  RulesetId,
  Seat,
} from '../../src/engine/types';

/** chnu-2016 / classic-10 deal: mafia 3 and 8, Don 6, Sheriff 4. */
export const TEN: Role[] = [
  'civilian',
  'civilian',
  'mafia',
  'sheriff',
  'civilian',
  'don',
  'civilian',
  'mafia',
  'civilian',
  'civilian',
];

export class Driver {
  s: GameState;
  now = 0;
  /** Events of every accepted action, in order. */
  readonly events: GameEvent[] = [];

  constructor(ruleset: RulesetId, roles: readonly Role[], options: OptionOverrides = {}, pace: Pace = 'live') {
    this.s = createGame(ruleset, { roles }, options, pace, { now: 0 });
  }

  /** Applies an action that must be accepted. */
  act(a: Action): this {
    if (a.kind === 'timeout' && this.s.deadline !== null) this.now = Math.max(this.now, this.s.deadline);
    const r = apply(this.s, a, { now: this.now });
    if (!r.ok)
      throw new Error(
        `refused ${r.code}: ${JSON.stringify(a)} at ${this.s.stage.kind} ${this.s.clock.phase} ${this.s.clock.n}`,
      );
    this.s = r.state;
    this.events.push(...r.events);
    return this;
  }

  /** Applies an action that must be refused; returns the code. The state must not change. */
  refused(a: Action): string {
    const before = JSON.stringify(this.s);
    const r = apply(this.s, a, { now: this.now });
    if (r.ok) throw new Error(`accepted but should be refused: ${JSON.stringify(a)}`);
    if (JSON.stringify(this.s) !== before) throw new Error('a refused action changed the state');
    return r.code;
  }

  timeout(): this {
    return this.act({ kind: 'timeout', seq: this.s.seq });
  }

  foul(target: Seat, count = 1): this {
    return this.act({ kind: 'host-foul', target, count });
  }

  speaker(): Seat | null {
    return currentSpeaker(this.s);
  }

  /**
   * Plays the round of speeches to its end: each speaker nominates (if listed) and says "thank you".
   * Returns the seats that spoke, in order.
   */
  speeches(nominations: Record<number, Seat> = {}): Seat[] {
    const spoke: Seat[] = [];
    const day = this.s.clock.n;
    while (this.s.stage.kind === 'turns' && this.s.stage.purpose === 'speech' && this.s.clock.n === day) {
      const seat = this.speaker()!;
      spoke.push(seat);
      const target = nominations[seat];
      if (target !== undefined) this.act({ kind: 'nominate', seat, target });
      this.act({ kind: 'pass', seat });
    }
    return spoke;
  }

  /** Every living player with a ballot votes for `target` (self-votes allowed where the rules allow them). */
  voteFor(target: Seat): this {
    const st = this.s.stage;
    if (st.kind !== 'vote') throw new Error(`not a vote: ${st.kind}`);
    const def = { def: RULESETS[this.s.ruleset] };
    for (const p of this.s.players) {
      const stage = this.s.stage;
      if (stage.kind !== 'vote') break;
      if (!p.alive || stage.ballots[p.seat - 1] !== 0 || !hasBallot(def, this.s, p.seat, stage.candidates)) continue;
      if (p.seat === target && !this.s.options.selfVote) continue;
      this.act({ kind: 'vote', seat: p.seat, target });
    }
    return this;
  }

  /** Ends the post-game stage (S-4) and returns the points. */
  points(): readonly PointsBreakdown[] {
    if (this.s.stage.kind === 'postGame') this.act({ kind: 'host-skip' });
    if (this.s.stage.kind !== 'over' || !this.s.result?.points) throw new Error(`game not over: ${this.s.stage.kind}`);
    return this.s.result.points;
  }

  itemsOf(seat: Seat): Readonly<Record<string, number>> {
    return this.points().find((p) => p.seat === seat)!.items;
  }

  /** Where the game stands: "day 2 turns 5", "night 1 night", ... */
  where(): string {
    const sp = this.speaker();
    return `${this.s.clock.phase} ${this.s.clock.n} ${this.s.stage.kind}${sp === null ? '' : ' ' + sp}`;
  }
}
