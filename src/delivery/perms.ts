// M-1, M-3: how the bot changes who may write in a game channel. It owns one bit of a member's
// overwrite, Send Messages, and only ever takes it away (a deny): it never allows, so a server's
// or a moderator's deny (a mute role, a per-member deny) always wins. It remembers what it found
// before it added its deny (`perm_holds`), diffs its wish against what it holds (not against the
// overwrite as it is now), merges into the member's current overwrite (other bits, other overwrites
// untouched), and when its wish goes away puts back exactly what was there: a deny someone else
// had set stays, an overwrite it made is deleted once nothing else is in it.
//
// Pure: the deliverer reads the channel, calls planPerms, records the holds and writes.
import type { PermHold } from '../db/outbox-store';

export const SEND_MESSAGES = 1n << 11n;

export interface Overwrite {
  id: string;
  /** 0 a role, 1 a member. */
  type: 0 | 1;
  allow: string;
  deny: string;
}

/** What the member's overwrite had before the bot added its deny. */
export type Prior = Pick<PermHold, 'hadAllow' | 'hadDeny' | 'existed'>;

/** The bot's wish for a member: its deny, or nothing. ('allow' is read from older versions' slots as nothing.) */
export type Wish = 'deny' | 'allow' | null;

export interface MemberStep {
  userId: string;
  /** The member's overwrite as it should be written (`delete`: removed); null when Discord has it right. */
  write: Overwrite | 'delete' | null;
  /** What the bot holds afterwards (record it before writing); null: nothing (drop it after writing). */
  hold: Prior | null;
  /** The hold as stored before (null: none). */
  before: PermHold | null;
}

const has = (bits: string | undefined): boolean => ((bits ? BigInt(bits) : 0n) & SEND_MESSAGES) !== 0n;

/**
 * What the bot holds, brought up to date with the overwrite as it is now. While the bot holds its
 * deny, the overwrite has its deny and no Send Messages allow; a difference was made by someone
 * else since (or the bot's own write never happened, and then the prior bits are these anyway):
 * a deny someone removed is no longer a prior deny, an allow someone set is a prior allow, an
 * overwrite someone deleted did not exist before.
 */
export function fold(held: Prior, current: Overwrite | undefined): Prior {
  if (!current) return { hadAllow: false, hadDeny: false, existed: false };
  return {
    hadAllow: held.hadAllow || has(current.allow),
    hadDeny: held.hadDeny && has(current.deny),
    existed: held.existed,
  };
}

/**
 * One member: the bot wants its deny (`deny`) or nothing (null), holds `held` (null: nothing), and
 * the member's overwrite is `current` now. Only the Send Messages bits change; a deny that was
 * there before the bot is never removed; an overwrite the bot made is deleted when it is empty.
 */
export function mergeMember(
  userId: string,
  current: Overwrite | undefined,
  want: Wish,
  held: Prior | null,
): Omit<MemberStep, 'before'> {
  const allowNow = current ? BigInt(current.allow) : 0n;
  const denyNow = current ? BigInt(current.deny) : 0n;
  if (want === 'deny') {
    const hold = held
      ? fold(held, current)
      : { hadAllow: has(current?.allow), hadDeny: has(current?.deny), existed: current !== undefined };
    const allow = allowNow & ~SEND_MESSAGES;
    const deny = denyNow | SEND_MESSAGES;
    const same = current !== undefined && allow === allowNow && deny === denyNow;
    return {
      userId,
      write: same ? null : { id: userId, type: 1, allow: allow.toString(), deny: deny.toString() },
      hold,
    };
  }
  // Nothing wished: only what the bot holds is given back; without a hold the overwrite is not its business.
  if (!held || !current) return { userId, write: null, hold: null };
  const prior = fold(held, current);
  const allow = (allowNow & ~SEND_MESSAGES) | (prior.hadAllow ? SEND_MESSAGES : 0n);
  const deny = (denyNow & ~SEND_MESSAGES) | (prior.hadDeny ? SEND_MESSAGES : 0n);
  if (allow === 0n && deny === 0n && !prior.existed) return { userId, write: 'delete', hold: null };
  if (allow === allowNow && deny === denyNow) return { userId, write: null, hold: null };
  return {
    userId,
    write: { id: userId, type: current.type, allow: allow.toString(), deny: deny.toString() },
    hold: null,
  };
}

/**
 * The steps of one game's wish for a channel: its members (`want`) and every member whose deny the
 * game holds there but no longer wishes (a player who was replaced). A deny another game holds is
 * left alone unless this game wishes it too (then this game takes it over, with its prior bits).
 * The bot's own overwrite is never touched.
 */
export function planPerms(
  gameId: number,
  current: readonly Overwrite[],
  want: Readonly<Record<string, Wish>>,
  holds: readonly PermHold[],
  selfId: string | null,
): MemberStep[] {
  const byId = new Map(current.filter((o) => o.type === 1).map((o) => [o.id, o]));
  const held = new Map(holds.map((h) => [h.userId, h]));
  const users = new Set([...Object.keys(want), ...holds.filter((h) => h.gameId === gameId).map((h) => h.userId)]);
  const steps: MemberStep[] = [];
  for (const userId of users) {
    if (userId === selfId) continue;
    const wish = want[userId] === 'deny' ? 'deny' : null;
    const before = held.get(userId) ?? null;
    if (before && before.gameId !== gameId && wish === null) continue;
    const step = mergeMember(userId, byId.get(userId), wish, before);
    const holdSame =
      (step.hold === null && before === null) ||
      (step.hold !== null &&
        before !== null &&
        before.gameId === gameId &&
        before.hadAllow === step.hold.hadAllow &&
        before.hadDeny === step.hold.hadDeny &&
        before.existed === step.hold.existed);
    if (step.write === null && holdSame) continue;
    steps.push({ ...step, before });
  }
  return steps;
}

/** The channel's whole list of overwrites with the steps' writes merged in (others as they are). */
export function applySteps(current: readonly Overwrite[], steps: readonly MemberStep[]): Overwrite[] {
  const next = new Map(current.map((o) => [o.id, { ...o }]));
  for (const s of steps) {
    if (s.write === 'delete') next.delete(s.userId);
    else if (s.write) next.set(s.userId, { ...s.write });
  }
  return [...next.values()];
}
