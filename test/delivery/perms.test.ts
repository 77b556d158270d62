// M-1, M-3: the merge of the bot's Send Messages deny into a member's overwrite (src/delivery/perms.ts).
// The bot owns that one bit, only ever denies, diffs its wish against what it holds, and gives back
// exactly what it took.
import { describe, expect, it } from 'vitest';
import type { PermHold } from '../../src/db/outbox-store';
import { applySteps, fold, mergeMember, planPerms, SEND_MESSAGES, type Overwrite } from '../../src/delivery/perms';

const SEND = SEND_MESSAGES;
const VIEW = 1n << 10n;
const ATTACH = 1n << 15n;
const EMBED = 1n << 14n;
const U = '500000000000000001';
const V = '500000000000000002';
const W = '500000000000000003';
const ROLE = '600000000000000001';
const SELF = '700000000000000001';
const CH = '300000000000000001';

const ow = (id: string, allow: bigint, deny: bigint, type: 0 | 1 = 1): Overwrite => ({
  id,
  type,
  allow: allow.toString(),
  deny: deny.toString(),
});
const none = { hadAllow: false, hadDeny: false, existed: false };
const hold = (userId: string, gameId: number, prior: Partial<typeof none> = {}): PermHold => ({
  channelId: CH,
  userId,
  gameId,
  ...none,
  ...prior,
});

/** Applies one member's step to his overwrite, as Discord would. */
function after(current: Overwrite | undefined, write: Overwrite | 'delete' | null): Overwrite | undefined {
  if (write === 'delete') return undefined;
  return write ?? current;
}

describe('M-1, M-3: one member: the bot adds and takes back only its own Send Messages deny', () => {
  it("an overwrite the bot made is deleted when its wish goes away; a moderator's other bits (a View Channel deny, an attach deny, an embed allow) stay, while denied and after", () => {
    const made = mergeMember(U, undefined, 'deny', null);
    expect(made.write).toEqual(ow(U, 0n, SEND));
    expect(made.hold).toEqual(none);
    expect(mergeMember(U, after(undefined, made.write), null, made.hold)).toEqual({
      userId: U,
      write: 'delete',
      hold: null,
    });
    const mod = ow(U, EMBED, VIEW | ATTACH);
    const add = mergeMember(U, mod, 'deny', null);
    expect(add.write).toEqual(ow(U, EMBED, VIEW | ATTACH | SEND));
    expect(add.hold).toEqual({ hadAllow: false, hadDeny: false, existed: true });
    const back = mergeMember(U, after(mod, add.write), null, add.hold);
    expect(back.write).toEqual(mod);
    expect(back.hold).toBeNull();
  });

  it('a Send Messages deny that was there before the bot is left as it is, and never removed', () => {
    const mod = ow(U, 0n, SEND);
    const add = mergeMember(U, mod, 'deny', null);
    expect(add.write).toBeNull(); // nothing to write: the member is denied already
    expect(add.hold).toEqual({ hadAllow: false, hadDeny: true, existed: true });
    const back = mergeMember(U, mod, null, add.hold);
    expect(back).toEqual({ userId: U, write: null, hold: null });
  });

  it("a moderator's Send Messages allow is cleared while the bot denies (else it would beat the deny) and put back after", () => {
    const mod = ow(U, SEND | EMBED, 0n);
    const add = mergeMember(U, mod, 'deny', null);
    expect(add.write).toEqual(ow(U, EMBED, SEND));
    expect(add.hold).toEqual({ hadAllow: true, hadDeny: false, existed: true });
    expect(mergeMember(U, add.write as Overwrite, null, add.hold).write).toEqual(mod);
  });

  it('an overwrite that existed before and is empty again stays (empty), not deleted', () => {
    const empty = ow(U, 0n, 0n);
    const add = mergeMember(U, empty, 'deny', null);
    const back = mergeMember(U, add.write as Overwrite, null, add.hold);
    expect(back.write).toEqual(empty);
  });

  it('with nothing held, a wish of nothing touches nothing (a deny someone set during the game stays)', () => {
    expect(mergeMember(U, ow(U, 0n, SEND), null, null)).toEqual({ userId: U, write: null, hold: null });
    expect(mergeMember(U, undefined, null, null)).toEqual({ userId: U, write: null, hold: null });
  });

  it('the bot never allows: an old slot\'s "allow" is read as nothing', () => {
    const steps = planPerms(1, [ow(U, 0n, SEND)], { [U]: 'allow' }, [], SELF);
    expect(steps).toEqual([]);
    const held = planPerms(1, [ow(U, 0n, SEND)], { [U]: 'allow' }, [hold(U, 1)], SELF);
    expect(held.map((s) => s.write)).toEqual(['delete']);
  });
});

describe('M-1, M-3: the wish is diffed against what the bot holds, not against the overwrite', () => {
  it("held and in place: no call; a deny neither held nor wished: no call either (it is someone else's)", () => {
    expect(planPerms(1, [ow(U, 0n, SEND)], { [U]: 'deny' }, [hold(U, 1)], SELF)).toEqual([]);
    expect(planPerms(1, [ow(U, 0n, SEND | VIEW)], { [U]: null }, [], SELF)).toEqual([]);
  });

  it("held, but the deny was removed by someone since: it is added again, and is the bot's own from then on", () => {
    const steps = planPerms(1, [ow(U, 0n, 0n)], { [U]: 'deny' }, [hold(U, 1, { hadDeny: true, existed: true })], SELF);
    expect(steps).toHaveLength(1);
    expect(steps[0]!.write).toEqual(ow(U, 0n, SEND));
    expect(steps[0]!.hold).toEqual({ hadAllow: false, hadDeny: false, existed: true });
    // fold: a deny gone, an allow set, an overwrite gone since the bot took hold.
    const h = { hadAllow: false, hadDeny: true, existed: true };
    expect(fold(h, ow(U, 0n, SEND))).toEqual(h);
    expect(fold(h, ow(U, SEND, 0n))).toEqual({ hadAllow: true, hadDeny: false, existed: true });
    expect(fold(h, undefined)).toEqual(none);
  });

  it('held, and the whole overwrite deleted by someone since: made again, and deleted again when the wish goes', () => {
    const steps = planPerms(1, [], { [U]: 'deny' }, [hold(U, 1, { hadDeny: true, existed: true })], SELF);
    expect(steps[0]!.write).toEqual(ow(U, 0n, SEND));
    expect(steps[0]!.hold).toEqual(none);
  });

  it('a hold recorded before a write that never happened (a crash): given back without a call', () => {
    // The bot recorded that it would deny a member with a moderator's View Channel deny, then died.
    const mod = ow(U, 0n, VIEW);
    const add = mergeMember(U, mod, 'deny', null);
    const back = planPerms(1, [mod], { [U]: null }, [hold(U, 1, add.hold!)], SELF);
    expect(back).toHaveLength(1);
    expect(back[0]!.write).toBeNull();
    expect(back[0]!.hold).toBeNull(); // the hold is dropped
    // ... for a member a moderator had denied: his deny stays.
    const denied = ow(U, 0n, SEND);
    const held = mergeMember(U, denied, 'deny', null).hold!;
    expect(planPerms(1, [denied], { [U]: null }, [hold(U, 1, held)], SELF).map((s) => s.write)).toEqual([null]);
    // ... and for a member without an overwrite: nothing to delete.
    expect(planPerms(1, [], { [U]: null }, [hold(U, 1)], SELF).map((s) => [s.write, s.hold])).toEqual([[null, null]]);
  });
});

describe("M-1, M-3: a channel's list", () => {
  it("another game's hold is left alone, or taken over (with its prior bits) when this game wishes the deny too", () => {
    const current = [ow(U, 0n, SEND | VIEW), ow(V, 0n, SEND)];
    const holds = [hold(U, 1, { existed: true }), hold(V, 1)];
    // Game 2 wishes nothing for U and V: game 1's denies stay until game 1 gives them back.
    expect(planPerms(2, current, { [U]: null, [V]: null }, holds, SELF)).toEqual([]);
    // Game 2 wishes V's deny: it takes the hold over, keeping what was there before game 1.
    const steps = planPerms(2, current, { [V]: 'deny' }, holds, SELF);
    expect(steps).toEqual([{ userId: V, write: null, hold: none, before: holds[1] }]);
  });

  it("a replaced player (no longer in the wish) gets the bot's deny back", () => {
    const steps = planPerms(1, [ow(U, 0n, SEND), ow(V, 0n, SEND)], { [V]: 'deny' }, [hold(U, 1), hold(V, 1)], SELF);
    expect(steps.map((s) => [s.userId, s.write])).toEqual([[U, 'delete']]);
  });

  it("the whole list: role overwrites, the bot's own and other members' as they are, only the changed members merged", () => {
    const current = [ow(ROLE, 0n, SEND, 0), ow(U, EMBED, VIEW), ow(V, 0n, SEND), ow(W, 0n, SEND), ow(SELF, SEND, 0n)];
    const steps = planPerms(1, current, { [U]: 'deny', [V]: null, [W]: null, [SELF]: 'deny' }, [hold(V, 1)], SELF);
    const next = applySteps(current, steps);
    expect(next).toEqual([ow(ROLE, 0n, SEND, 0), ow(U, EMBED, VIEW | SEND), ow(W, 0n, SEND), ow(SELF, SEND, 0n)]);
  });
});
