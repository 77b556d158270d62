// The stage's message (one per stage or turn, with the news since the last one), the night's DM
// panels, news that does not fit, and closing a stage's controls when it ends. Written to the
// outbox inside the change's transaction, like everything the planner writes.
import type { OutboxStore, SlotRow } from '../db/outbox-store';
import type { Action, GameState } from '../engine/types';
import { seatView } from '../engine/view';
import { t, type Locale } from '../i18n';
import { type Contexts, userLocale } from './context';
import { disableAll, mentions, userOf, type GameCtx, type Payload } from './render/common';
import { stagePayload } from './render/game';
import { closedPanel, panelPayload } from './render/panel';
import { channelDest, dmDest } from './destinations';

const MAX_CONTENT = 2000;

export class StageMessages {
  constructor(
    private readonly outbox: OutboxStore,
    private readonly contexts: Contexts,
    private readonly now: () => number,
  ) {}

  /**
   * The stage that just ended: its message and night panels lose their controls, and its message
   * loses its countdown and says it is closed. The closing version rides on what happens anyway
   * where it can (`stale`: the click that ended the stage shows it for free, so does a later click
   * on an old control, and the repair after a restart). What no click will ever close gets an edit
   * of its own (`closed`): a night panel still holding controls (a night ends on its timer, N-13),
   * the post-game vote (it ends on its timer or by the host, S-4), and a stage message whose stage
   * ended on its timer or by the host. A message with no controls left is not edited.
   */
  async closeStage(ctx: GameCtx, prev: GameState, action: Action): Promise<void> {
    const now = this.now();
    // The players' own clicks on a stage's message (a turn's "Thank you", the last vote) answer
    // with its newest version: that stage message is closed for free.
    const byClick = 'seat' in action && !('system' in action);
    for (const slot of await this.outbox.liveSlots(ctx.game.id)) {
      const had = (JSON.parse(slot.payload) as Payload).components ?? [];
      if (had.length === 0) {
        // No controls to turn off. A night's or a discussion's own message still shows its end
        // ("ends in 40 s" would read "40 s ago"): it gets one edit saying it is over.
        const timed = slot.key === `stage:${prev.seq}` && (prev.deadline !== null || !!prev.paused);
        const ended = timed ? stagePayload({ ...ctx, state: prev }, null, true) : null;
        if (ended) {
          const head = slot.head ? (JSON.parse(slot.head) as Head) : null;
          await this.outbox.setSlot(ctx.game.id, slot.key, 'message', slot.dest, compose(head, ended), now, {
            state: 'closed',
          });
        } else await this.outbox.setState(ctx.game.id, slot.key, 'closed');
        continue;
      }
      if (slot.key.startsWith('panel:')) {
        const seat = Number(slot.key.split(':')[2]);
        if ('seat' in action && action.seat === seat && slot.key === `panel:${prev.seq}:${seat}`) continue; // done above
        const u = userOf(ctx, seat);
        if (!u || slot.dest !== dmDest(u)) continue; // closed when the seat changed hands
        const loc = userLocale(ctx, u);
        // A panel of a night that just ended is edited: its player did not finish acting, and no
        // click of his will come to close it ("night N is over", controls off).
        await this.outbox.setSlot(
          ctx.game.id,
          slot.key,
          'message',
          slot.dest,
          closedPanel(ctx, loc, seat, prev, null),
          now,
          {
            state: slot.key.startsWith(`panel:${prev.seq}:`) ? 'closed' : 'stale',
          },
        );
        continue;
      }
      const own = slot.key === `stage:${prev.seq}`;
      const ended = own ? stagePayload({ ...ctx, state: prev }, null, true) : null;
      const closed = ended
        ? compose(slot.head ? (JSON.parse(slot.head) as Head) : null, ended)
        : closedMessage(slot, ctx.pub);
      const free = own && byClick && prev.stage.kind !== 'postGame';
      await this.outbox.setSlot(
        ctx.game.id,
        slot.key,
        'message',
        slot.dest,
        { ...closed, components: disableAll(closed.components ?? []) },
        now,
        { state: own && !free ? 'closed' : 'stale' },
      );
    }
  }
  /**
   * The message of the current stage or turn (with the news since the last one), and the night's
   * panels by DM. Its clock starts when it is delivered.
   */
  async stage(ctx: GameCtx, lines: string[], embeds: NonNullable<Payload['embeds']> = []): Promise<void> {
    const s = ctx.state!;
    const now = this.now();
    const dest = channelDest(ctx.game.channelId);
    const deadline = await this.effectiveDeadline(ctx);
    const msg = stagePayload(ctx, deadline);
    if (!msg) {
      await this.news(ctx, lines, embeds);
      return;
    }
    let head: Head = { content: lines.join('\n\n'), embeds: [...embeds] };
    if (compose(head, msg).content!.length > MAX_CONTENT || embeds.length + (msg.embeds?.length ?? 0) > 10) {
      await this.news(ctx, lines, embeds);
      head = { content: '', embeds: [] };
    }
    const meta =
      s.deadline !== null
        ? { clock: { seq: s.seq, deadline: deadline ?? s.deadline }, what: s.stage.kind }
        : { what: s.stage.kind };
    await this.outbox.setSlot(ctx.game.id, `stage:${s.seq}`, 'message', dest, compose(head, msg), now, {
      meta,
      head,
    });
    if (s.stage.kind === 'night') {
      // Issue 20: when anyone acts tonight, every living player gets a DM at the same moment (the
      // panel, or "nothing to do tonight"), so a DM, and a DM that cannot be delivered, marks nobody.
      const acting = ctx.seats.filter((seat) => seatView(s, seat.seat).prompts.length > 0);
      for (const seat of ctx.seats) {
        if ((ctx.game.lobby.fallback ?? []).includes(seat.userId)) continue;
        if (acting.length === 0 || !s.players[seat.seat - 1]!.alive) continue;
        if (!acting.includes(seat)) {
          const loc = userLocale(ctx, seat.userId);
          await this.outbox.add(
            ctx.game.id,
            dmDest(seat.userId),
            'post',
            { content: t(loc, 'dm.sleep', { n: s.clock.n }), allowed_mentions: mentions() },
            now,
            { meta: { seat: seat.seat, what: 'sleep' }, key: `sleep:${s.seq}:${seat.seat}` },
          );
          continue;
        }
        const panel = panelPayload(ctx, seat.seat, userLocale(ctx, seat.userId));
        await this.outbox.setSlot(
          ctx.game.id,
          `panel:${s.seq}:${seat.seat}`,
          'message',
          dmDest(seat.userId),
          panel,
          now,
          {
            meta: { seat: seat.seat, what: 'panel' },
          },
        );
      }
    }
  }
  /** News that does not fit a stage message: its own posts, split at line boundaries. */
  async news(ctx: GameCtx, lines: string[], embeds: NonNullable<Payload['embeds']>): Promise<void> {
    const now = this.now();
    const dest = channelDest(ctx.game.channelId);
    let chunk = '';
    const flush = async () => {
      if (chunk)
        await this.outbox.add(ctx.game.id, dest, 'post', { content: chunk, allowed_mentions: mentions() }, now, {
          meta: { what: 'news' },
        });
      chunk = '';
    };
    for (const line of lines.splice(0)) {
      if (chunk && chunk.length + line.length + 2 > MAX_CONTENT) await flush();
      chunk = chunk ? `${chunk}\n\n${line}` : line.slice(0, MAX_CONTENT);
    }
    await flush();
    for (let i = 0; i < embeds.length; i += 10)
      await this.outbox.add(
        ctx.game.id,
        dest,
        'post',
        { embeds: embeds.slice(i, i + 10), allowed_mentions: mentions() },
        now,
        { meta: { what: 'news' } },
      );
    embeds.splice(0);
  }
  /**
   * The current stage's message, re-rendered. A nomination made on the turn's own message is
   * shown there; other news of the same stage gets its own post.
   */
  async refreshStage(ctx: GameCtx, lines: string[], action: Action): Promise<void> {
    const s = ctx.state!;
    const inline = action.kind === 'nominate' && (s.stage.kind === 'turns' || s.stage.kind === 'window');
    if (!inline) await this.news(ctx, lines, []);
    // A night's message never changes until the morning (N-13): nothing shows who acted.
    if (s.stage.kind === 'night' || s.stage.kind === 'night0') return;
    const slot = await this.outbox.slot(ctx.game.id, `stage:${s.seq}`);
    const msg = stagePayload(ctx, await this.effectiveDeadline(ctx));
    if (!slot || !msg) return;
    const head = slot.head ? (JSON.parse(slot.head) as Head) : null;
    await this.outbox.setSlot(ctx.game.id, slot.key, 'message', slot.dest, compose(head, msg), this.now(), {
      current: slot,
    });
  }
  /** The stage's deadline as players see it: moved by the delay before its message was seen. */
  async effectiveDeadline(ctx: GameCtx): Promise<number | null> {
    const s = ctx.state!;
    if (s.deadline === null) return null;
    const d = await this.contexts.deadline(ctx.game.id);
    return d && d.stageSeq === s.seq ? Math.max(d.dueAt, s.deadline) : s.deadline;
  }
}

/** The news a stage message opened with (kept so that later versions of it keep it too). */
interface Head {
  content: string;
  embeds: NonNullable<Payload['embeds']>;
}

function compose(head: Head | null, msg: Payload): Payload {
  const content = [head?.content, msg.content].filter(Boolean).join('\n\n');
  const embeds = [...(head?.embeds ?? []), ...(msg.embeds ?? [])];
  const out: Payload = { ...msg, content };
  if (embeds.length > 0) out.embeds = embeds;
  else delete out.embeds;
  return out;
}

/**
 * A stage message once its stage has ended: the same text without its countdown (a relative time
 * would read "8 s ago"), saying it is closed, every control disabled.
 */
export function closedMessage(slot: SlotRow, loc: Locale): Payload {
  const p = JSON.parse(slot.payload) as Payload;
  const content = (p.content ?? '').replace(COUNTDOWN, '');
  return {
    ...p,
    content: content.includes(t(loc, 'stage.closed')) ? content : `${content}\n${t(loc, 'stage.closed')}`,
    components: disableAll(p.components ?? []),
  };
}

/** The stage line's " ends <relative> (<date>)" (untilText), whatever the word before it. */
const COUNTDOWN = / \S+ <t:\d+:R>(?: \(<t:\d+:[a-zA-Z]>\))?/g;
