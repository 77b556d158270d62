// Property test: thousands of random games per rule set (seeded, reproducible), with invariants
// checked after every step. A failure names the rule set, seed and step to replay it.
import { describe, expect, it } from 'vitest';
import { apply, createGame } from '../../src/engine/apply';
import { RULESET_IDS, teamOf } from '../../src/engine/rulesets';
import { prompts } from '../../src/engine/view';
import type { Action, GameState, OptionOverrides, Pace, Refusal, RulesetId } from '../../src/engine/types';
import { pick, randomAction, randomDeal, seededRng, type Rng } from '../../src/sim/random-play';

const GAMES = Number(process.env.PROPERTY_GAMES ?? 2000);
const FROZEN_GAMES = 150; // deep-frozen states: any mutation of a previous state throws

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  }
  return v;
}

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
  'host-best',
  'host-bonus',
  'timeout',
] as const;

/** Any action at all, legal or not, with seats and targets a little outside the table too. */
function garbageAction(rng: Rng, s: GameState): Action {
  const seat = Math.floor(rng() * (s.players.length + 3)) - 1;
  const target = Math.floor(rng() * (s.players.length + 3)) - 1;
  const kind = pick(rng, KINDS);
  const seq = rng() < 0.5 ? s.seq - Math.floor(rng() * 2) : undefined;
  switch (kind) {
    case 'timeout':
      return { kind, seq: s.seq - 1 - Math.floor(rng() * 3) };
    case 'host-skip':
      return { kind, seq: s.seq - 1 };
    case 'host-foul':
      return { kind, target, count: Math.floor(rng() * 4) - 1 };
    case 'host-bonus':
      return { kind, target, points: Math.floor(rng() * 4) };
    case 'host-remove':
    case 'host-kill':
    case 'host-best':
      return { kind, target };
    case 'pass':
    case 'askDon':
    case 'skip':
      return { kind, seat, ...(seq === undefined ? {} : { seq }) };
    case 'voteAll':
      return { kind, seat, choice: rng() < 0.5 };
    case 'guess':
      return {
        kind,
        seat,
        targets: [target, target + 1, rng() < 0.5 ? target : target + 2].slice(0, 2 + Math.floor(rng() * 3)),
      };
    case 'check':
      return { kind, seat, target, ...(rng() < 0.3 ? { note: true } : {}) };
    default:
      return { kind, seat, target, ...(seq === undefined ? {} : { seq }) };
  }
}

function randomOptions(rng: Rng): OptionOverrides {
  const o: OptionOverrides = {};
  if (rng() < 0.3) o.mafiaTalk = 'every-night';
  if (rng() < 0.2) o.commissionerAnswer = 'at-once';
  if (rng() < 0.2) o.shotDeciderWithoutDon = 'highest-seat';
  if (rng() < 0.2) o.freezeRepeatLimit = Math.floor(rng() * 3);
  if (rng() < 0.2) o.healRepeatLimit = Math.floor(rng() * 3);
  if (rng() < 0.2) o.emptyRoundsDraw = 2 + Math.floor(rng() * 3);
  if (rng() < 0.1) o.selfNomination = true;
  if (rng() < 0.1) o.nonVoter = rng() < 0.5 ? 'abstain' : 'last-candidate';
  if (rng() < 0.1) o.tieAgain = rng() < 0.5 ? 'nobody' : 'all-leave-vote';
  if (rng() < 0.1) o.ratingTies = 'share-dense';
  return o;
}

/**
 * A refused action changes nothing (apply.ts: "A refused action changes nothing"): the input state
 * is exactly as it was (its JSON before the call equals its JSON after), and a state handed back
 * with the refusal, if the engine ever does, is the same object or deep-equal to it.
 */
function checkRefusal(where: string, action: Action, s: GameState, before: string, r: Refusal): void {
  if (JSON.stringify(s) !== before)
    throw new Error(`${where}: refused ${JSON.stringify(action)} (${r.code}) changed the input state`);
  const returned = (r as Refusal & { state?: unknown }).state;
  if (returned !== undefined && returned !== s && JSON.stringify(returned) !== before) {
    throw new Error(`${where}: refused ${JSON.stringify(action)} (${r.code}) returned a different state`);
  }
  if (!/^[a-zA-Z]+\/[a-z-]+/.test(r.code))
    throw new Error(`${where}: refusal code ${JSON.stringify(r.code)} is not area/reason`);
}

/** Invariants that hold after every accepted step. */
function checkInvariants(prev: GameState, s: GameState, action: Action, now: number): void {
  const ruleset = s.ruleset;
  // Nobody who left acts (G-5), except his own last words and the post-game vote.
  if ('seat' in action && action.kind !== 'best') {
    const p = prev.players[action.seat - 1]!;
    const lastWords = prev.stage.kind === 'lastWords' && prev.stage.speaker === action.seat;
    if (!p.alive && !lastWords) throw new Error(`seat ${action.seat} acted (${action.kind}) after leaving`);
  }
  // The dead are exactly the players in `out`, each once.
  const outSeats = s.out.map((o) => o.seat);
  if (new Set(outSeats).size !== outSeats.length) throw new Error('a seat left twice');
  for (const p of s.players)
    if (p.alive === outSeats.includes(p.seat)) throw new Error(`seat ${p.seat} alive=${p.alive} vs out`);
  // Team counts match the win rule (E-1, E-2).
  const black = s.players.filter((p) => p.alive && teamOf(p.role) === 'black').length;
  const red = s.players.filter((p) => p.alive && teamOf(p.role) === 'red').length;
  if (s.result === null) {
    if (black === 0) throw new Error('no black left but the game goes on');
    if (ruleset === 'kiev-12' ? red === 0 : black >= red)
      throw new Error(`black ${black} red ${red} but the game goes on`);
  } else if (s.result.reason === 'rules') {
    const w = s.result.winner;
    const ok =
      ruleset === 'kiev-12'
        ? (w === 'draw' && black === 0 && red === 0) ||
          (w === 'red' && black === 0 && red > 0) ||
          (w === 'black' && red === 0 && black > 0)
        : (w === 'red' && black === 0) || (w === 'black' && black > 0 && black >= red);
    if (!ok) throw new Error(`winner ${w} with black ${black} red ${red}`);
  }
  if (s.seq < prev.seq) throw new Error('seq went back');
  if (s.stage.kind !== 'over' && (s.deadline === null || s.deadline < now))
    throw new Error('a running stage has no future deadline');
  if (s.stage.kind === 'over') {
    const pts = s.result?.points;
    if (!pts || pts.length !== s.players.length) throw new Error('over without points');
    if (ruleset === 'kiev-12' && pts.some((p) => p.total > 5 || p.total < 0))
      throw new Error('kiev points outside 0..5');
  }
}

interface Played {
  final: GameState;
  log: { action: Action; now: number }[];
  roles: ReturnType<typeof randomDeal>;
  options: OptionOverrides;
  pace: Pace;
}

function playOne(ruleset: RulesetId, seed: number, freeze: boolean): Played {
  const rng = seededRng(seed);
  const pace: Pace = rng() < 0.3 ? 'async' : 'live';
  const options = rng() < 0.5 ? randomOptions(rng) : {};
  const roles = randomDeal(rng, ruleset);
  let now = 1_700_000_000_000;
  let s = createGame(ruleset, { roles }, options, pace, { now });
  const log: Played['log'] = [];
  if (freeze) deepFreeze(s);
  // JSON of the current state, taken before an action that may be refused (one snapshot per state:
  // a refusal leaves the state as it was, so the snapshot stays good until an action is accepted).
  let snap: string | null = null;
  const snapshot = () => (snap ??= JSON.stringify(s));
  const advance = (next: GameState) => {
    s = freeze ? deepFreeze(next) : next;
    snap = null;
  };
  for (let step = 0; s.stage.kind !== 'over'; step++) {
    if (step > 20_000) throw new Error(`${ruleset} seed ${seed}: the game did not end`);
    const where = `${ruleset} seed ${seed} step ${step}`;
    // Now and then, anything at all: it must be refused cleanly or be legal.
    if (rng() < 0.15) {
      const g = garbageAction(rng, s);
      const before = snapshot();
      let r;
      try {
        r = apply(s, g, { now });
      } catch (e) {
        throw new Error(`${where}: ${JSON.stringify(g)} threw ${(e as Error).stack}`, { cause: e });
      }
      if (!r.ok) {
        // Every refusal, on every step: nothing changed.
        checkRefusal(where, g, s, before, r);
      } else {
        checkInvariants(s, r.state, g, now);
        log.push({ action: g, now });
        advance(r.state);
      }
      continue;
    }
    const a = randomAction(s, rng)!;
    if (a.kind === 'timeout') {
      now = s.deadline ?? now;
      // A timeout a moment early is refused, and changes nothing; at the deadline it is taken.
      const before = snapshot();
      const early = apply(s, a, { now: now - 1 });
      if (early.ok) throw new Error(`${where}: early timeout accepted`);
      checkRefusal(where, a, s, before, early);
    } else {
      now += Math.floor(rng() * 1000);
    }
    let r;
    try {
      r = apply(s, a, { now });
    } catch (e) {
      throw new Error(`${where}: ${JSON.stringify(a)} threw ${(e as Error).stack}`, { cause: e });
    }
    // Every action built from prompts() is legal.
    if (!r.ok)
      throw new Error(
        `${where}: prompted action ${JSON.stringify(a)} refused: ${r.code}; prompts ${JSON.stringify('seat' in a ? prompts(s, a.seat) : [])}`,
      );
    try {
      checkInvariants(s, r.state, a, now);
    } catch (e) {
      throw new Error(`${where}: ${JSON.stringify(a)}: ${(e as Error).message}`, { cause: e });
    }
    log.push({ action: a, now });
    advance(r.state);
  }
  return { final: s, log, roles, options, pace };
}

function replay(ruleset: RulesetId, p: Played): GameState {
  let s = createGame(ruleset, { roles: p.roles }, p.options, p.pace, { now: 1_700_000_000_000 });
  for (const { action, now } of p.log) {
    const r = apply(s, action, { now });
    if (!r.ok) throw new Error(`replay refused ${JSON.stringify(action)}: ${r.code}`);
    s = r.state;
  }
  return s;
}

describe.each(RULESET_IDS)('%s: random games', (ruleset) => {
  it(`${GAMES} seeded random games end, keep the invariants, and replay to the same state`, () => {
    const endings = new Map<string, number>();
    for (let seed = 1; seed <= GAMES; seed++) {
      const played = playOne(ruleset, seed, seed <= FROZEN_GAMES);
      const key = `${played.final.result!.winner}/${played.final.result!.reason}`;
      endings.set(key, (endings.get(key) ?? 0) + 1);
      if (seed % 10 === 0) {
        const again = replay(ruleset, played);
        expect(again, `${ruleset} seed ${seed}: replay differs`).toEqual(played.final);
        // The state is plain JSON: it survives the database round trip unchanged.
        expect(JSON.parse(JSON.stringify(played.final))).toEqual(played.final);
      }
    }
    // Random play reaches every kind of ending.
    expect([...endings.keys()].some((k) => k.startsWith('red/rules'))).toBe(true);
    expect([...endings.keys()].some((k) => k.startsWith('black/rules'))).toBe(true);
  });
});
