// The audience check (issue 20): every outbox write is addressed to an audience and refused when
// that audience may not know it at that moment. Each case below is a leak the check must stop.
import { describe, expect, it } from 'vitest';
import type { GameEffect } from '../../src/app/game-service';
import type { GameRow } from '../../src/db/store';
import type { OutboxWrite } from '../../src/db/outbox-store';
import { createGame } from '../../src/engine/apply';
import type { GameState } from '../../src/engine/types';
import { AudienceError, AudienceGate, audienceOf } from '../../src/discord/audience';
import type { Contexts } from '../../src/discord/context';
import type { GameCtx } from '../../src/discord/render/common';
import { TEN } from '../engine/drive';

const HOST = 'host';
const user = (seat: number) => `u${seat}`;

function ctxOf(state: GameState, hostPlays = false): GameCtx {
  const game = { id: 1, hostId: hostPlays ? user(1) : HOST, channelId: 'c1', lobby: {} } as unknown as GameRow;
  const seats = state.players.map((p) => ({ seat: p.seat, userId: user(p.seat), role: p.role, locale: null }));
  return { game, state, seats, pub: 'en', names: new Map() };
}

function gate(ctx: GameCtx, strict = true): { g: AudienceGate; errors: string[] } {
  const errors: string[] = [];
  const contexts = { fromRow: () => ({ ...ctx }), build: () => ({ ...ctx }) } as unknown as Contexts;
  return { g: new AudienceGate(contexts, { error: (m) => errors.push(m) }, strict), errors };
}

const night = (): GameState => {
  const s = createGame('classic-10', { roles: TEN }, {}, 'live', { now: 0 });
  return { ...s, stage: { ...s.stage, kind: 'night' } as GameState['stage'] };
};

const write = (w: Partial<OutboxWrite>): OutboxWrite => ({
  gameId: 1,
  dest: 'ch:c1',
  op: 'post',
  payload: {},
  meta: {},
  ...w,
});

describe('the audience of a write follows from where it goes', () => {
  const ctx = ctxOf(night());
  it('channel → public, thread → team or spectators, DM → seat, host or member', async () => {
    const c = async () => ctx;
    expect((await audienceOf(write({ dest: 'ch:c1' }), c)).kind).toBe('public');
    expect((await audienceOf(write({ dest: 'th:1' }), c)).kind).toBe('team');
    expect((await audienceOf(write({ dest: 'tm:c1:thread' }), c)).kind).toBe('team');
    expect((await audienceOf(write({ dest: 'tm:c1:spectators' }), c)).kind).toBe('spectators');
    expect(
      (await audienceOf(write({ dest: 'th:1', op: 'slot', slot: { key: 'spectators', kind: 'thread' } }), c)).kind,
    ).toBe('spectators');
    expect(await audienceOf(write({ dest: 'dm:u4', meta: { seat: 4 } }), c)).toMatchObject({ kind: 'seat', seat: 4 });
    expect(await audienceOf(write({ dest: 'dm:u4' }), c)).toMatchObject({ kind: 'seat', seat: 4 });
    expect((await audienceOf(write({ dest: 'dm:host', meta: { what: 'overdue' } }), c)).kind).toBe('host');
    expect((await audienceOf(write({ dest: 'dm:stranger' }), c)).kind).toBe('member');
  });
});

describe('what each audience may be sent (issue 20)', () => {
  const ctx = ctxOf(night());
  const refused = (w: OutboxWrite, c = ctx) => {
    const { g } = gate(c);
    return () => g.guard(w);
  };

  it('a private kind (card, panel, check, gesture, reminder) never goes to the channel', async () => {
    for (const what of ['card', 'panel', 'check', 'gesture', 'reminder', 'sleep', 'frozen'])
      await expect(refused(write({ meta: { what } }))()).rejects.toThrow(AudienceError);
    expect(await refused(write({ meta: { what: 'news' } }))()).toEqual({ what: 'news' });
  });

  it('a DM for a seat goes only to whoever holds that seat now', async () => {
    await expect(refused(write({ dest: 'dm:u5', meta: { seat: 4, what: 'card' } }))()).rejects.toThrow(/not held/);
    expect(await refused(write({ dest: 'dm:u4', meta: { seat: 4, what: 'card' } }))()).toBeTruthy();
  });

  it("a night panel's later versions (no meta) are checked by its key: never to one who no longer holds the seat", async () => {
    const edit = (dest: `dm:${string}`) =>
      write({ dest, op: 'slot', slot: { key: 'panel:7:4', kind: 'message' }, meta: {} });
    await expect(refused(edit('dm:u5'))()).rejects.toThrow(/not held/);
    expect(await refused(edit('dm:u4'))()).toEqual({});
  });

  it("a check's answer goes only to a checker, a gesture only to the mafia", async () => {
    // TEN: mafia 3 and 8, Don 6, Sheriff 4.
    expect(await refused(write({ dest: 'dm:u4', meta: { seat: 4, what: 'check' } }))()).toBeTruthy();
    expect(await refused(write({ dest: 'dm:u6', meta: { seat: 6, what: 'check' } }))()).toBeTruthy();
    await expect(refused(write({ dest: 'dm:u1', meta: { seat: 1, what: 'check' } }))()).rejects.toThrow(/check/);
    expect(await refused(write({ dest: 'dm:u3', meta: { seat: 3, what: 'gesture' } }))()).toBeTruthy();
    await expect(refused(write({ dest: 'dm:u4', meta: { seat: 4, what: 'gesture' } }))()).rejects.toThrow(/gesture/);
  });

  it('a private kind never goes to someone not at the table', async () => {
    await expect(refused(write({ dest: 'dm:stranger', meta: { what: 'card' } }))()).rejects.toThrow(/not at the table/);
    expect(await refused(write({ dest: 'dm:stranger', meta: { what: 'substitute' } }))()).toBeTruthy();
  });

  it('who owes a night action is never told to a host who plays (N-13)', async () => {
    const playing = ctxOf(night(), true);
    // u1 holds seat 1 and hosts: the notice is for the host, not the seat.
    const w = write({ dest: 'dm:u1', meta: { what: 'overdue' } });
    await expect(refused(w, playing)()).rejects.toThrow(/host who plays/);
    expect(await refused(write({ dest: 'dm:host', meta: { what: 'overdue' } }))()).toBeTruthy();
    // A host who sat at the table and was replaced still knows his seat's side: he plays.
    const contexts = { fromRow: () => ctx, build: () => ctx } as unknown as Contexts;
    const replaced = new AudienceGate(contexts, { error: () => undefined }, true, (_c, u) => u === HOST);
    await expect(replaced.guard(write({ dest: 'dm:host', meta: { what: 'absent' } }))).rejects.toThrow(
      /host who plays/,
    );
  });

  it('the mafia thread takes only living black players who know each other (G-4, M-2, G-5)', async () => {
    const add = (members: string[]) => write({ dest: 'tm:c1:thread', op: 'thread', payload: { members } });
    expect(await refused(add(['u3', 'u6', 'u8']))()).toBeTruthy();
    await expect(refused(add(['u3', 'u4']))()).rejects.toThrow(/u4/);
    const s = night();
    const dead = { ...s, players: s.players.map((p) => (p.seat === 8 ? { ...p, alive: false } : p)) };
    await expect(refused(add(['u3', 'u8']), ctxOf(dead))()).rejects.toThrow(/u8/);
    // Taking members out is always allowed.
    expect(
      await refused(write({ dest: 'tm:c1:thread', op: 'thread', payload: { members: ['u4'], remove: true } }))(),
    ).toBeTruthy();
  });

  it('the spectators never include a living player (M-3)', async () => {
    const add = (members: string[]) => write({ dest: 'tm:c1:spectators', op: 'thread', payload: { members } });
    expect(await refused(add(['stranger']))()).toBeTruthy();
    await expect(refused(add(['u2']))()).rejects.toThrow(/u2/);
  });

  it('outside tests a refused write is dropped and logged, not thrown', async () => {
    const { g, errors } = gate(ctx, false);
    expect(await g.guard(write({ meta: { what: 'card' } }))).toBe(false);
    expect(errors).toHaveLength(1);
  });
});

describe('what a night action causes (N-13, issue 20)', () => {
  const s = night();
  const ctx = ctxOf(s);
  const effect = (next: GameState): GameEffect =>
    ({
      kind: 'action',
      game: ctx.game,
      prev: s,
      state: next,
      events: [],
      action: { kind: 'shoot', seat: 3, target: 1, seq: s.seq },
    }) as unknown as GameEffect;

  it('a night action that does not end the night writes nothing public', async () => {
    const { g } = gate(ctx);
    await expect(
      g.around(effect(s), async () => void (await g.guard(write({ meta: { what: 'news' } })))),
    ).rejects.toThrow(/night action/);
    // ...but the actor's own panel, by DM, is fine.
    await g.around(
      effect(s),
      async () => void (await g.guard(write({ dest: 'dm:u3', meta: { seat: 3, what: 'panel' } }))),
    );
  });

  it('the morning it causes is public, marked so that no click takes it as a follow-up', async () => {
    const { g } = gate(ctx);
    let meta: unknown;
    await g.around(effect({ ...s, seq: s.seq + 1 }), async () => {
      meta = await g.guard(write({ meta: { what: 'day' } }));
    });
    expect(meta).toEqual({ what: 'day', origin: 'secret' });
    // A host's ruling is not secret.
    const host = { ...effect({ ...s, seq: s.seq + 1 }), action: { kind: 'host-skip', seq: s.seq } } as GameEffect;
    await g.around(host, async () => {
      meta = await g.guard(write({ meta: { what: 'day' } }));
    });
    expect(meta).toEqual({ what: 'day' });
  });
});
