// The log is the game: replaying it from the deal gives the stored state. A host's undo (G-7) is
// an entry of its own that names the entry it takes back; the state after it is the replay of
// every entry that is still in force (neither an undo nor undone), so the log keeps both the
// action and its undoing and a replay gives the same state. Pure: no I/O, no clock.
import { apply } from './apply';
import type { Action, ActionKind, EngineRefusalCode, GameEvent, GameState, HostActionKind } from './types';

export interface ReplayEntry {
  readonly seq: number;
  readonly action: Action;
  /** The time the engine was given for this entry. */
  readonly at: number;
}

export type ReplayResult = { ok: true; state: GameState } | { ok: false; seq: number; code: EngineRefusalCode };

/**
 * Clock controls (G-7): an undo passes over them (they are corrected by their opposites), and they
 * set the stage's end themselves (the service drops a later end the stage was shown).
 */
const CLOCK_CONTROL: { readonly [K in HostActionKind]: boolean } = {
  'host-foul': false,
  'host-remove': false,
  'host-kill': false,
  'host-skip': false,
  'host-end': false,
  'host-best': false,
  'host-bonus': false,
  'host-pause': true,
  'host-resume': true,
  'host-extend': true,
  'host-revive': false,
  'host-undo': false,
};
export const isClockControl = (kind: ActionKind): boolean =>
  Object.hasOwn(CLOCK_CONTROL, kind) && CLOCK_CONTROL[kind as HostActionKind];

interface Step {
  readonly entry: ReplayEntry;
  readonly before: GameState;
  readonly after: GameState;
  readonly events: readonly GameEvent[];
}

/** Replays entries in force in order; each state's move counter is its entry's sequence number. */
function fold(initial: GameState, entries: readonly ReplayEntry[], steps?: Step[]): ReplayResult {
  let state = initial;
  for (const entry of entries) {
    const r = apply(state, entry.action, { now: entry.at });
    if (!r.ok) return { ok: false, seq: entry.seq, code: r.code };
    const after = r.state.moves === entry.seq ? r.state : { ...r.state, moves: entry.seq };
    steps?.push({ entry, before: state, after, events: r.events });
    state = after;
  }
  return { ok: true, state };
}

/** The entries still in force after every undo of the log. */
function inForce(log: readonly ReplayEntry[]): ReplayEntry[] {
  const undone = new Set<number>();
  for (const e of log) if (e.action.kind === 'host-undo') undone.add(e.action.undone);
  return log.filter((e) => e.action.kind !== 'host-undo' && !undone.has(e.seq));
}

/** The state after a whole log (undo entries included). */
export function replay(initial: GameState, log: readonly ReplayEntry[]): ReplayResult {
  let state = initial;
  let force: ReplayEntry[] = [];
  const undone = new Set<number>();
  for (const e of log) {
    if (e.action.kind !== 'host-undo') {
      const r = apply(state, e.action, { now: e.at });
      if (!r.ok) return { ok: false, seq: e.seq, code: r.code };
      state = r.state.moves === e.seq ? r.state : { ...r.state, moves: e.seq };
      force.push(e);
      continue;
    }
    const target = e.action.undone;
    if (!force.some((f) => f.seq === target) || undone.has(target))
      return { ok: false, seq: e.seq, code: 'undo/unknown-entry' };
    undone.add(target);
    force = force.filter((f) => f.seq !== target);
    const r = fold(initial, force);
    if (!r.ok) return r;
    state = { ...r.state, moves: e.seq };
  }
  return { ok: true, state };
}

export type UndoPlan =
  | { ok: true; undone: ReplayEntry; state: GameState; events: readonly GameEvent[] }
  | { ok: false; code: EngineRefusalCode };

/**
 * G-7: what `undo` would take back now, and the state without it. The last entry in force that is
 * not a clock control is taken back, if its stage is still open and the rules let it be:
 * - a timer's end, or any entry after which the stage or turn changed: the stage is closed;
 * - a foul (F-1: fouls cannot be taken back);
 * - an entry after which someone left the table (it was announced; `revive` is the remedy);
 * - a check whose answer was already given (N-5, N-6, N-11: it cannot be untold).
 * The state is the replay of the log without it: the state before it (but for the move counter,
 * which counts log entries), plus any clock control given after it.
 */
export function planUndo(initial: GameState, log: readonly ReplayEntry[], undoSeq: number): UndoPlan {
  const steps: Step[] = [];
  const force = inForce(log);
  const all = fold(initial, force, steps);
  if (!all.ok) return { ok: false, code: 'undo/log-broken' };
  const current = all.state;
  if (current.stage.kind === 'over') return { ok: false, code: 'game/over' };
  let target: Step | undefined;
  for (let k = steps.length - 1; k >= 0; k--) {
    if (!isClockControl(steps[k]!.entry.action.kind)) {
      target = steps[k];
      break;
    }
  }
  if (!target) return { ok: false, code: 'undo/nothing' };
  const kind = target.entry.action.kind;
  if (kind === 'timeout') return { ok: false, code: 'undo/stage-closed' };
  if (target.before.seq !== current.seq || target.after.seq !== current.seq)
    return { ok: false, code: 'undo/stage-closed' };
  if (kind === 'host-foul') return { ok: false, code: 'undo/foul' };
  if (target.events.some((e) => e.body.type === 'left' || e.body.type === 'game-over'))
    return { ok: false, code: 'undo/left-table' };
  if (target.events.some((e) => e.body.type === 'check-result')) return { ok: false, code: 'undo/answer-given' };
  const rest = fold(
    initial,
    force.filter((e) => e.seq !== target.entry.seq),
  );
  if (!rest.ok) return { ok: false, code: 'undo/log-broken' };
  return { ok: true, undone: target.entry, state: { ...rest.state, moves: undoSeq }, events: target.events };
}
