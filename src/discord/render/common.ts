// Shared pieces of rendering: the game context, seat labels, message payload types.
import { ActionRowBuilder, ButtonBuilder, StringSelectMenuBuilder } from '@discordjs/builders';
import { ButtonStyle } from 'discord-api-types/v10';
import type { APIActionRowComponent, APIComponentInMessageActionRow, APIEmbed } from 'discord-api-types/v10';
import type { GameRow } from '../../db/store';
import type { GameState, Role, Seat } from '../../engine/types';
import { t, type Locale, type MessageKey, type Params } from '../../i18n';
import { encodeId, type CustomId } from '../custom-id';

export interface SeatInfo {
  seat: Seat;
  userId: string;
  role: Role;
  locale: Locale | null;
}

/** Everything a renderer needs about one game. */
export interface GameCtx {
  game: GameRow;
  state: GameState | null;
  seats: SeatInfo[];
  /** The language of public messages in this game's server. */
  pub: Locale;
  /** Display names by user id (for menus, where mentions do not render). */
  names: Map<string, string>;
}

export interface Payload {
  content?: string;
  embeds?: APIEmbed[];
  components?: APIActionRowComponent<APIComponentInMessageActionRow>[];
  allowed_mentions?: { parse: ('users' | 'roles' | 'everyone')[]; users?: string[]; roles?: string[] };
}

/** No accidental pings: only the users named here are notified. */
export function mentions(users: string[] = []): NonNullable<Payload['allowed_mentions']> {
  return { parse: [], users };
}

export const tr = t;
export type { Locale, MessageKey, Params };

export function userOf(ctx: GameCtx, seat: Seat): string | null {
  return ctx.seats.find((s) => s.seat === seat)?.userId ?? null;
}

/** "#3 <@id>" — the seat number and the player (a mention, which does not ping in embeds). */
export function seatTag(ctx: GameCtx, seat: Seat): string {
  const u = userOf(ctx, seat);
  return u ? `#${seat} <@${u}>` : `#${seat}`;
}

export function seatList(ctx: GameCtx, seats: readonly Seat[]): string {
  return seats.map((s) => seatTag(ctx, s)).join(', ');
}

/** A deadline as Discord timestamps: relative and absolute ("in 5 hours (1 March 2027 14:05)"). */
/**
 * A deadline as Discord shows it in each reader's time zone: "in 5 minutes", and for a game over
 * days also the date and time (`long`); a live game's turn of seconds needs no date (issue 21).
 */
export function relTime(ms: number | null, long = true): string {
  if (ms === null) return '';
  const sec = Math.floor(ms / 1000);
  return long ? `<t:${sec}:R> (<t:${sec}:f>)` : `<t:${sec}:R>`;
}

export function button(
  id: CustomId,
  label: string,
  style: ButtonStyle = ButtonStyle.Secondary,
  disabled = false,
): ButtonBuilder {
  return new ButtonBuilder()
    .setCustomId(encodeId(id))
    .setLabel(label.slice(0, 80))
    .setStyle(style)
    .setDisabled(disabled);
}

export function row(...components: (ButtonBuilder | StringSelectMenuBuilder)[]) {
  return new ActionRowBuilder<ButtonBuilder | StringSelectMenuBuilder>()
    .addComponents(...components)
    .toJSON() as APIActionRowComponent<APIComponentInMessageActionRow>;
}

/** Buttons in rows of five. */
export function buttonRows(buttons: ButtonBuilder[]): Payload['components'] {
  const rows: NonNullable<Payload['components']> = [];
  for (let i = 0; i < buttons.length; i += 5) rows.push(row(...buttons.slice(i, i + 5)));
  return rows;
}

/** A select of seats, labelled with the players' names when known. */
export function seatSelect(
  ctx: GameCtx,
  id: CustomId,
  placeholder: string,
  seats: readonly Seat[],
  minMax: [number, number] = [1, 1],
): StringSelectMenuBuilder {
  const menu = new StringSelectMenuBuilder()
    .setCustomId(encodeId(id))
    .setPlaceholder(placeholder.slice(0, 150))
    .setMinValues(minMax[0])
    .setMaxValues(Math.min(minMax[1], seats.length));
  menu.addOptions(
    seats.map((seat) => {
      const u = userOf(ctx, seat);
      const name = u ? ctx.names.get(u) : undefined;
      return { label: `#${seat}${name ? ` ${name}` : ''}`.slice(0, 100), value: String(seat) };
    }),
  );
  return menu;
}

/** Every component of a payload disabled (a closed stage). */
export function disableAll(components: unknown): Payload['components'] {
  if (!Array.isArray(components)) return [];
  return components.map((r: { type: number; components: Record<string, unknown>[] }) => ({
    ...r,
    components: r.components.map((c) => ({ ...c, disabled: true })),
  })) as Payload['components'];
}

/** Lines joined into messages of at most `max` characters, never cutting a line. */
export function chunkLines(lines: readonly string[], max: number): string[] {
  const out: string[] = [];
  let cur = '';
  for (const raw of lines) {
    const line = raw.length > max ? `${raw.slice(0, max - 1)}…` : raw;
    if (cur && cur.length + 1 + line.length > max) {
      out.push(cur);
      cur = line;
    } else cur = cur ? `${cur}\n${line}` : line;
  }
  if (cur.trim()) out.push(cur);
  return out;
}
