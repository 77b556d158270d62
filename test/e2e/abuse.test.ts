// Hostile or clumsy input: acting for another seat, voting twice, dead players, stale and forged
// buttons, simultaneous clicks. Each is refused politely (ephemeral, to the one who tried) or
// serialized, and the game state stays intact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/engine/types';
import { allComponents } from '../../testkit/fake-discord';
import { Driver } from '../../testkit/driver';
import { fixedDealer, makeWorld, type World } from '../../testkit/world';

const deal: Role[] = [
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
let w: World;
let d: Driver;
const state = async () => (await w.bot.store.getState(d.gameId))!;
const log = async () => await w.bot.store.log(d.gameId);

beforeAll(async () => {
  w = await makeWorld({ players: 10, dealer: fixedDealer(deal) });
  d = new Driver(w);
  await d.createAndStart('chnu-2016');
  expect(await d.host('skip', {})).toBe('ok'); // night 0 -> day 1, seat 1 speaks
});
afterAll(async () => {
  await w.stop();
});

describe('abuse: refused politely, state intact', () => {
  it('acting for another seat: only the speaker may end his speech or nominate', async () => {
    const before = await state();
    const turn = d.publicWith((id) => id.endsWith(':pass'))!;
    const versions = w.fake.history(turn.message.id).length;
    const r = await w.fake.click(w.users[4]!.id, turn.message, turn.id);
    expect(r.type).toBe(4);
    expect(r.ephemeral).toBe(true);
    expect(r.content).toMatch(/^⛔ .*not your turn/);
    // The nomination menu is on the speaker's turn message; another player's pick is refused.
    const nominate = allComponents(turn.message).find(
      (c) => c.custom_id === `v1:a:${d.gameId}:${before.seq}:nominate`,
    )!;
    expect(nominate.options?.map((o) => o.value)).toContain('3');
    const r2 = await w.fake.select(w.users[4]!.id, turn.message, nominate.custom_id!, ['3']);
    expect(r2.type).toBe(4);
    expect(r2.ephemeral).toBe(true);
    expect(r2.content).toMatch(/^⛔ .*only during your own turn/);
    await w.bot.idle();
    expect(await state()).toEqual(before);
    // The turn message itself is untouched by the refused clicks.
    expect(w.fake.history(turn.message.id)).toHaveLength(versions);
  });

  it('a user who does not play is told so', async () => {
    const outsider = w.fake.addUser({ username: 'outsider', guilds: [w.guild.id] });
    const pass = d.publicWith((id) => id.endsWith(':pass'))!;
    const r = await w.fake.click(outsider.id, pass.message, pass.id);
    expect(r.content).toMatch(/not playing/);
    const role = await w.fake.click(outsider.id, d.tableMessage(), `v1:p:${d.gameId}:role`);
    expect(role.content).toMatch(/not playing/);
  });

  it('forged custom ids: garbage, another game, out-of-range menu values', async () => {
    const before = await state();
    const table = d.tableMessage();
    for (const id of [
      'hello',
      'v1:a:1:1',
      'v2:a:1:1:pass',
      `v1:a:${d.gameId}:${before.seq}:dance`,
      `v1:a:${d.gameId}:${before.seq}:vote:999`,
      'v1:l:1:explode',
      'x'.repeat(100),
    ]) {
      const r = await w.fake.click(w.users[0]!.id, table, id, { forge: true });
      expect(r.ephemeral, id).toBe(true);
      expect(r.content, id).toMatch(/not valid|no longer exists/);
    }
    const unknownGame = await w.fake.click(w.users[0]!.id, table, `v1:a:4242:1:pass`, { forge: true });
    expect(unknownGame.content).toMatch(/no longer exists/);
    const bad = await w.fake.select(w.users[0]!.id, table, `v1:a:${d.gameId}:${before.seq}:nominate`, ['77'], {
      forge: true,
    });
    expect(bad.content).toMatch(/not valid/);
    const many = await w.fake.select(w.users[0]!.id, table, `v1:a:${d.gameId}:${before.seq}:nominate`, ['2', '3'], {
      forge: true,
    });
    expect(many.content).toMatch(/not valid/);
    await w.bot.idle();
    expect(await state()).toEqual(before);
  });

  it('a double click by the same user at the same moment counts once', async () => {
    const { seq } = await state();
    const turn = d.publicWith((id) => id === `v1:a:${d.gameId}:${seq}:nominate`)!;
    const [a, b] = await Promise.all([
      w.fake.select(w.users[0]!.id, turn.message, turn.id, ['3']),
      w.fake.select(w.users[0]!.id, turn.message, turn.id, ['5']),
    ]);
    await Promise.all([a.settled(), b.settled()]);
    await w.bot.idle();
    const noms = (await log()).filter((e) => e.action.kind === 'nominate');
    expect(noms).toHaveLength(1);
    // One click updated the turn message (it shows the nomination), the other was refused in private.
    const [won, lost] = a.type === 7 ? [a, b] : [b, a];
    expect(won.type).toBe(7);
    expect(won.message?.id).toBe(turn.message.id);
    expect(lost.type).toBe(4);
    expect(lost.ephemeral).toBe(true);
    expect(lost.content).toMatch(/^⛔ .*already nominated/);
    const target = (await state()).day!.nominations[0]!.target;
    const shown = w.fake.message(turn.message.id)!.content;
    expect(shown).toMatch(new RegExp(`Nominated today: #${target} <@\\d+> \\(by #1\\)$`));
    expect(shown).not.toMatch(new RegExp(`#${target === 3 ? 5 : 3} <@`));
  });

  it('everybody votes at the same moment, some twice: each vote counts exactly once', async () => {
    // Finish the speeches (seat 1 nominated 3 or 5; seat 2 nominates the other one).
    expect(await d.step({ type: 'player', seat: 1, verb: 'pass' })).toBe('ok');
    const first = (await state()).day!.nominations[0]!.target;
    expect(await d.step({ type: 'player', seat: 2, verb: 'nominate', target: first === 3 ? 5 : 3 })).toBe('ok');
    for (let seat = 2; seat <= 10; seat++) expect(await d.step({ type: 'player', seat, verb: 'pass' })).toBe('ok');
    expect((await state()).stage.kind).toBe('vote');
    const vote = d.publicWith((id) => id.includes(':vote:3'))!;
    const table = d.tableMessage();
    const tableVersions = w.fake.history(table.id).length;
    const clicks = w.users.flatMap((u, i) => {
      const c = w.fake.click(u.id, vote.message, vote.id.replace(/:3$/, `:${i < 7 ? 3 : 5}`));
      return i % 3 === 0 ? [c, w.fake.click(u.id, vote.message, vote.id.replace(/:3$/, ':5'))] : [c];
    });
    const results = await Promise.all(clicks);
    await Promise.all(results.map((r) => r.settled()));
    await w.bot.idle();
    // Each click gets one private answer: "✅" for a vote counted, "⛔" for a refusal. An accepted
    // vote updates the vote message itself (the count) and tells the voter alone what he chose; a
    // refusal is a private reply (or, for a click on the vote just closed, the update that turns
    // its buttons off, and a private "⛔" follow-up).
    const answers = await Promise.all(
      results.map(async (r) => {
        const note = r.type === 4 ? r.message! : await r.followup(0);
        expect(note.flags & 64).toBe(64);
        if (r.type === 7) expect(r.message?.id).toBe(vote.message.id);
        else expect(r.type).toBe(4);
        return { r, text: note.content };
      }),
    );
    const accepted = answers.filter((a) => a.text.startsWith('✅ '));
    const refused = answers.filter((a) => !a.text.startsWith('✅ '));
    expect(accepted).toHaveLength(10);
    for (const a of accepted) {
      expect(a.r.type).toBe(7);
      expect(a.text).toMatch(/^✅ Your vote for #[35] <@\d+> is in\.$/);
    }
    // A second click is refused: the vote is in (or, for the very last click, the vote has closed).
    expect(refused).toHaveLength(4);
    for (const a of refused)
      expect(a.text).toMatch(
        /^⛔ (You have already voted; a vote cannot be changed|This has closed: the game has moved on)\.$/,
      );
    for (const a of refused)
      if (a.r.type === 7)
        expect(
          allComponents(a.r.message!)
            .filter((c) => c.custom_id)
            .every((c) => c.disabled),
        ).toBe(true);
    // The vote message showed how many have voted (never who voted for whom), never more than once each.
    // (Its last version says the vote is closed instead of who is missing.)
    const versions = w.fake.history(vote.message.id);
    expect(versions.at(-1)!.content).toMatch(/Closed\.$/);
    const counts = versions
      .filter((v) => !/Closed\.$/.test(v.content ?? ''))
      .map((v) => Number(/Voted: (\d+) of 10/.exec(v.content ?? '')?.[1] ?? -1));
    expect(counts.every((n, k) => n >= 0 && n <= 10 && (k === 0 || n >= counts[k - 1]!))).toBe(true);
    expect(w.fake.history(vote.message.id).some((v) => /→/.test(v.content ?? ''))).toBe(false);
    expect((await log()).filter((e) => e.action.kind === 'vote')).toHaveLength(10);
    // Each voter counted once: every user has one accepted click, and the vote record has one ballot per seat.
    const voters = (await log())
      .filter((e) => e.action.kind === 'vote')
      .map((e) => (e.action as { seat: number }).seat);
    expect([...voters].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const out = (await state()).out;
    expect(out).toEqual([{ seat: 3, by: 'vote', at: { phase: 'day', n: 1 }, nominatedBy: first === 3 ? 1 : 2 }]);
    // The tally was published, and the vote buttons are disabled.
    expect(
      w.fake
        .publicMessages(w.channel.id)
        .some((m) => /The vote is closed/.test(m.content) && /#3 <@\d+>: 7 votes/.test(m.content)),
    ).toBe(true);
    expect(
      allComponents(w.fake.message(vote.message.id)!)
        .filter((c) => c.custom_id)
        .every((c) => c.disabled),
    ).toBe(true);
    // The votes do not edit the table one by one (at most once, for the outcome); it has no countdown.
    expect(w.fake.history(table.id).length - tableVersions).toBeLessThanOrEqual(1);
    const desc = w.fake.message(table.id)!.embeds[0]!.description!;
    expect(desc.split('\n')[0]).toMatch(/^\*\*[^*<]*\b1\*\*$/); // the phase only (day / round 1): no countdown, no names
    expect(desc).not.toMatch(/<t:/);
  });

  it('a stale button (the stage has moved on) is refused and changes nothing', async () => {
    const before = await state();
    const staleVote = w.fake
      .publicMessages(w.channel.id)
      .find((m) => allComponents(m).some((c) => c.custom_id?.includes(':vote:')))!;
    const id = allComponents(staleVote).find((c) => c.custom_id?.includes(':vote:5'))!.custom_id!;
    const r = await w.fake.click(w.users[1]!.id, staleVote, id, { forge: true });
    expect(r.ephemeral).toBe(true);
    expect(r.content).toMatch(/^⛔ .*(has closed|no vote open)/);
    await w.bot.idle();
    expect(await state()).toEqual(before);
  });

  it('a player who left cannot act: last words are his, then nothing', async () => {
    // Seat 3 (voted out) gives his last words, then tries to act at night.
    expect(await d.step({ type: 'player', seat: 3, verb: 'pass' })).toBe('ok');
    expect((await state()).stage.kind).toBe('night');
    const before = await state();
    // His panel offers him nothing (no control at all).
    const panel = await d.panel(w.users[2]!.id);
    expect(panel).not.toBeNull();
    expect(allComponents(panel!)).toEqual([]);
    const forged = await w.fake.select(
      w.users[2]!.id,
      d.tableMessage(),
      `v1:a:${d.gameId}:${before.seq}:shoot`,
      ['5'],
      { forge: true },
    );
    expect(forged.ephemeral).toBe(true);
    expect(forged.content).toMatch(/^⛔ .*(left the table|no shot)/);
    await w.bot.idle();
    expect(await state()).toEqual(before);
  });

  it('a non-host cannot use host commands; bad command input is refused with a reason', async () => {
    const r = await w.fake.slash(w.users[0]!.id, w.channel.id, 'host', { sub: 'skip', options: {} });
    expect(r.ephemeral).toBe(true);
    expect(r.content).toMatch(/Only the host/);
    const busy = await w.fake.slash(w.host.id, w.channel.id, 'mafia', {
      sub: 'create',
      options: { ruleset: 'kiev-12' },
    });
    expect(busy.content).toMatch(/already open/);
    const seat = await w.fake.slash(w.host.id, w.channel.id, 'host', { sub: 'foul', options: { seat: 11 } });
    expect(seat.content).toMatch(/no such seat/);
    const other = w.fake.addChannel(w.guild.id, { name: 'other' });
    const timer = await w.fake.slash(w.host.id, other.id, 'mafia', {
      sub: 'create',
      options: { ruleset: 'kiev-12', night: 'soon' },
    });
    expect(timer.content).toMatch(/Option night: “soon” is not a duration/);
    const rules = await w.fake.slash(w.host.id, other.id, 'mafia', { sub: 'create', options: { ruleset: 'poker' } });
    expect(rules.content).toMatch(/Unknown rule set/);
  });
});
