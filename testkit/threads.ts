// Who may read a game's private threads, checked against the fake Discord: the mafia's thread
// (M-2) and the spectators' thread (M-3). The rules are written out here on their own, from the
// game's state and its seats, not taken from the bot's code, so a test that calls this after each
// step of a game catches the bot letting anyone read what the rules do not yet allow.
import type { GameState, Role } from '../src/engine/types';
import type { World } from './world';

/** A game's private threads on the fake Discord (null: not made, or the bot may not make threads). */
export async function gameThreads(
  world: World,
  gameId: number,
): Promise<{ mafia: string | null; spectators: string | null }> {
  const id = async (key: string) => (await world.bot.outbox.slot(gameId, key))?.messageId ?? null;
  return { mafia: await id('thread'), spectators: await id('spectators') };
}

/** Who is in a thread now, the bot left out. */
export function threadUsers(world: World, threadId: string): string[] {
  return world.fake.threadMembers(threadId).filter((u) => u !== world.fake.botUser.id);
}

/** G-4: the seats that know each other and talk in the mafia's thread. */
function inCircle(s: GameState, role: Role): boolean {
  return role === 'mafia' || role === 'don' || (role === 'prostitute' && s.options.prostituteKnowsMafia);
}

/**
 * What is wrong with the membership of a game's private threads now, in words (empty: nothing).
 * Call it once the bot is idle (`await world.bot.idle()`): it reads the fake Discord as players
 * would find it, so a change still on its way to Discord shows as a violation.
 *
 * - M-2 with G-4, G-5: the mafia's thread holds exactly the users holding the seats of the
 *   mafia's circle (the prostitute only where she knows them) who are still at the table; nobody
 *   else at the table can read it; it is private, not invitable, and open only while the mafia
 *   may talk (night 0; every night where the server allows), locked once the game has ended.
 * - M-3 with G-5: the spectators' thread holds the players who have left the table and those who
 *   pressed Watch, and never a living player while the game is on (after its result the living
 *   may watch too); nobody else at the table can read it.
 *
 * Cheap: a few lookups by key and the fake's in-memory state, no call to Discord.
 */
export async function threadMembershipViolations(world: World, gameId: number): Promise<string[]> {
  const out: string[] = [];
  const game = await world.bot.store.getGame(gameId);
  const state = (await world.bot.service.state(gameId)) ?? (await world.bot.store.getState(gameId));
  if (!game || !state) return out;
  const seats = await world.bot.store.players(gameId);
  const who = (u: string) => {
    const seat = seats.find((x) => x.userId === u)?.seat;
    if (seat === undefined) return `<@${u}> (no seat)`;
    const p = state.players[seat - 1]!;
    return `<@${u}> (seat ${seat}, ${p.role}, ${p.alive ? 'at the table' : 'left'})`;
  };
  const ended = state.result !== null || !['running', 'post-game'].includes(game.status);
  const threads = await gameThreads(world, gameId);

  const check = (name: string, threadId: string, expected: Set<string>) => {
    const info = world.fake.thread(threadId);
    if (!info) {
      out.push(`game ${gameId}: the ${name} thread ${threadId} is gone`);
      return;
    }
    if (info.type !== 12) out.push(`game ${gameId}: the ${name} thread is not private`);
    if (info.invitable) out.push(`game ${gameId}: members of the ${name} thread may invite others`);
    const actual = new Set(threadUsers(world, threadId));
    for (const u of actual) if (!expected.has(u)) out.push(`game ${gameId}: ${who(u)} is in the ${name} thread`);
    for (const u of expected) if (!actual.has(u)) out.push(`game ${gameId}: ${who(u)} is not in the ${name} thread`);
    // Beyond the member list: what each player could actually open (roles, overwrites).
    for (const s of seats) {
      const should = expected.has(s.userId);
      if (actual.has(s.userId) !== should) continue; // said above
      if (world.fake.canRead(threadId, s.userId) !== should)
        out.push(`game ${gameId}: ${who(s.userId)} ${should ? 'cannot' : 'can'} read the ${name} thread`);
    }
    return info;
  };

  if (threads.mafia) {
    const expected = new Set<string>();
    for (const s of seats) {
      const p = state.players[s.seat - 1];
      if (p && p.alive && inCircle(state, p.role)) expected.add(s.userId);
    }
    const info = check('mafia', threads.mafia, expected);
    if (info) {
      // M-2: open on night 0 (and every night where the server allows), locked by day and at the end.
      const k = state.stage.kind;
      const open = !ended && (k === 'night0' || (k === 'night' && state.options.mafiaTalk === 'every-night'));
      if (info.locked === open) out.push(`game ${gameId}: the mafia thread is ${open ? 'locked' : 'open'} at ${k}`);
    }
  }

  if (threads.spectators) {
    const slot = (await world.bot.outbox.slot(gameId, 'spectators'))!;
    // Who pressed Watch is an input of the game, kept by the bot with the thread.
    const watchers = (JSON.parse(slot.payload) as { watchers?: string[] }).watchers ?? [];
    const living = new Set<string>();
    const expected = new Set<string>();
    for (const s of seats) {
      const p = state.players[s.seat - 1];
      if (!p) continue;
      if (p.alive) living.add(s.userId);
      else expected.add(s.userId);
    }
    for (const u of watchers) if (state.result !== null || !living.has(u)) expected.add(u);
    check('spectators', threads.spectators, expected);
    if (state.result === null) {
      for (const u of threadUsers(world, threads.spectators))
        if (living.has(u)) out.push(`game ${gameId}: a living player ${who(u)} is in the spectators thread`);
    }
  }
  return out;
}
