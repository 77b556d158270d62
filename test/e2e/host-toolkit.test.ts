// Issue 11, the host's toolkit through Discord: who hosts (creator, Manage Server, host role,
// /host transfer), a non-host refused every host command, each command's effect on the game and in
// the audit log, undo restoring the exact previous state (compared with the replay of the log),
// pause across a restart, revive and annul in /stats, the host panel (never public, refused to a
// playing host), the paginated log and the server settings.
import { afterEach, describe, expect, it } from 'vitest';
import { verifyStore } from '../../src/app/verify';
import { hostCommand } from '../../src/discord/commands/definitions';
import { startBot } from '../../src/discord/bot';
import { en } from '../../src/i18n/en';
import type { GameState, Role } from '../../src/engine/types';
import type { ScenarioStep } from '../../src/scenario/parse';
import { allComponents, Perm, type InteractionResult, type StoredMessage } from '../../testkit/fake-discord';
import { Driver } from '../../testkit/driver';
import { botConfig, fixedDealer, makeWorld, type World } from '../../testkit/world';

/** Seats 3 and 8 mafia, 6 the Don, 4 the Sheriff. */
const TEN: Role[] = [
  'civilian',
  'civilian',
  'mafia',
  'sheriff',
  'civilian',
  'don',
  'civilian',
  'mafia',
  'civilian',
  'civilian',
];

let w: World | null = null;
afterEach(async () => {
  await w?.stop();
  w = null;
});

type Opt = string | number | { type: number; value: string };

async function slash(
  world: World,
  userId: string,
  name: string,
  sub: string,
  options: Record<string, Opt> = {},
  group?: string,
): Promise<InteractionResult> {
  const r = await world.fake.slash(userId, world.channel.id, name, {
    sub,
    options: options as never,
    ...(group ? { group } : {}),
  });
  await r.settled();
  await world.bot.idle();
  return r;
}

const text = (r: InteractionResult) => r.content ?? r.message?.content ?? '';
const done = (r: InteractionResult) => expect(text(r).trim(), text(r)).toBe('Done.');
const refused = (r: InteractionResult, why: RegExp) => {
  expect(r.ephemeral).toBe(true);
  expect(text(r).startsWith('⛔'), text(r)).toBe(true);
  expect(text(r)).toMatch(why);
};

async function state(world: World, gameId: number): Promise<GameState> {
  return (await world.bot.store.getState(gameId))!;
}

async function game(options: Record<string, string> = {}, ruleset = 'chnu-2016'): Promise<Driver> {
  w = await makeWorld({ players: 10, dealer: fixedDealer(TEN) });
  const d = new Driver(w);
  await d.createAndStart(ruleset, 'live', options);
  return d;
}

const step = (d: Driver, s: ScenarioStep) => d.step(s);
const user = (id: string) => ({ type: 6, value: id });

/** Everything a user can read in a message. */
function visible(m: Pick<StoredMessage, 'content' | 'embeds' | 'components'>): string {
  const parts = [m.content];
  for (const e of m.embeds)
    parts.push(
      e.title ?? '',
      e.description ?? '',
      e.footer?.text ?? '',
      ...(e.fields ?? []).flatMap((f) => [f.name, f.value]),
    );
  for (const c of allComponents(m)) parts.push(c.label ?? '', c.custom_id ?? '');
  return parts.join('\n');
}

/** Every version of every public message of the game channel. */
function publicTranscript(world: World): string[] {
  return world.fake
    .publicMessages(world.channel.id)
    .flatMap((m) => world.fake.history(m.id).map((v) => visible(v as never)));
}

const HOST_SUBS: [string, Record<string, Opt>][] = [
  ['foul', { seat: 2 }],
  ['remove', { seat: 2 }],
  ['kill', { seat: 2 }],
  ['skip', {}],
  ['end', { winner: 'draw' }],
  ['best', { seat: 1 }],
  ['bonus', { seat: 1, points: 1 }],
  ['substitute', { seat: 2, user: '' }],
  ['cancel', {}],
  ['log', {}],
  ['pause', {}],
  ['resume', {}],
  ['extend', { duration: '30s' }],
  ['revive', { seat: 2 }],
  ['undo', {}],
  ['annul', {}],
  ['transfer', { member: '' }],
  ['panel', {}],
];

describe('who hosts (G-7)', () => {
  it('a non-host — a player or any member — is refused every host command, in private, and nothing changes', async () => {
    const d = await game();
    const stranger = w!.fake.addUser({ username: 'stranger', guilds: [w!.guild.id] });
    // The list is every /host subcommand there is.
    const defined = (hostCommand().toJSON().options ?? []).map((o) => o.name).sort();
    expect(HOST_SUBS.map(([s]) => s).sort()).toEqual(defined);
    const store = w!.bot.store;
    const before = {
      state: await store.rawState(d.gameId),
      log: (await store.log(d.gameId)).length,
      audit: (await store.auditLog(d.gameId)).length,
      host: (await store.getGame(d.gameId))!.hostId,
    };
    const publicBefore = w!.fake.publicMessages(w!.channel.id).length;
    for (const who of [w!.users[0]!, stranger]) {
      for (const [sub, opts] of HOST_SUBS) {
        const o: Record<string, Opt> = { ...opts };
        if ('user' in o) o.user = user(stranger.id);
        if ('member' in o) o.member = user(who.id);
        refused(await slash(w!, who.id, 'host', sub, o), /Only the host/);
        // The same with `game:` naming the game.
        if (sub === 'pause') refused(await slash(w!, who.id, 'host', sub, { ...o, game: d.gameId }), /Only the host/);
      }
    }
    expect({
      state: await store.rawState(d.gameId),
      log: (await store.log(d.gameId)).length,
      audit: (await store.auditLog(d.gameId)).length,
      host: (await store.getGame(d.gameId))!.hostId,
    }).toEqual(before);
    expect(w!.fake.publicMessages(w!.channel.id).length).toBe(publicBefore);
    // A game of another server cannot be named.
    refused(await slash(w!, w!.host.id, 'host', 'pause', { game: 999 }), /no game with that number/);
  });

  it('the creator, Manage Server and the host role host; /host transfer hands the game over', async () => {
    const d = await game();
    const store = w!.bot.store;
    const boss = w!.fake.addUser({ username: 'boss', guilds: [w!.guild.id] });
    const admin = w!.fake.addRole(w!.guild.id, { name: 'admin', permissions: Perm.ManageGuild });
    w!.fake.setMemberRoles(w!.guild.id, boss.id, [admin.id]);
    const judge = w!.fake.addUser({ username: 'judge', guilds: [w!.guild.id] });
    const judges = w!.fake.addRole(w!.guild.id, { name: 'judges' });
    w!.fake.setMemberRoles(w!.guild.id, judge.id, [judges.id]);
    refused(await slash(w!, judge.id, 'host', 'pause'), /Only the host/);
    // Only Manage Server may set the host role.
    refused(
      await slash(w!, judge.id, 'mafia', 'host_role', { role: { type: 8, value: judges.id } }, 'settings'),
      /Manage Server/,
    );
    const set = await slash(w!, boss.id, 'mafia', 'host_role', { role: { type: 8, value: judges.id } }, 'settings');
    expect(set.message?.embeds[0]?.fields?.find((f) => f.name === 'Host role')?.value).toBe(`<@&${judges.id}>`);
    done(await slash(w!, judge.id, 'host', 'pause', { reason: 'judge’s call' }));
    expect((await state(w!, d.gameId)).paused).toBeDefined();
    done(await slash(w!, boss.id, 'host', 'resume'));
    expect((await state(w!, d.gameId)).paused).toBeUndefined();
    // The creator hands the game to a member without any right: from now on he hosts, the creator does not.
    const next = w!.fake.addUser({ username: 'next', guilds: [w!.guild.id] });
    refused(await slash(w!, w!.host.id, 'host', 'transfer', { member: user(w!.host.id) }), /already hosts/);
    done(await slash(w!, w!.host.id, 'host', 'transfer', { member: user(next.id), reason: 'going home' }));
    expect((await store.getGame(d.gameId))!.hostId).toBe(next.id);
    expect(w!.fake.publicMessages(w!.channel.id).some((m) => m.content.includes(`now hosted by <@${next.id}>`))).toBe(
      true,
    );
    refused(await slash(w!, w!.host.id, 'host', 'pause'), /Only the host/);
    done(await slash(w!, next.id, 'host', 'pause'));
    const log = text(await slash(w!, next.id, 'host', 'log'));
    expect(log).toMatch(new RegExp(`<@${judge.id}>: paused the game — reason: judge’s call`));
    expect(log).toMatch(new RegExp(`<@${boss.id}>: resumed the game`));
    expect(log).toMatch(new RegExp(`handed the game from <@${w!.host.id}> to <@${next.id}> — reason: going home`));
  });
});

describe('the commands, their effect and the audit log', () => {
  it('pause, extend, resume, skip, undo of a nomination and of a vote (the tally corrected), kill and revive, a foul stands', async () => {
    const d = await game();
    const store = w!.bot.store;
    const id = d.gameId;
    // Pause: no deadline, no timer row; the table says so; a second pause is refused.
    done(await slash(w!, w!.host.id, 'host', 'pause', { reason: 'phone' }));
    const paused = await state(w!, id);
    expect(paused.deadline).toBeNull();
    expect(await store.deadlineOf(id)).toBeNull();
    await w!.bot.idle();
    expect(d.tableMessage().embeds[0]!.description).toMatch(/Paused by the host/);
    expect(publicTranscript(w!).some((x) => x.includes('The host has paused the game'))).toBe(true);
    refused(await slash(w!, w!.host.id, 'host', 'pause'), /already paused/);
    refused(await slash(w!, w!.host.id, 'host', 'extend', { duration: 'soon' }), /duration/);
    done(await slash(w!, w!.host.id, 'host', 'extend', { duration: '30s' }));
    expect((await state(w!, id)).paused!.remaining).toBe(paused.paused!.remaining! + 30_000);
    // Players cannot act while paused.
    done(await slash(w!, w!.host.id, 'host', 'resume'));
    const resumed = await state(w!, id);
    const resumeAt = (await store.log(id)).at(-1)!.at;
    expect(resumed.deadline).toBe(resumeAt + paused.paused!.remaining! + 30_000);
    expect(d.tableMessage().embeds[0]!.description).not.toMatch(/Paused/);
    // Shorten: the timer row follows (no later end kept).
    done(await slash(w!, w!.host.id, 'host', 'extend', { duration: '-10s' }));
    expect((await state(w!, id)).deadline).toBe(resumed.deadline! - 10_000);
    expect((await store.deadlineOf(id))!.dueAt).toBe((await state(w!, id)).deadline);
    done(await slash(w!, w!.host.id, 'host', 'skip', { reason: 'everyone met' }));
    expect((await state(w!, id)).clock).toEqual({ phase: 'day', n: 1 });

    // Undo of a nomination: the turn's message no longer shows it; the state is the one before.
    const beforeNom = await state(w!, id);
    expect(await step(d, { type: 'player', seat: 1, verb: 'nominate', target: 3 })).toBe('ok');
    await w!.bot.idle();
    expect(d.publicWith((x) => x.endsWith(':pass'))!.message.content).toMatch(/Nominated today: #3/);
    done(await slash(w!, w!.host.id, 'host', 'undo', { reason: 'misclick' }));
    await w!.bot.idle();
    expect({ ...(await state(w!, id)), moves: 0 }).toEqual({ ...beforeNom, moves: 0 });
    expect(d.publicWith((x) => x.endsWith(':pass'))!.message.content).not.toMatch(/Nominated today/);
    expect(await step(d, { type: 'player', seat: 1, verb: 'nominate', target: 8 })).toBe('ok');

    // Kill and revive; a foul cannot be taken back (F-1).
    done(await slash(w!, w!.host.id, 'host', 'kill', { seat: 9, reason: 'wrong seat' }));
    expect((await state(w!, id)).players[8]!.alive).toBe(false);
    refused(await slash(w!, w!.host.id, 'host', 'undo'), /revive/);
    done(await slash(w!, w!.host.id, 'host', 'revive', { seat: 9, reason: 'my mistake' }));
    expect((await state(w!, id)).players[8]!.alive).toBe(true);
    expect(publicTranscript(w!).some((x) => x.includes('is back at the table'))).toBe(true);
    refused(await slash(w!, w!.host.id, 'host', 'revive', { seat: 9 }), /at the table/);
    done(await slash(w!, w!.host.id, 'host', 'foul', { seat: 2, reason: 'talking' }));
    refused(await slash(w!, w!.host.id, 'host', 'undo'), /foul cannot be taken back/);

    // To the vote: everybody passes; 2 nominates 3.
    for (let seat = 1; seat <= 10; seat++) {
      if (seat === 2) expect(await step(d, { type: 'player', seat, verb: 'nominate', target: 3 })).toBe('ok');
      expect(await step(d, { type: 'player', seat, verb: 'pass' })).toBe('ok');
    }
    expect((await state(w!, id)).stage.kind).toBe('vote');
    const voteMsg = () => d.publicWith((x) => /:vote:\d+$/.test(x))!.message;
    expect(await step(d, { type: 'player', seat: 4, verb: 'vote', target: 3 })).toBe('ok');
    const beforeVote = await state(w!, id);
    expect(await step(d, { type: 'player', seat: 5, verb: 'vote', target: 8 })).toBe('ok');
    await w!.bot.idle();
    expect(voteMsg().content).toMatch(/Voted: 2 of 10/);
    done(await slash(w!, w!.host.id, 'host', 'undo'));
    await w!.bot.idle();
    // Exactly the previous state (but for the move counter, which counts log entries)...
    expect({ ...(await state(w!, id)), moves: 0 }).toEqual({ ...beforeVote, moves: 0 });
    // ... what players see says so ...
    expect(voteMsg().content).toMatch(/Voted: 1 of 10/);
    expect(voteMsg().content).toMatch(/#5/); // waited for again
    // ... and the log replays to it, with both the vote and its undoing in it.
    const log = await store.log(id);
    expect(log.at(-1)!.action).toEqual({ kind: 'host-undo', undone: log.at(-2)!.seq });
    expect(log.at(-2)!.action).toMatchObject({ kind: 'vote', seat: 5, target: 8 });
    expect((await verifyStore(store)).mismatches).toEqual([]);
    // Seat 5 votes again.
    expect(await step(d, { type: 'player', seat: 5, verb: 'vote', target: 3 })).toBe('ok');
    expect((await verifyStore(store)).mismatches).toEqual([]);

    // The audit log, in words, with the reasons.
    const words = text(await slash(w!, w!.host.id, 'host', 'log'));
    for (const line of [
      'paused the game — reason: phone',
      'changed the time left in the current stage by +30 s',
      'resumed the game',
      'by −10 s',
      'ended the current turn or stage — reason: everyone met',
      'took back log entry',
      '(nomination #1 → #3) — reason: misclick',
      'took #9 out of the game by ruling — reason: wrong seat',
      'brought #9 back to the table — reason: my mistake',
      'gave #2 a foul — reason: talking',
    ]) {
      expect(words).toContain(line);
    }
    expect(words).not.toMatch(/[{}"]/);
  });

  it('/host log has pages, turned by its buttons', async () => {
    const d = await game();
    for (let k = 0; k < 7; k++) {
      done(await slash(w!, w!.host.id, 'host', 'pause'));
      done(await slash(w!, w!.host.id, 'host', 'resume', { reason: `round ${k}` }));
    }
    const first = await slash(w!, w!.host.id, 'host', 'log', { game: d.gameId });
    expect(first.ephemeral).toBe(true);
    expect(text(first)).toMatch(/Page 1 of 2/);
    expect(text(first).match(/paused the game|resumed the game/g)).toHaveLength(12);
    const next = allComponents(first.message!).find((c) => c.label === 'Next ▶')!;
    const r = await w!.fake.click(w!.host.id, first.message!, next.custom_id!);
    await r.settled();
    expect(r.type).toBe(7);
    expect(r.message!.content).toMatch(/Page 2 of 2/);
    expect(r.message!.content).toContain('reason: round 6');
  });

  it('/host log shows every entry however long: pages hold fewer lines, none over 2,000 characters, nothing cut off', async () => {
    const d = await game();
    // Reasons of the full 200 characters: twelve such lines are well over one message's 2,000.
    const reason = (what: string, k: number) =>
      `${what} ${k}: ${'the table asked for a short break and the host agreed to it '.repeat(4)}`.slice(0, 200);
    const reasons: string[] = [];
    for (let k = 0; k < 8; k++) {
      for (const what of ['pause', 'resume'] as const) {
        reasons.push(reason(what, k));
        done(await slash(w!, w!.host.id, 'host', what, { reason: reason(what, k) }));
      }
    }
    let r = await slash(w!, w!.host.id, 'host', 'log', { game: d.gameId });
    const pages: string[] = [text(r)];
    for (let guard = 0; guard < 20; guard++) {
      const msg = r.message!;
      const next = allComponents(msg).find((c) => c.label === 'Next ▶');
      if (!next || next.disabled) break;
      r = await w!.fake.click(w!.host.id, msg, next.custom_id!);
      await r.settled();
      pages.push(r.message!.content ?? '');
    }
    expect(pages.length).toBeGreaterThan(2);
    pages.forEach((p, k) => {
      expect(p.length).toBeLessThanOrEqual(2000);
      expect(p).toContain(`Page ${k + 1} of ${pages.length}`);
    });
    const all = pages.join('\n');
    for (const why of reasons) expect(all).toContain(`reason: ${why}`);
    expect(all.match(/paused the game|resumed the game/g)).toHaveLength(16);
  });
});

describe('pause across a restart (G-7, P-1)', () => {
  it('a paused game stays frozen while the bot is down and after it starts again; resume gives back the time left', async () => {
    const d = await game({ night: '5s' });
    const store = () => w!.bot.store;
    done(await slash(w!, w!.host.id, 'host', 'pause'));
    const remaining = (await state(w!, d.gameId)).paused!.remaining!;
    expect(remaining).toBeGreaterThan(0);
    await w!.bot.stop();
    w!.bot = await startBot(botConfig(w!.fake, w!.dbPath, { dealer: fixedDealer(TEN) }));
    // Well past the stage's original end (5 s): nothing fires.
    await new Promise((r) => setTimeout(r, 6_500));
    await w!.bot.service.sweep();
    await w!.bot.idle();
    expect((await store().log(d.gameId)).some((e) => e.action.kind === 'timeout')).toBe(false);
    expect((await state(w!, d.gameId)).stage.kind).toBe('night0');
    expect((await state(w!, d.gameId)).paused).toEqual({ remaining });
    expect(await store().deadlineOf(d.gameId)).toBeNull();
    done(await slash(w!, w!.host.id, 'host', 'resume'));
    const at = (await store().log(d.gameId)).at(-1)!.at;
    expect((await state(w!, d.gameId)).deadline).toBe(at + remaining);
    expect((await store().deadlineOf(d.gameId))!.dueAt).toBe(at + remaining);
    // And the timer, re-armed, ends the night by itself.
    const until = Date.now() + 30_000;
    while ((await state(w!, d.gameId)).stage.kind === 'night0' && Date.now() < until)
      await new Promise((r) => setTimeout(r, 200));
    expect((await state(w!, d.gameId)).clock).toEqual({ phase: 'day', n: 1 });
  }, 60_000);
});

describe('the host panel', () => {
  it('shows a non-playing host every role, the night’s actions and the overrides; never anything in public; refused to a playing host', async () => {
    const d = await game();
    const id = d.gameId;
    const panel = await slash(w!, w!.host.id, 'host', 'panel');
    expect(panel.ephemeral).toBe(true);
    const shown = visible(panel.message!);
    for (const role of ['Sheriff', 'Don', 'Mafia']) expect(shown).toContain(role);
    expect(shown).toMatch(/\*\*#4\*\* <@\d+> — Sheriff/);
    // Its buttons: pause and resume (the panel shows the new state), +1 min.
    const click = async (m: StoredMessage, label: string) => {
      const c = allComponents(m).find((x) => x.label === label && !x.disabled);
      expect(c, label).toBeDefined();
      const r = await w!.fake.click(w!.host.id, m, c!.custom_id!);
      await r.settled();
      await w!.bot.idle();
      return r;
    };
    let r = await click(panel.message!, 'Pause');
    expect(r.type).toBe(7);
    expect((await state(w!, id)).paused).toBeDefined();
    expect(visible(r.message!)).toMatch(/paused \(/);
    r = await click(r.message!, 'Resume');
    expect((await state(w!, id)).paused).toBeUndefined();
    const before = (await state(w!, id)).deadline!;
    r = await click(r.message!, '+1 min');
    expect((await state(w!, id)).deadline).toBe(before + 60_000);
    const staleId = allComponents(r.message!).find((x) => x.label === 'Skip stage')!.custom_id!;
    r = await click(r.message!, 'Skip stage');
    expect((await state(w!, id)).clock).toEqual({ phase: 'day', n: 1 });
    // An override from a panel of an earlier stage is refused (the game moved on).
    const old = await w!.fake.click(w!.host.id, r.message!, staleId, { forge: true });
    await old.settled();
    expect(text(old)).toMatch(/moved on/);
    // To night 1: everybody passes; nobody nominated.
    for (let seat = 1; seat <= 10; seat++) expect(await step(d, { type: 'player', seat, verb: 'pass' })).toBe('ok');
    expect((await state(w!, id)).stage.kind).toBe('night');
    expect(await step(d, { type: 'player', seat: 4, verb: 'check', target: 6 })).toBe('ok');
    expect(await step(d, { type: 'player', seat: 3, verb: 'shoot', target: 1 })).toBe('ok');
    const night = await slash(w!, w!.host.id, 'host', 'panel');
    const nightText = visible(night.message!);
    expect(nightText).toContain('#3: shoots #1');
    expect(nightText).toContain('Sheriff checks #6');
    expect(nightText).toMatch(/Waiting for\n#4, #6, #8/); // the Sheriff may still ask "is it the Don?" (N-6)
    // Undo of the shot from the panel: the shooter's own DM panel shows his choice gone; nothing public.
    const publicCount = publicTranscript(w!).length;
    expect(d.dmWith(w!.users[2]!.id, (x) => x.endsWith(':shoot'))).toBeNull(); // he has shot
    r = await click(night.message!, 'Undo');
    expect(r.type).toBe(7);
    const st = (await state(w!, id)).stage;
    expect(st.kind === 'night' && st.acts.shots[2]).toBe(0);
    expect(visible(r.message!)).not.toContain('#3: shoots');
    expect(publicTranscript(w!).length).toBe(publicCount);
    // The shooter's DM panel offers the shot again (its slot was corrected through the outbox).
    const shooter = w!.users[2]!.id;
    const until = Date.now() + 10_000;
    while (!d.dmWith(shooter, (x) => x.endsWith(':shoot')) && Date.now() < until)
      await new Promise((x) => setTimeout(x, 100));
    expect(d.dmWith(shooter, (x) => x.endsWith(':shoot'))).not.toBeNull();
    // The teammates still to shoot, told of his aim, are told it is void.
    const mate = w!.users[7]!.id;
    while (!w!.fake.dms(mate).some((m) => m.content.includes('took back the shot of #3')) && Date.now() < until)
      await new Promise((x) => setTimeout(x, 100));
    expect(
      w!.fake
        .dms(mate)
        .map((m) => m.content)
        .filter((c) => /aims at|took back/.test(c)),
    ).toEqual([
      `#3 <@${shooter}> aims at #1 <@${w!.users[0]!.id}>.`,
      `↩️ The host took back the shot of #3 <@${shooter}>: that seat picks again.`,
    ]);
    expect(await step(d, { type: 'player', seat: 3, verb: 'shoot', target: 1 })).toBe('ok');
    // N-13: no public message ever named a role or showed the panel.
    const roleWords = ['sheriff', 'don', 'mafia'].map((r) => String(en[`role.${r}` as keyof typeof en]).toLowerCase());
    // (The lobby's composition line names the rule set's roles, nobody's: issue 10.)
    for (const x of publicTranscript(w!).map((v) =>
      v
        .split('\n')
        .filter((l) => !l.startsWith('Roles: '))
        .join('\n'),
    )) {
      expect(x).not.toContain('Host panel');
      for (const word of roleWords) expect(new RegExp(`(?<![\\p{L}])${word}(?![\\p{L}])`, 'iu').test(x), x).toBe(false);
    }
    // A host who plays: a player with Manage Server is refused the panel (and its buttons).
    const admin = w!.fake.addRole(w!.guild.id, { name: 'admin', permissions: Perm.ManageGuild });
    const player = w!.users[1]!;
    w!.fake.setMemberRoles(w!.guild.id, player.id, [admin.id]);
    refused(await slash(w!, player.id, 'host', 'panel'), /You play in this game/);
    // A forged panel button (on a public message) is refused to him too.
    const forged = await w!.fake.click(player.id, d.tableMessage(), `v1:h:${id}:${(await state(w!, id)).seq}:pause`, {
      forge: true,
    });
    await forged.settled();
    expect(text(forged)).toMatch(/You play in this game/);
    expect((await state(w!, id)).paused).toBeUndefined();
    // Nor may he take back a night action he cannot see (that would tell him someone acted).
    const moves = (await state(w!, id)).moves;
    refused(await slash(w!, player.id, 'host', 'undo'), /the night is not yours to run/);
    expect((await state(w!, id)).moves).toBe(moves);
  });
});

describe('revive and annul in /stats', () => {
  it('a revived player carries no removal; an annulled game stays in the archive and counts for nothing', async () => {
    const d = await game({}, 'classic-10');
    const id = d.gameId;
    const store = w!.bot.store;
    done(await slash(w!, w!.host.id, 'host', 'skip'));
    done(await slash(w!, w!.host.id, 'host', 'remove', { seat: 5 }));
    done(await slash(w!, w!.host.id, 'host', 'revive', { seat: 5, reason: 'wrong player' }));
    refused(await slash(w!, w!.host.id, 'host', 'annul'), /Only a finished game/);
    done(await slash(w!, w!.host.id, 'host', 'end', { winner: 'red' }));
    done(await slash(w!, w!.host.id, 'host', 'best', { seat: 4, reason: 'great checks' }));
    done(await slash(w!, w!.host.id, 'host', 'skip'));
    expect((await store.getGame(id))!.status).toBe('over');
    const five = (await store.resultsFor({ guildId: w!.guild.id })).find((r) => r.seat === 5)!;
    expect(JSON.parse(five.breakdown)).not.toHaveProperty('removal');
    const full = (r: InteractionResult) =>
      [text(r), ...(r.message?.embeds ?? []).map((e) => e.description ?? '')].join('\n');
    // Ended by a ruling before any day vote: on record, but it would not count for points or Elo
    // anyway (the ratings' rule); the annulment takes it out of the results altogether.
    expect((await store.resultsFor({ guildId: w!.guild.id })).length).toBe(10);
    // Annul: the game (channel's latest) stays, its points go.
    done(await slash(w!, w!.host.id, 'host', 'annul', { reason: 'wrong rule set' }));
    expect((await store.getGame(id))!.annulledAt).not.toBeNull();
    expect((await store.getGame(id))!.status).toBe('over');
    expect(await store.resultsFor({ guildId: w!.guild.id })).toEqual([]);
    expect(full(await slash(w!, w!.host.id, 'stats', 'top', { ruleset: 'classic-10' }))).toMatch(/No counted games in/);
    refused(await slash(w!, w!.host.id, 'host', 'annul'), /already annulled/);
    expect(w!.fake.publicMessages(w!.channel.id).some((m) => m.content.includes(`Game #${id} was annulled`))).toBe(
      true,
    );
    const log = text(await slash(w!, w!.host.id, 'host', 'log'));
    expect(log).toContain('This game was annulled');
    expect(log).toContain('annulled the game — reason: wrong rule set');
    expect(log).toContain('named #4 the best player — reason: great checks');
  });
});

describe('server settings', () => {
  it('one embed; validated; /mafia create uses them and a game keeps those it was created with; results posted to the results channel', async () => {
    w = await makeWorld({ players: 10, dealer: fixedDealer(TEN) });
    const d = new Driver(w);
    const boss = w.fake.addUser({ username: 'boss', guilds: [w.guild.id] });
    const admin = w.fake.addRole(w.guild.id, { name: 'admin', permissions: Perm.ManageGuild });
    w.fake.setMemberRoles(w.guild.id, boss.id, [admin.id]);
    const results = w.fake.addChannel(w.guild.id, { name: 'results' });
    const shown = await slash(w, w.users[0]!.id, 'mafia', 'show', {}, 'settings');
    expect(shown.ephemeral).toBe(true);
    expect(shown.message!.embeds[0]!.title).toBe('Mafia settings for this server');
    refused(await slash(w, w.users[0]!.id, 'mafia', 'ruleset', { ruleset: 'classic-10' }, 'settings'), /Manage Server/);
    refused(await slash(w, boss.id, 'mafia', 'timers', { pace: 'live', speech: '3x' }, 'settings'), /speech/);
    refused(await slash(w, boss.id, 'mafia', 'language', { language: 'de' }, 'settings'), /Not saved: language/);
    await slash(w, boss.id, 'mafia', 'ruleset', { ruleset: 'classic-10' }, 'settings');
    await slash(w, boss.id, 'mafia', 'timers', { pace: 'live', speech: '45s', night: '2m' }, 'settings');
    const rc = await slash(
      w,
      boss.id,
      'mafia',
      'results_channel',
      { channel: { type: 7, value: results.id } },
      'settings',
    );
    const fields = rc.message!.embeds[0]!.fields!;
    expect(fields.find((f) => f.name === 'Default rule set')!.value).toBe('Classic (10)');
    expect(fields.find((f) => f.name === 'Timers (live)')!.value).toMatch(/speech: 45 s/);
    expect(fields.find((f) => f.name === 'Results channel')!.value).toBe(`<#${results.id}>`);
    // Create without a rule set: the server's default, with its timers.
    const r = await slash(w, w.host.id, 'mafia', 'create', {});
    d.gameId = Number(/Game #(\d+)/.exec(text(r))![1]);
    const g = (await w.bot.store.getGame(d.gameId))!;
    expect(g.ruleset).toBe('classic-10');
    expect(g.options.timers).toMatchObject({ speech: 45, night: 120, night0: 120 });
    // Changed later: the game keeps what it was created with.
    await slash(w, boss.id, 'mafia', 'results_channel', {}, 'settings');
    expect(((await w.bot.store.getGame(d.gameId))!.ui.settings as { resultsChannel: string }).resultsChannel).toBe(
      results.id,
    );
    for (const u of w.users) await w.fake.click(u.id, d.lobbyMessage(), `v1:l:${d.gameId}:join`);
    await w.bot.idle();
    const s = await w.fake.click(w.host.id, d.lobbyMessage(), `v1:l:${d.gameId}:start`);
    await s.settled();
    await w.bot.idle();
    expect((await state(w, d.gameId)).options.timers.speech).toBe(45);
    done(await slash(w, w.host.id, 'host', 'end', { winner: 'black' }));
    done(await slash(w, w.host.id, 'host', 'skip'));
    await w.bot.idle();
    const until = Date.now() + 10_000;
    while (w.fake.publicMessages(results.id).length === 0 && Date.now() < until)
      await new Promise((x) => setTimeout(x, 100));
    expect(w.fake.publicMessages(results.id).map((m) => m.embeds[0]?.title)).toEqual([`Points, game #${d.gameId}`]);
    // Reset: every setting is its default again.
    const reset = await slash(w, boss.id, 'mafia', 'reset', {}, 'settings');
    expect(reset.message!.embeds[0]!.fields!.find((f) => f.name === 'Default rule set')!.value).toBe(
      'asked at /mafia create',
    );
    refused(await slash(w, w.host.id, 'mafia', 'create', {}), /Choose a rule set/);
  });
});
