// What asynchronous play needs to know about a stage (issue 10), pure: who the stage waits for,
// when reminders are due, where a deadline lands with quiet hours.
import { prompts } from '../engine/view';
import type { GameState, Pace, Seat } from '../engine/types';
import { inQuietHours, quietHoursEnd, type QuietHours } from './quiet-hours';

/**
 * The seats that still owe an action in the current stage (P-2): the speaker of a turn, the
 * window's players who have not said they are done, the voters who have not voted, the night's
 * actors who have not acted. Stages that end only on their timer (night 0, kiev-12's discussion,
 * the post-game vote) owe nothing. At night this is secret (N-13): only DMs and the host's own
 * view may use it.
 */
export function owedSeats(s: GameState): Seat[] {
  switch (s.stage.kind) {
    case 'night0':
    case 'discussion':
    case 'postGame':
    case 'over':
      return [];
    default:
      return s.players.filter((p) => prompts(s, p.seat).length > 0).map((p) => p.seat);
  }
}

/** Whether the stage's owed actions are secret (N-13: nothing public may say who acts at night). */
export function owedIsSecret(s: GameState): boolean {
  return s.stage.kind === 'night' || s.stage.kind === 'night0';
}

export type ReminderPolicy = 'auto' | 'off' | 'halfway' | 'hour' | 'both';
export type ReminderKind = 'half' | 'hour';

/**
 * The reminders of a stage that began at `start` and ends at `deadline`: halfway and one hour
 * before the end (`auto`: both in async, none live). A reminder is only worth sending when it
 * comes after the start, at least a minute before the end, and not in quiet hours.
 */
export function reminderTimes(
  start: number,
  deadline: number | null,
  pace: Pace,
  policy: ReminderPolicy,
  quiet: QuietHours | null,
): { kind: ReminderKind; at: number }[] {
  if (deadline === null || policy === 'off' || (policy === 'auto' && pace === 'live')) return [];
  const kinds: ReminderKind[] = policy === 'halfway' ? ['half'] : policy === 'hour' ? ['hour'] : ['half', 'hour'];
  const out: { kind: ReminderKind; at: number }[] = [];
  for (const kind of kinds) {
    const at = kind === 'half' ? start + Math.floor((deadline - start) / 2) : deadline - 3_600_000;
    if (at <= start || at > deadline - 60_000) continue;
    if (quiet && inQuietHours(at, quiet)) continue;
    if (out.some((o) => Math.abs(o.at - at) < 10 * 60_000)) continue; // the two would say the same thing
    out.push({ kind, at });
  }
  return out.sort((a, b) => a.at - b.at);
}

/** Where an async stage's deadline lands: at the end of quiet hours when it would fall inside them. */
export function quietDeadline(deadline: number | null, pace: Pace, quiet: QuietHours | null): number | null {
  if (deadline === null || pace !== 'async' || !quiet) return deadline;
  return quietHoursEnd(deadline, quiet);
}
