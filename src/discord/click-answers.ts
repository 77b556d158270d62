// How a click is answered with the message it came from. A game message that is edited in place
// (the lobby, a stage's message, a DM panel) is an outbox slot with versions; answering a click by
// updating that message to the slot's newest version costs none of the bot's request budget, and
// it is recorded as delivered. The last write to finish is what Discord shows: an older answer
// that lands after a newer one leaves the slot dirty, and the deliverer puts it right.
import { MessageFlags } from 'discord.js';
import type { Deliverer } from '../delivery/deliverer';
import type { OutboxStore } from '../db/outbox-store';
import type { Payload } from './render/common';
import { refuse, refuseAfter, toFollowUp, toReply, type Component } from './reply';

export type Slot = NonNullable<Awaited<ReturnType<OutboxStore['slot']>>>;

export class ClickAnswers {
  constructor(
    private readonly outbox: OutboxStore,
    private readonly deliverer: Deliverer,
  ) {}

  /** The slot as it is now. */
  slot(gameId: number, key: string): Promise<Slot | null> {
    return this.outbox.slot(gameId, key);
  }

  /** The slot of the message a click came from; `guess` names it when the message id is not recorded yet. */
  async slotOfMessage(i: Component, gameId: number, guess: string): Promise<Slot | null> {
    // A click can come before the bot has recorded the new message's id.
    const known = await this.outbox.slotByMessage(i.message.id);
    if (known) return known;
    const byKey = await this.outbox.slot(gameId, guess);
    return byKey && (byKey.messageId === null || byKey.messageId === i.message.id) ? byKey : null;
  }

  /** A click's answer showed this version of the slot's message; an older one that won the race is edited again. */
  private async shown(gameId: number, key: string, version: number, messageId: string): Promise<void> {
    if (await this.outbox.shownSlot(gameId, key, version, messageId)) this.deliverer.kick();
  }

  /**
   * Answers a click by updating the message it came from to its slot's newest version; when the
   * message is not the slot's (or not recorded yet), just acknowledges the click and says false.
   */
  async showSlot(i: Component, gameId: number, key: string): Promise<boolean> {
    const slot = await this.outbox.slot(gameId, key);
    if (!slot || slot.messageId !== i.message.id) {
      await i.deferUpdate();
      return false;
    }
    await i.update(toReply(JSON.parse(slot.payload) as Payload));
    await this.shown(gameId, key, slot.version, i.message.id);
    return true;
  }

  /**
   * The message the click came from, to its slot's newest version, whether the click was
   * answered already (deferred) or not; false when the slot is gone.
   */
  async showNewest(i: Component, slot: Slot): Promise<boolean> {
    const now = await this.outbox.slot(slot.gameId, slot.key);
    if (!now) return false;
    const body = toReply(JSON.parse(now.payload) as Payload);
    if (i.deferred) await i.editReply(body);
    else await i.update(body);
    await this.shown(now.gameId, now.key, now.version, i.message.id);
    return true;
  }

  /**
   * A refusal that may come from an out-of-date message ("already joined" on a lobby that does not
   * list him yet): the message is brought to its newest version in the same answer (free), and
   * the refusal follows in private.
   */
  async refuseShowing(i: Component, gameId: number, key: string, text: string): Promise<void> {
    const slot = await this.outbox.slot(gameId, key);
    if (!slot || slot.messageId !== i.message.id || slot.sentVersion >= slot.version) return refuse(i, text);
    await this.showSlot(i, gameId, key);
    await refuseAfter(i, text);
  }

  /**
   * A click on a control of a stage that is over: the click itself turns the old message's
   * controls off (free), and the player is told why. False when there is nothing to turn off.
   */
  async refuseClosed(i: Component, slot: Slot | null, text: string): Promise<boolean> {
    const closed = slot ? await this.outbox.slot(slot.gameId, slot.key) : null;
    if (!closed || closed.state === 'live' || closed.version <= closed.sentVersion) return false;
    if (closed.messageId !== null && closed.messageId !== i.message.id) return false;
    if (!(await this.showNewest(i, closed))) return false;
    await refuseAfter(i, text);
    return true;
  }

  /** After a deferred update: the message the click came from, to its slot's newest version. */
  async editSlot(i: Component, gameId: number, key: string): Promise<void> {
    const slot = await this.outbox.slot(gameId, key);
    if (!slot || slot.messageId !== i.message.id) return;
    await i.editReply(toReply(JSON.parse(slot.payload) as Payload));
    await this.shown(gameId, key, slot.version, i.message.id);
  }

  /**
   * The messages a click closes for free (its stage's message, the clicker's DM panel) are closed
   * by the click's answer only when the click came from them. A click from another message (the
   * private panel in the channel instead of the DM one, an ephemeral menu) leaves them waiting for
   * a click that will not come: they get an edit of their own. `shown`: the key the answer showed.
   */
  async settle(gameId: number, keys: readonly string[], shown: string | null): Promise<void> {
    let woken = 0;
    for (const key of keys) if (key !== shown) woken += await this.outbox.wakeStale(gameId, key);
    if (woken > 0) this.deliverer.kick();
  }

  /**
   * The channel's posts waiting after this click's commit (the next turn's message, news) are
   * handed to the click: they go out as its follow-ups, outside the bot's request budget. Call it
   * right after the commit, before anything else is awaited (the deliverer's next pass would post
   * them), and always call what it gives.
   */
  async claimPosts(i: Component): Promise<() => Promise<void>> {
    // A follow-up carries the clicking user's name: only a click on a public message may have
    // them (a private panel's click is secret, and so is what it causes; issue 20).
    if (!i.inGuild() || !i.channelId || i.message.flags.has(MessageFlags.Ephemeral)) return async () => undefined;
    const dest = `ch:${i.channelId}` as const;
    const rows = await this.deliverer.claim(dest, i.id);
    if (rows.length === 0) return async () => undefined;
    return () =>
      this.deliverer.deliverVia(dest, rows, async (body) => {
        const m = await i.followUp(toFollowUp(body));
        return { id: m.id, channelId: m.channelId };
      });
  }
}
