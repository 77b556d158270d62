// Fair hosting (issue 20): what a host who plays may do (G-7 limited by E-4, F-4, S-4, N-13), who
// counts as playing, and who may annul a finished game and how long after it ended.
import { describe, expect, it } from 'vitest';
import {
  ANNUL_WINDOW,
  asVolunteerRefusal,
  mayAnnul,
  NO_SEATING,
  PLAYING_HOST,
  playedIn,
  playingHostMay,
  playingHostMayCall,
  playingHostMaySeat,
  SEAT_REFUSAL,
  seatBar,
  type HostDeed,
  type Member,
} from '../../src/app/hosts';
import { HOST_SUBCOMMANDS } from '../../src/discord/commands/host-subcommands';
import type { StageKind } from '../../src/engine/types';
import { en } from '../../src/i18n/en';
import { ru } from '../../src/i18n/ru';
import { uk } from '../../src/i18n/uk';

const running = (stage: StageKind) => ({ status: 'running', stage });
const code = (deed: HostDeed, game: { status: string; stage: StageKind | null }) => {
  const v = playingHostMay(deed, game);
  return v.ok ? 'ok' : v.code;
};

const TALK: StageKind[] = ['lastWords', 'turns', 'window', 'discussion', 'shootout'];
const NIGHTS: StageKind[] = ['night0', 'night'];
const VOTES: StageKind[] = ['vote', 'voteAll', 'postGame'];
const ALL: StageKind[] = [...TALK, ...NIGHTS, ...VOTES];

describe('what a host who plays may do (G-7 with E-4, F-4, S-4, N-13)', () => {
  it('every /host subcommand has its line in the table', () => {
    expect(Object.keys(PLAYING_HOST).sort()).toEqual([...HOST_SUBCOMMANDS].sort());
  });

  it('E-4, F-4: he may not end the game with a result, in any stage', () => {
    for (const s of [...TALK, ...VOTES]) expect(code('end', running(s))).toBe('host/playing-host-result');
    for (const s of NIGHTS) expect(code('end', running(s))).toBe('host/playing-host-result');
  });

  it('N-13: he may not skip, shorten or lengthen a night, nor take back anything done in it', () => {
    for (const s of NIGHTS) {
      expect(code('skip', running(s))).toBe('host/playing-host-night');
      expect(code('extend', running(s))).toBe('host/playing-host-night');
      expect(code('undo', running(s))).toBe('host/playing-host-night');
    }
  });

  it('N-13: the panel (roles and the night’s actions) is never his', () => {
    for (const s of ALL) expect(code('panel', running(s))).toBe('host/playing-host');
  });

  it('he keeps the day’s clock: skip and extend while players talk; not in a vote or the post-game vote', () => {
    for (const s of TALK) {
      expect(code('skip', running(s))).toBe('ok');
      expect(code('extend', running(s))).toBe('ok');
    }
    for (const s of VOTES) {
      expect(code('skip', running(s))).toBe('host/playing-host-result');
      expect(code('extend', running(s))).toBe('host/playing-host-result');
    }
  });

  it('pause, resume, fouls (F-1), the log and transfer: always', () => {
    for (const deed of ['pause', 'resume', 'foul', 'log', 'transfer'] as const)
      for (const s of ALL) expect(code(deed, running(s))).toBe('ok');
  });

  it('substitutions only through a substitute call: the command is let through, the seat is checked', () => {
    expect(PLAYING_HOST.substitute).toBe('call');
    for (const s of ALL) expect(code('substitute', running(s))).toBe('ok');
    const seating = { watchers: [], calls: [{ seat: 4, volunteers: ['v1', 'v2'] }] };
    expect(playingHostMaySeat(4, 'v2', seating)).toEqual({ ok: true });
    // Not a volunteer (his second account, say), not the seat of the call, no call at all.
    expect(playingHostMaySeat(4, 'alt', seating)).toEqual({ ok: false, code: 'host/playing-host-substitute' });
    expect(playingHostMaySeat(5, 'v1', seating)).toEqual({ ok: false, code: 'host/playing-host-substitute' });
    expect(playingHostMaySeat(4, 'v1', NO_SEATING)).toEqual({ ok: false, code: 'host/playing-host-substitute' });
    // A call only for a seat flagged as absent: else he would push out a player who plays.
    expect(playingHostMayCall(true)).toEqual({ ok: true });
    expect(playingHostMayCall(false)).toEqual({ ok: false, code: 'subcall/playing-host-absent' });
  });

  it('S-4 and overrides: no kill, removal, revive, best player, bonus or undo of a vote', () => {
    for (const deed of ['kill', 'remove', 'revive', 'best', 'bonus', 'undo'] as const)
      for (const s of [...TALK, ...VOTES]) expect(code(deed, running(s))).toBe('host/playing-host-result');
  });

  it('cancel: the lobby yes, a started game no; annul: never', () => {
    expect(code('cancel', { status: 'lobby', stage: null })).toBe('ok');
    for (const s of ALL) expect(code('cancel', running(s))).toBe('host/playing-host-result');
    for (const status of ['over', 'archived'])
      expect(code('annul', { status, stage: 'over' })).toBe('host/playing-host-annul');
  });
});

describe('who plays', () => {
  const seats = [{ userId: 'a' }, { userId: 'b' }];
  const base = { status: 'running', lobbyMembers: [], seats, audit: [] };
  it('a seat’s current holder, one substituted out, a lobby member; not the one who never sat', () => {
    expect(playedIn('a', base)).toBe(true);
    expect(playedIn('h', base)).toBe(false);
    const subbed = {
      ...base,
      audit: [{ action: 'substitute', detail: JSON.stringify({ seat: 1, from: 'h', to: 'a', moves: 3 }) }],
    };
    expect(playedIn('h', subbed)).toBe(true);
    expect(playedIn('x', { ...subbed, audit: [...subbed.audit, { action: 'substitute', detail: '{bad' }] })).toBe(
      false,
    );
    expect(playedIn('h', { ...base, status: 'lobby', lobbyMembers: ['h'] })).toBe(true);
    expect(playedIn('h', { ...base, lobbyMembers: ['h'] })).toBe(false); // a lobby list after the start is history
  });
});

describe('who may take a seat when it changes hands (N-13: one rule for the host, the pick and the volunteer)', () => {
  const seats = [{ userId: 'a' }, { userId: 'b' }];
  const game = {
    hostId: 'host',
    status: 'running',
    lobbyMembers: ['old'],
    seats,
    audit: [] as { action: string; detail: string | null }[],
  };
  const bar = (user: string, g = game, seating = NO_SEATING, by = 'host:referee') => seatBar(user, g, seating, by);

  it('a stranger may; a seat’s holder may not', () => {
    expect(bar('x')).toBeNull();
    expect(bar('a')).toBe('seated');
    // The lobby's list after the start is history: one who joined and was not seated is a stranger.
    expect(bar('old')).toBeNull();
  });

  it('nobody who held a seat in this game and was replaced', () => {
    const audit = [{ action: 'substitute', detail: JSON.stringify({ seat: 1, from: 'gone', to: 'a', moves: 3 }) }];
    expect(bar('gone', { ...game, audit })).toBe('played');
  });

  it('nobody who hosts or hosted it, nor the host who gives the command', () => {
    expect(bar('host')).toBe('host');
    const audit = [{ action: 'transfer', detail: JSON.stringify({ from: 'first', to: 'host' }) }];
    expect(bar('first', { ...game, audit })).toBe('host');
    expect(bar('first')).toBeNull();
    // A member with Manage Server who does not host this game may be seated by another host, not by himself.
    expect(bar('referee', game, NO_SEATING, 'host:other')).toBeNull();
    expect(bar('referee')).toBe('host');
    expect(bar('v', game, NO_SEATING, 'user:v')).toBeNull(); // a volunteer seats himself
  });

  it('nobody who watched it in the spectators’ thread, whether or not it showed the roles', () => {
    expect(bar('fan', game, { watchers: ['fan'], calls: [] })).toBe('watched');
    expect(bar('fan', game, { watchers: ['other'], calls: [] })).toBeNull();
  });

  it('each bar has the host’s refusal and the volunteer’s, and a service refusal is told as the volunteer’s', () => {
    for (const r of Object.values(SEAT_REFUSAL)) expect(asVolunteerRefusal(r.host)).toBe(r.volunteer);
    expect(asVolunteerRefusal('game/not-running')).toBe('game/not-running');
    for (const cat of [en, uk, ru])
      for (const r of Object.values(SEAT_REFUSAL)) {
        expect(cat[`refusal.${r.host}`]).toBeTruthy();
        expect(cat[`refusal.${r.volunteer}`]).not.toMatch(
          /\b[A-Z]-\d+\b|every role shown|відкритими ролями|открытыми ролями/,
        );
      }
  });
});

describe('who may annul a finished game, and until when', () => {
  const H = 3_600_000;
  const ended = 1_000_000_000;
  const game = { hostId: 'host', ended };
  const host: Member = { userId: 'host', manageGuild: false, roles: [] };
  const judge: Member = { userId: 'judge', manageGuild: false, roles: ['judges'] };
  const admin: Member = { userId: 'admin', manageGuild: true, roles: [] };
  const stranger: Member = { userId: 'x', manageGuild: false, roles: [] };
  const at = (m: Member, now: number, played = false) => {
    const v = mayAnnul(m, game, 'judges', played, now);
    return v.ok ? 'ok' : v.code;
  };

  it('the windows are 24 hours for a host and 7 days for Manage Server', () => {
    expect(ANNUL_WINDOW).toEqual({ host: 24 * H, manager: 7 * 24 * H });
  });

  it('the host and the host role within 24 hours; Manage Server within 7 days; nobody after', () => {
    expect(at(host, ended + 24 * H)).toBe('ok');
    expect(at(judge, ended + 24 * H)).toBe('ok');
    expect(at(host, ended + 24 * H + 1)).toBe('annul/too-late-host');
    expect(at(judge, ended + 24 * H + 1)).toBe('annul/too-late-host');
    expect(at(admin, ended + 7 * 24 * H)).toBe('ok');
    expect(at(admin, ended + 7 * 24 * H + 1)).toBe('annul/too-late');
    expect(at(host, ended + 7 * 24 * H + 1)).toBe('annul/too-late');
    expect(at(stranger, ended)).toBe('host/not-host');
  });

  it('nobody who played in it, not even with Manage Server', () => {
    expect(at(host, ended, true)).toBe('host/playing-host-annul');
    expect(at(admin, ended, true)).toBe('host/playing-host-annul');
  });

  it('the refusals name the same windows in every language, and no rule ids', () => {
    for (const [cat, hours, days] of [
      [en, '24 hours', '7 days'],
      [uk, '24 години', '7 днів'],
      [ru, '24 часов', '7 дней'],
    ] as const) {
      expect(cat['refusal.annul/too-late-host']).toContain(hours);
      expect(cat['refusal.annul/too-late-host']).toContain(days);
      expect(cat['refusal.annul/too-late']).toContain(days);
      for (const k of [
        'refusal.host/playing-host',
        'refusal.host/playing-host-night',
        'refusal.host/playing-host-result',
        'refusal.host/playing-host-annul',
        'refusal.host/playing-host-substitute',
        'refusal.subcall/playing-host-absent',
        'refusal.annul/too-late',
        'refusal.annul/too-late-host',
      ] as const)
        expect(cat[k]).not.toMatch(/\b[A-Z]-\d+\b/);
    }
  });
});
