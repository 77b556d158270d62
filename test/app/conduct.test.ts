// Conduct's pure rules (issue 24): the thresholds' pause (a sliding window per kind, fouls counted
// one by one, a host's lift forgives what came before), a host's own pause, bans and unbans, and
// who is refused where (a ban everywhere, a pause only from rated games).
import { describe, expect, it } from 'vitest';
import {
  autoPause,
  conductBar,
  currentBans,
  DAY_MS,
  DEFAULT_CONDUCT,
  hostsServer,
  standing,
  type ConductSettings,
} from '../../src/app/conduct';
import { parseSettings } from '../../src/app/settings';
import type { ConductFact, ServerAuditRow } from '../../src/db/conduct-store';
import { cleanReason, conductSettingText } from '../../src/discord/conduct';

const T0 = Date.UTC(2026, 0, 1);
const day = (n: number) => T0 + n * DAY_MS;
const fact = (kind: ConductFact['kind'], at: number, count = 1): ConductFact => ({ kind, gameId: 1, at, count });
const row = (action: ServerAuditRow['action'], at: number, extra: Partial<ServerAuditRow> = {}): ServerAuditRow => ({
  id: at,
  guildId: 'g',
  at,
  actorId: 'host:1',
  action,
  userId: 'u',
  gameId: null,
  until: null,
  reason: null,
  ...extra,
});
const S = (o: Partial<ConductSettings>): ConductSettings => ({ ...DEFAULT_CONDUCT, ...o });

describe('conduct thresholds', () => {
  it('are off by default, and a pause of 0 days pauses nobody', () => {
    const facts = [fact('absence', day(1)), fact('absence', day(2)), fact('removal', day(3))];
    expect(autoPause(facts, DEFAULT_CONDUCT, null)).toBeNull();
    expect(autoPause(facts, S({ absences: 1, pause: 0 }), null)).toBeNull();
  });

  it('count within the window only: the pause starts when the threshold is reached', () => {
    const s = S({ absences: 3, days: 10, pause: 7 });
    // Three absences, but never three within 10 days.
    expect(autoPause([fact('absence', day(0)), fact('absence', day(9)), fact('absence', day(19))], s, null)).toBeNull();
    // The third within 10 days of the first: paused from then for 7 days.
    const p = autoPause([fact('absence', day(0)), fact('absence', day(5)), fact('absence', day(9))], s, null);
    expect(p).toEqual({ until: day(16), kind: 'absence' });
  });

  it('counts fouls one by one (two fouls in one game are two), each kind against its own threshold', () => {
    const s = S({ fouls: 3, removals: 2, days: 30, pause: 5 });
    expect(autoPause([fact('foul', day(1), 2), fact('removal', day(2))], s, null)).toBeNull();
    expect(autoPause([fact('foul', day(1), 2), fact('foul', day(4), 1)], s, null)).toEqual({
      until: day(9),
      kind: 'foul',
    });
  });

  it('a host’s lift forgives what came before it; a later fact counts afresh', () => {
    const s = S({ removals: 1, pause: 7 });
    expect(autoPause([fact('removal', day(1))], s, day(2))).toBeNull();
    expect(standing([row('lift', day(2))], [fact('removal', day(1))], s, day(3)).pause).toBeNull();
    expect(standing([row('lift', day(2))], [fact('removal', day(4))], s, day(5)).pause).toEqual({
      until: day(11),
      by: 'removal',
      reason: null,
    });
  });
});

describe('standing', () => {
  it('a ban holds until an unban; a host’s pause until its end or a lift; the later pause wins', () => {
    const ban = row('ban', day(1), { reason: 'cheating' });
    expect(standing([ban], [], DEFAULT_CONDUCT, day(2)).ban).toEqual({
      at: day(1),
      actorId: 'host:1',
      reason: 'cheating',
    });
    expect(standing([ban, row('unban', day(3))], [], DEFAULT_CONDUCT, day(4)).ban).toBeNull();
    const pause = row('pause', day(1), { until: day(4), reason: 'left a final' });
    expect(standing([pause], [], DEFAULT_CONDUCT, day(3)).pause).toEqual({
      until: day(4),
      by: 'manual',
      reason: 'left a final',
    });
    expect(standing([pause], [], DEFAULT_CONDUCT, day(4)).pause).toBeNull();
    expect(standing([pause, row('lift', day(2))], [], DEFAULT_CONDUCT, day(3)).pause).toBeNull();
    const auto = standing([pause], [fact('removal', day(2))], S({ removals: 1, pause: 7 }), day(3)).pause;
    expect(auto).toEqual({ until: day(9), by: 'removal', reason: null });
  });

  it('a ban bars from every game, a pause only from rated ones', () => {
    const banned = { ban: { at: 0, actorId: 'host:1', reason: null }, pause: null };
    const paused = { ban: null, pause: { until: day(9), by: 'manual' as const, reason: null } };
    expect([conductBar(banned, true), conductBar(banned, false)]).toEqual(['banned', 'banned']);
    expect([conductBar(paused, true), conductBar(paused, false)]).toEqual(['paused', null]);
    expect(conductBar({ ban: null, pause: null }, true)).toBeNull();
  });

  it('the list of bans: the members whose last ban is not undone, in the order they were banned', () => {
    const rows = [
      row('ban', day(1), { userId: 'a' }),
      row('ban', day(2), { userId: 'b', reason: 'r' }),
      row('unban', day(3), { userId: 'a' }),
      row('ban', day(4), { userId: 'c' }),
    ];
    expect(currentBans(rows).map((b) => [b.userId, b.ban.reason])).toEqual([
      ['b', 'r'],
      ['c', null],
    ]);
  });

  it('hosts of the server: Manage Server or the host role', () => {
    expect(hostsServer({ userId: '1', manageGuild: true, roles: [] }, null)).toBe(true);
    expect(hostsServer({ userId: '1', manageGuild: false, roles: ['7'] }, '7')).toBe(true);
    expect(hostsServer({ userId: '1', manageGuild: false, roles: ['7'] }, null)).toBe(false);
  });
});

describe('conduct settings and input', () => {
  it('the thresholds are one setting with defaults; a bad value falls back to them', () => {
    expect(parseSettings({}).conduct).toEqual(DEFAULT_CONDUCT);
    expect(parseSettings({ conduct: { ...DEFAULT_CONDUCT, fouls: 500 } }).conduct).toEqual(DEFAULT_CONDUCT);
    expect(conductSettingText('en', DEFAULT_CONDUCT)).toBe('never');
    expect(conductSettingText('en', S({ absences: 3, fouls: 1, pause: 7, days: 30 }))).toBe(
      'for 7 d after 3 absences or 1 foul within 30 d',
    );
  });

  it('a reason is one line, cut to 200 characters; blank is none', () => {
    expect(cleanReason('  two\n\naccounts ')).toBe('two accounts');
    expect(cleanReason('x'.repeat(500))).toHaveLength(200);
    expect(cleanReason('   ')).toBeNull();
    expect(cleanReason(null)).toBeNull();
  });
});
