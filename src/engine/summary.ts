// "The game so far" (issue 10): every public fact of a game, from its log, in order — each day's
// nominations and votes, each morning's result, who left and how. Pure: the same facts for the
// "Game so far" button and for `/stats game`. Only public events are kept, so nothing a rule set
// hides is in it (N-13, G-6).
import { apply } from './apply';
import type { Clock, EventBody, GameState } from './types';
import type { ReplayEntry } from './replay';

export type PublicFact = { readonly at: Clock; readonly body: EventBody };

const KEPT: ReadonlySet<EventBody['type']> = new Set([
  'morning',
  'left',
  'nominated',
  'vote-result',
  'vote-all-result',
  'no-vote',
  'tie-no-break',
  'foul',
  'speech-lost',
  'best-move',
  'take',
  'revived',
  'game-over',
]);

/** The entries in force after every host undo (G-7). */
function inForce(log: readonly ReplayEntry[]): ReplayEntry[] {
  const undone = new Set<number>();
  for (const e of log) if (e.action.kind === 'host-undo') undone.add(e.action.undone);
  return log.filter((e) => e.action.kind !== 'host-undo' && !undone.has(e.seq));
}

/** The public facts of a game, replaying its log from the deal. A broken log ends the list where it breaks. */
export function publicFacts(initial: GameState, log: readonly ReplayEntry[]): PublicFact[] {
  const out: PublicFact[] = [];
  let s = initial;
  for (const e of inForce(log)) {
    const r = apply(s, e.action, { now: e.at });
    if (!r.ok) break;
    for (const ev of r.events) {
      if (ev.to.kind !== 'public' || !KEPT.has(ev.body.type)) continue;
      // The night's deaths are said by the morning (N-12), not one by one.
      if (ev.body.type === 'left' && ev.body.by === 'night') continue;
      out.push({ at: r.state.clock, body: ev.body });
    }
    s = r.state;
  }
  return out;
}
