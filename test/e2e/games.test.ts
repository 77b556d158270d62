// Whole games of each rule set played through Discord by 10 or 12 simulated users: the same steps
// as the scenario files, but as clicks, menus, DMs and host commands. The result must equal the
// scenario's expectation, and the users must have seen it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/parse';
import { resultOf } from '../../src/scenario/run';
import { compareExpect, OWN_DIR, readJson, SHARED_DIR } from '../../testkit/scenario-files';
import { en } from '../../src/i18n/en';
import { ru } from '../../src/i18n/ru';
import { uk } from '../../src/i18n/uk';
import type { GameState, Role } from '../../src/engine/types';
import type { StoredMessage } from '../../testkit/fake-discord';
import { allComponents } from '../../testkit/fake-discord';
import { Driver } from '../../testkit/driver';
import { fixedDealer, makeWorld, type World } from '../../testkit/world';
import { threadMembershipViolations } from '../../testkit/threads';
import { channelWriters } from '../../src/engine/view';

const ROLES: Role[] = ['civilian', 'sheriff', 'mafia', 'don', 'commissioner', 'doctor', 'maniac', 'prostitute'];
/** Every name of every role in the three languages. */
const ROLE_WORDS: { role: Role; word: RegExp }[] = ROLES.flatMap((role) =>
  [en, uk, ru].map((c) => ({
    role,
    word: new RegExp(`(?<![\\p{L}])${String(c[`role.${role}`]).toLowerCase()}(?![\\p{L}])`, 'iu'),
  })),
);

const COMPOSITION = [en, uk, ru].map((c) => String(c['lobby.composition']).replace('{roles}', ''));
const stripComposition = (text: string) =>
  text
    .split('\n')
    .filter((l) => !COMPOSITION.some((p) => l.startsWith(p)))
    .join('\n');
/** What would tell who is awaited: the "waiting for" line and a reminder's clock, in every language. */
const NIGHT_TELLS = [...[en, uk, ru].map((c) => String(c['stage.waitingFor']).replace('{who}', '').trim()), '⏰'];

/** The closed-DM notice, mentions stripped: the same for every player and every kind of DM. */
const DM_CLOSED = `📪 ${String(en['delivery.dmClosed']).replace(/\{(user|host)\}/g, '@')}`;

/** Everything a user can read in a message: text, embeds, components (labels and ids). */
function visibleText(m: Pick<StoredMessage, 'content' | 'embeds' | 'components'>): string {
  const parts = [m.content];
  for (const e of m.embeds)
    parts.push(
      e.title ?? '',
      e.description ?? '',
      e.footer?.text ?? '',
      ...(e.fields ?? []).flatMap((f) => [f.name, f.value]),
    );
  for (const c of allComponents(m))
    parts.push(c.label ?? '', c.custom_id ?? '', c.placeholder ?? '', ...(c.options ?? []).map((o) => o.label));
  return parts.join('\n');
}

/**
 * N-13: checks the public transcript after a step. `seen` counts the versions already checked;
 * new versions may name only roles the rules have revealed by now (kiev-12: cards of players who
 * left; all roles once the game is over). During a night, a step that does not end the night may
 * not create or edit any public message at all (no timing or edit shows who acted).
 */
function checkSecrecy(
  w: World,
  state: GameState,
  prevState: GameState,
  seen: Map<string, number>,
  where: string,
  playerStep: boolean,
) {
  const revealed = new Set<Role>();
  if (state.result) for (const r of ROLES) revealed.add(r);
  else if (state.ruleset === 'kiev-12') for (const p of state.players) if (!p.alive) revealed.add(p.role);
  let changed = 0;
  for (const m of w.fake.publicMessages(w.channel.id)) {
    const versions = w.fake.history(m.id);
    const from = seen.get(m.id) ?? 0;
    for (const v of versions.slice(from)) {
      changed++;
      if (process.env.E2E_DEBUG) console.log(where, m.id, JSON.stringify(v).slice(0, 300));
      // The lobby lists the rule set's composition (issue 10): public by design, it names nobody's role.
      const text = stripComposition(visibleText(v as never));
      // A DM that could not be delivered is told in the same words whatever it was (issue 20).
      if (text.startsWith('📪') && text.replace(/<@\d+>/g, '@') !== DM_CLOSED)
        throw new Error(`${where}: a closed-DM notice that says more than that:\n${text}`);
      // Nothing public during a night says who has or has not acted (N-13): no "waiting for", no reminder.
      if (state.stage.kind === 'night' && prevState.stage.kind === 'night' && NIGHT_TELLS.some((x) => text.includes(x)))
        throw new Error(`${where}: a public message at night says who is awaited:\n${text}`);
      for (const { role, word } of ROLE_WORDS) {
        if (!revealed.has(role) && word.test(text))
          throw new Error(`${where}: public message names "${role}" before the rules reveal it:\n${text}`);
      }
    }
    seen.set(m.id, versions.length);
  }
  attributionLeaks(w, where);
  // A host's ruling at night (a foul for talking, say) is public; a player's night action never is.
  const quietNight =
    playerStep && prevState.stage.kind === 'night' && state.stage.kind === 'night' && state.seq === prevState.seq;
  if (quietNight && changed > 0) throw new Error(`${where}: a night action changed the public channel`);
}

/**
 * Issue 20: a public message made as an interaction's follow-up names the user who clicked (its
 * interaction metadata, shown by Discord's clients). It may come only from a click on a public
 * message, never from a private panel, a private menu or a DM (a night action, a secret vote).
 */
function attributionLeaks(w: World, where: string): void {
  for (const m of w.fake.publicMessages(w.channel.id)) {
    const meta = m.interaction_metadata;
    if (!meta?.interacted_message_id) continue;
    const source = w.fake.message(meta.interacted_message_id);
    const secret = !source || source.ephemeralFor !== undefined || source.channel_id !== w.channel.id;
    if (secret)
      throw new Error(
        `${where}: public message ${m.id} is a follow-up of <@${meta.user.id}>'s click in a private message:\n${m.content.slice(0, 200)}`,
      );
  }
}

const SEND = 1n << 11n;
const ADD_REACTIONS = 1n << 6n;

function overwriteSnapshot(w: World): string[] {
  return w.fake
    .overwrites(w.channel.id)
    .map((o) => `${o.id}:${o.type}:${o.allow}:${o.deny}`)
    .sort();
}

/**
 * Issue 20: the channel's overwrites after a step. The bot never grants Send Messages (a mute
 * role stands), keeps the moderators' bits, and what it denies depends only on what is public:
 * players alike in life and in whether the stage lets them talk have the same overwrite, so an
 * overwrite tells nobody a role. (The dead may not write: M-3.)
 */
function overwriteLeaks(w: World, d: Driver, state: GameState, before: string[], where: string): void {
  const ows = w.fake.overwrites(w.channel.id);
  const ow = (id: string) => ows.find((o) => o.id === id);
  for (const o of ows)
    if (o.allow & SEND) throw new Error(`${where}: an overwrite allows Send Messages (${o.id}), over the server's own`);
  if (!ows.some((o) => o.type === 0 && o.deny & SEND)) throw new Error(`${where}: the mute role's deny is gone`);
  if (!((ow(w.users[0]!.id)?.deny ?? 0n) & ADD_REACTIONS)) throw new Error(`${where}: a moderator's deny is gone`);
  if (!((ow(w.users[4]!.id)?.deny ?? 0n) & SEND)) throw new Error(`${where}: a moderator's Send Messages deny is gone`);
  if (state.result) return;
  const writers = channelWriters(state);
  const talks = (seat: number) =>
    writers.mode === 'everyone' || (writers.mode === 'seats' && writers.seats.includes(seat));
  const groups = new Map<string, Set<boolean>>();
  const moderated = new Set([w.users[2]!.id, w.users[4]!.id]);
  for (const p of state.players) {
    if (moderated.has(d.userOf(p.seat))) continue;
    const denied = ((ow(d.userOf(p.seat))?.deny ?? 0n) & SEND) !== 0n;
    const key = `${p.alive ? 'alive' : 'out'}/${talks(p.seat) ? 'talks' : 'silent'}`;
    groups.set(key, (groups.get(key) ?? new Set()).add(denied));
    const writes = (w.fake.permissionsIn(w.channel.id, d.userOf(p.seat)) & SEND) !== 0n;
    if (!p.alive && !talks(p.seat) && writes)
      throw new Error(
        `${where}: seat ${p.seat} has left and may still write: ${JSON.stringify(ow(d.userOf(p.seat)), (_k, v) => (typeof v === 'bigint' ? String(v) : v))} ${state.stage.kind}`,
      );
  }
  for (const [key, seen] of groups)
    if (seen.size > 1) throw new Error(`${where}: players alike (${key}) have different overwrites: ${before.length}`);
}

let world: World | null = null;
afterEach(async () => {
  await world?.stop();
  world = null;
});

async function playFile(file: string) {
  const raw = readJson(file) as { expect: Record<string, unknown> };
  const sc = parseScenario(raw);
  world = await makeWorld({ players: sc.roles.length, dealer: fixedDealer(sc.roles) });
  const w = world;
  const d = new Driver(w);
  // Half the table plays its nights from the channel's private panel ("My actions"), as players
  // without DMs do: whatever their clicks cause must not be attributed to them (issue 20).
  for (const [i, u] of w.users.entries()) if (i % 2 === 1) d.panelUsers.add(u.id);
  // A moderator's settings the bot must keep (issue 20): a member's own overwrite (no reactions)
  // and a mute role denying Send Messages.
  w.fake.setOverwrite(w.channel.id, { id: w.users[0]!.id, type: 1, allow: 0n, deny: ADD_REACTIONS });
  w.fake.setOverwrite(w.channel.id, { id: w.users[4]!.id, type: 1, allow: 0n, deny: SEND });
  const muted = w.fake.addRole(w.guild.id, { name: 'Muted' });
  w.fake.setMemberRoles(w.guild.id, w.users[2]!.id, [muted.id]);
  w.fake.setOverwrite(w.channel.id, { id: muted.id, type: 0, allow: 0n, deny: SEND });
  const before = overwriteSnapshot(w);
  await d.createAndStart(sc.ruleset, sc.pace);
  // The checker closes his DMs after the deal: he plays from the panel, and the channel is told
  // in words and at a moment that say nothing of his role.
  const checker = sc.roles.findIndex((r) => r === 'sheriff' || r === 'commissioner');
  if (checker >= 0) {
    w.fake.setDmsOpen(w.users[checker]!.id, false);
    d.panelUsers.add(w.users[checker]!.id);
  }
  let nightfall = false;
  const refused: number[] = [];
  const seen = new Map<string, number>();
  let prev = (await world.bot.store.getState(d.gameId))!;
  for (const [i, step] of sc.steps.entries()) {
    const outcome = await d.step(step);
    if (outcome === 'refused') refused.push(i);
    const now = (await world.bot.store.getState(d.gameId))!;
    const where = `${file.split('/').pop()} step ${i}`;
    checkSecrecy(w, now, prev, seen, where, step.type === 'player');
    const threads = await threadMembershipViolations(w, d.gameId);
    if (threads.length > 0) throw new Error(`${where}: ${threads.join('; ')}`);
    overwriteLeaks(w, d, now, before, where);
    if (now.stage.kind === 'night' && now.players[checker]?.alive) nightfall = true;
    prev = now;
  }
  // The checker was told once that his DMs are closed (at the first nightfall after the deal).
  if (checker >= 0 && nightfall) {
    const notices = w.fake.publicMessages(w.channel.id).filter((m) => m.content.startsWith('📪'));
    expect(notices.map((m) => m.content.includes(`<@${w.users[checker]!.id}>`))).toEqual([true]);
  }
  const state = (await world.bot.store.getState(d.gameId))!;
  // The game is over: every overwrite is as the moderators left it.
  if (state.result) expect(overwriteSnapshot(w)).toEqual(before);
  const result = resultOf(state, refused) as unknown as Record<string, unknown>;
  expect(compareExpect(result, raw.expect), JSON.stringify(result)).toEqual([]);
  return { d, state, sc };
}

const games = [
  join(OWN_DIR, 'chnu-red-full-strength.json'),
  join(OWN_DIR, 'classic-all-leave-ends-game.json'),
  join(OWN_DIR, 'kiev-black-wins-rating.json'),
  join(OWN_DIR, 'classic-async-window.json'),
  join(OWN_DIR, 'kiev-async-accusations.json'),
  join(SHARED_DIR, 'classic-async-host-end.json'),
  join(SHARED_DIR, 'kiev-full-game.json'),
  join(SHARED_DIR, 'chnu-full-game.json'),
  join(SHARED_DIR, 'classic-tie-leave-all.json'),
].filter(existsSync);

describe('games through Discord (complete games of each rule set, both paces), with the N-13 secrecy check after every step', () => {
  for (const file of games) {
    it(`${file.split('/').pop()}`, async () => {
      const { d, state } = await playFile(file);
      const w = world!;
      // Every player got his role card by DM.
      for (const [i, u] of w.users.entries()) {
        const card = w.fake.dms(u.id).find((m) => m.embeds[0]?.title?.includes(`seat ${i + 1}`));
        expect(card, `card of seat ${i + 1}`).toBeDefined();
      }
      // A finished game: the final reveal and the points table are in the channel.
      if (state.stage.kind === 'over') {
        const pub = w.fake.publicMessages(w.channel.id);
        // E-5: the result leads its message: who won and why, in the first line.
        expect(pub.some((m) => /^🏆 \*\*(.* wins|Draw): .+\.\*\*$/m.test(m.content.split('\n')[0] ?? ''))).toBe(true);
        expect(pub.some((m) => (m.embeds[0]?.title ?? '').startsWith('Points'))).toBe(true);
      }
      expect(w.fake.unhandled).toEqual([]);
      void d;
    });
  }
});
