// Issue 10: quiet hours in a server's time zone (daylight saving included), reminder times, who a
// stage waits for, and "Game so far" from the log (pure functions).
import { describe, expect, it } from 'vitest';
import { owedSeats, quietDeadline, reminderTimes } from '../../src/app/async-rules';
import { inQuietHours, localMinutes, quietHoursEnd } from '../../src/app/quiet-hours';
import { serverSettingsSchema } from '../../src/app/settings';
import { apply, createGame } from '../../src/engine/apply';
import { rolePool } from '../../src/engine/rulesets';
import { publicFacts } from '../../src/engine/summary';
import type { Action, GameState } from '../../src/engine/types';

const kyiv = { start: '00:00', end: '08:00', tz: 'Europe/Kyiv' };
const at = (iso: string) => Date.parse(iso);
const H = 3_600_000;

describe('quiet hours (Intl, DST)', () => {
  it('knows local time in the zone', () => {
    expect(localMinutes(at('2026-12-01T22:30:00Z'), 'Europe/Kyiv')).toBe(30); // 00:30 EET
    expect(localMinutes(at('2026-07-01T22:30:00Z'), 'Europe/Kyiv')).toBe(90); // 01:30 EEST
  });

  it('a deadline inside quiet hours moves to their end; one outside stays', () => {
    expect(inQuietHours(at('2026-12-01T23:00:00Z'), kyiv)).toBe(true);
    expect(quietHoursEnd(at('2026-12-01T23:00:00Z'), kyiv)).toBe(at('2026-12-02T06:00:00Z'));
    expect(quietHoursEnd(at('2026-12-01T12:00:00Z'), kyiv)).toBe(at('2026-12-01T12:00:00Z'));
    // The end is exclusive: 08:00 local is no longer quiet.
    expect(inQuietHours(at('2026-12-02T06:00:00Z'), kyiv)).toBe(false);
  });

  it('spring forward (29 March 2026): 08:00 EEST, not the naive 08:00 EET', () => {
    expect(quietHoursEnd(at('2026-03-28T23:30:00Z'), kyiv)).toBe(at('2026-03-29T05:00:00Z'));
  });

  it('fall back (25 October 2026): 08:00 EET after the repeated hour', () => {
    expect(quietHoursEnd(at('2026-10-24T22:00:00Z'), kyiv)).toBe(at('2026-10-25T06:00:00Z'));
  });

  it('quiet hours within one day, and ones that wrap midnight', () => {
    const day = { start: '13:00', end: '15:00', tz: 'UTC' };
    expect(inQuietHours(at('2026-12-01T14:00:00Z'), day)).toBe(true);
    expect(inQuietHours(at('2026-12-01T15:00:00Z'), day)).toBe(false);
    const wrap = { start: '22:00', end: '06:00', tz: 'UTC' };
    expect(quietHoursEnd(at('2026-12-01T23:59:00Z'), wrap)).toBe(at('2026-12-02T06:00:00Z'));
    expect(quietHoursEnd(at('2026-12-02T05:00:00Z'), wrap)).toBe(at('2026-12-02T06:00:00Z'));
  });

  it('only async deadlines move (P-1)', () => {
    const d = at('2026-12-01T23:00:00Z');
    expect(quietDeadline(d, 'live', kyiv)).toBe(d);
    expect(quietDeadline(d, 'async', kyiv)).toBe(at('2026-12-02T06:00:00Z'));
    expect(quietDeadline(d, 'async', null)).toBe(d);
  });

  it('the settings refuse a bad zone or time', () => {
    expect(
      serverSettingsSchema.shape.quietHours.safeParse({ start: '00:00', end: '08:00', tz: 'Mars/Olympus' }).success,
    ).toBe(false);
    expect(serverSettingsSchema.shape.quietHours.safeParse({ start: '24:00', end: '08:00', tz: 'UTC' }).success).toBe(
      false,
    );
    expect(serverSettingsSchema.shape.quietHours.safeParse({ start: '08:00', end: '08:00', tz: 'UTC' }).success).toBe(
      false,
    );
    expect(serverSettingsSchema.shape.quietHours.safeParse(kyiv).success).toBe(true);
  });
});

describe('reminder times', () => {
  const start = at('2026-12-01T10:00:00Z');
  it('async by default: halfway and one hour before; live: none', () => {
    expect(reminderTimes(start, start + 6 * H, 'async', 'auto', null)).toEqual([
      { kind: 'half', at: start + 3 * H },
      { kind: 'hour', at: start + 5 * H },
    ]);
    expect(reminderTimes(start, start + 60_000, 'live', 'auto', null)).toEqual([]);
    expect(reminderTimes(start, start + 6 * H, 'async', 'off', null)).toEqual([]);
    expect(reminderTimes(start, start + 6 * H, 'live', 'hour', null)).toEqual([{ kind: 'hour', at: start + 5 * H }]);
  });
  it('none inside quiet hours; one hour before a one-hour stage is not worth sending', () => {
    // 10:00Z start, 24 h: halfway is 22:00Z = 00:00 Kyiv (quiet), an hour before is 09:00Z (11:00 Kyiv).
    expect(reminderTimes(start, start + 24 * H, 'async', 'auto', kyiv)).toEqual([{ kind: 'hour', at: start + 23 * H }]);
    expect(reminderTimes(start, start + H, 'async', 'auto', null)).toEqual([{ kind: 'half', at: start + H / 2 }]);
  });
});

function drive(
  s: GameState,
  actions: Action[],
  now: number,
): { state: GameState; log: { seq: number; action: Action; at: number }[] } {
  const log: { seq: number; action: Action; at: number }[] = [];
  for (const a of actions) {
    const r = apply(s, a, { now });
    if (!r.ok) throw new Error(`${a.kind}: ${r.code}`);
    s = r.state;
    log.push({ seq: s.moves, action: a, at: now });
  }
  return { state: s, log };
}

describe('who a stage waits for, and the game so far', () => {
  const now = at('2026-12-01T10:00:00Z');
  const roles = rolePool('classic-10');
  const initial = createGame('classic-10', { roles }, {}, 'async', { now });

  it('night 0 waits for nobody; the day window waits for every living player', () => {
    expect(owedSeats(initial)).toEqual([]);
    const { state } = drive(initial, [{ kind: 'timeout', seq: initial.seq }], now + 13 * H);
    expect(state.stage.kind).toBe('window');
    expect(owedSeats(state)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('publicFacts has the day’s nominations and the vote, never a night action', () => {
    const acts: Action[] = [
      { kind: 'timeout', seq: initial.seq },
      { kind: 'nominate', seat: 1, target: 5 },
      { kind: 'nominate', seat: 2, target: 6 },
    ];
    for (let seat = 1; seat <= 10; seat++) acts.push({ kind: 'pass', seat });
    const day = drive(initial, acts, now + 20 * H);
    const s: GameState = day.state;
    expect(s.stage.kind).toBe('vote');
    const votes: Action[] = [];
    for (let seat = 1; seat <= 10; seat++) votes.push({ kind: 'vote', seat, target: seat <= 7 ? 5 : 6, seq: s.seq });
    const after = drive(s, votes, now + 21 * H);
    const log = [...day.log, ...after.log.map((e) => ({ ...e, seq: e.seq }))];
    const facts = publicFacts(initial, log);
    const types = facts.map((f) => f.body.type);
    expect(types).toContain('nominated');
    expect(types).toContain('vote-result');
    expect(facts.filter((f) => f.body.type === 'nominated')).toHaveLength(2);
    expect(facts.every((f) => !['shot-picked', 'check-result', 'accepted'].includes(f.body.type))).toBe(true);
    expect(facts.find((f) => f.body.type === 'vote-result')!.at).toEqual({ phase: 'day', n: 1 });
  });
});
