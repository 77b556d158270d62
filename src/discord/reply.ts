// Answering an interaction: private answers and refusals, the 3-second rule, payloads as
// discord.js options. Every command and component module answers through these.
import {
  MessageFlags,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Interaction,
  type InteractionReplyOptions,
  type StringSelectMenuInteraction,
} from 'discord.js';
import { toLocale, type Locale } from '../i18n';
import type { Payload } from './render/common';
import type { Turn } from '../app/keyed-queue';

export type Component = ButtonInteraction | StringSelectMenuInteraction;
export type Replyable = ChatInputCommandInteraction | Component;

/** How long to wait before deferring: Discord wants an answer within 3 seconds. */
const DEFER_AFTER_MS = 1500;

/** The language of the one who clicked or typed (`fallback` when his client's is not en, uk or ru). */
export function localeOf(i: Interaction, fallback: Locale = 'en'): Locale {
  return toLocale(i.locale) ?? fallback;
}

/** A private answer to the one who asked; it pings nobody. */
export async function say(i: Replyable, content: string, extra: InteractionReplyOptions = {}): Promise<void> {
  const body = { content, flags: MessageFlags.Ephemeral as const, allowedMentions: { parse: [] }, ...extra };
  if (i.deferred || i.replied) await i.followUp(body);
  else await i.reply(body);
}

/** A refusal: private, to the one who asked, marked so it cannot be mistaken for a confirmation. */
export function refuse(i: Replyable, text: string, turn?: Turn): Promise<void> {
  turn?.release(); // a refused click queues nothing: the next one of its game need not wait for this answer
  return say(i, `⛔ ${text}`);
}

/** A refusal as a private follow-up, after the click was already answered. */
export async function refuseAfter(i: Component, text: string): Promise<void> {
  await i.followUp({ content: `⛔ ${text}`, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
}

/**
 * Issue 22: a click that has already waited this long since Discord created it when its work
 * starts (the gateway or this process was behind: a backlog after a restart) is acknowledged
 * before the work, so a slow commit cannot make it miss Discord's 3 s.
 */
const ACK_FIRST_AFTER_MS = 1000;
/** The latest a deferral may leave, counted from the interaction's creation. */
const ACK_BY_MS = 2000;

/**
 * Runs `work`; if it takes longer than DEFER_AFTER_MS, acknowledges the interaction first
 * (`update`: a component's message is then edited in place, else a private reply follows). An
 * interaction that has waited before its work starts is acknowledged sooner (ACK_BY_MS after it
 * was created), or at once when it has waited ACK_FIRST_AFTER_MS already.
 */
export async function timely<T>(
  i: Replyable,
  update: boolean,
  work: () => Promise<T>,
  now: () => number = Date.now,
): Promise<T> {
  // (A holder: the compiler does not see the timer's callback set it.)
  const deferring: { ack: Promise<unknown> | null } = { ack: null };
  const defer = () => {
    const ack = update && !i.isChatInputCommand() ? i.deferUpdate() : i.deferReply({ flags: MessageFlags.Ephemeral });
    deferring.ack = ack.catch(() => undefined);
  };
  const waited = Math.max(0, now() - i.createdTimestamp);
  if (waited >= ACK_FIRST_AFTER_MS) {
    defer();
    await deferring.ack;
    return work();
  }
  const timer = setTimeout(defer, Math.min(DEFER_AFTER_MS, ACK_BY_MS - waited));
  try {
    return await work();
  } finally {
    clearTimeout(timer);
    // A deferral already on its way must land before the answer, or Discord sees two.
    if (deferring.ack) await deferring.ack;
  }
}

/**
 * Issue 22: acknowledges a click at once (a deferred update), before its work, when the work
 * cannot start inside Discord's 3 s (a burst after a restart). From then on the interaction's
 * answers go where a deferred click's answers go: `update` edits the message the click came from
 * (`editReply`), `reply` becomes a follow-up (private when it was to be private), and a deferral
 * asked for later is the one already made. Each waits for the acknowledgement to land first.
 * Slash commands are not acknowledged early: a deferral decides whether their answer is private.
 * False when the interaction is not a click, or was answered already.
 */
export function acknowledgeNow(i: Interaction): boolean {
  if (!(i.isButton() || i.isStringSelectMenu()) || i.deferred || i.replied) return false;
  const acked = i.deferUpdate().then(
    () => true,
    () => false,
  );
  const editReply = i.editReply.bind(i);
  const followUp = i.followUp.bind(i);
  const after =
    <A extends unknown[], R>(f: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      await acked;
      return f(...a);
    };
  Object.assign(i, {
    deferUpdate: after(async () => undefined),
    deferReply: after(async () => undefined),
    update: after(editReply),
    editReply: after(editReply),
    reply: after(followUp),
    followUp: after(followUp),
  });
  return true;
}

type AllowedMentions = { parse: ('users' | 'roles' | 'everyone')[]; users?: string[]; roles?: string[] };
export type ReplyBody = {
  content?: string;
  embeds?: Payload['embeds'];
  components?: Payload['components'];
  allowedMentions: { parse: [] };
};

/** A renderer payload as discord.js reply options (pings nobody). */
export function toReply(p: Payload): ReplyBody {
  return {
    ...(p.content !== undefined ? { content: p.content } : { content: '' }),
    ...(p.embeds ? { embeds: p.embeds } : { embeds: [] }),
    components: p.components ?? [],
    allowedMentions: { parse: [] },
  };
}

/** A REST message payload as a follow-up: its mentions ping as the payload allows. */
export function toFollowUp(p: Payload): Omit<ReplyBody, 'allowedMentions'> & { allowedMentions: AllowedMentions } {
  const am = (p as { allowed_mentions?: AllowedMentions }).allowed_mentions;
  return {
    ...toReply(p),
    allowedMentions: {
      parse: am?.parse ?? [],
      ...(am?.users ? { users: am.users } : {}),
      ...(am?.roles ? { roles: am.roles } : {}),
    },
  };
}
