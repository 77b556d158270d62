// Tournaments on Discord: the replies shared by the command and the buttons (ephemeral answers,
// refusals, the standings pages and the CSV export) and who may run tournaments.
import {
  AttachmentBuilder,
  MessageFlags,
  PermissionFlagsBits,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Client,
  type PermissionsBitField,
  type StringSelectMenuInteraction,
} from 'discord.js';
import type { TableView, TournamentRules, TourRefusal } from '../app/tournaments';
import type { TournamentRow } from '../db/tournament-store';
import { t, type Locale } from '../i18n';
import type {} from './render/common';
import { refusalText } from './render/words';
import { standingsPayload } from './tournament-render';

type Component = ButtonInteraction | StringSelectMenuInteraction;
type Any = ChatInputCommandInteraction | Component;

/**
 * Who may run tournaments: Manage Server, or the server's host role (issue 11's setting, where the
 * branch has it; here the server settings have no host role yet, so Manage Server only).
 */
export function canManageTournaments(
  perms: Readonly<PermissionsBitField> | null | undefined,
  memberRoles: readonly string[] = [],
  hostRoleId: string | null = null,
): boolean {
  if (perms?.has(PermissionFlagsBits.ManageGuild)) return true;
  return hostRoleId !== null && memberRoles.includes(hostRoleId);
}

/** A refusal's text: its message with its parameters. */
export function refusalLine(loc: Locale, r: TourRefusal): string {
  return r.params ? t(loc, `refusal.${r.code}` as never, r.params) : refusalText(loc, r.code);
}

/** T-3: the live standings, paginated; the final result with the winner; CSV on request. */
export async function standingsReply(
  i: Any,
  loc: Locale,
  rules: TournamentRules,
  client: Client,
  tour: TournamentRow,
  { page, csv, ephemeral }: { page: number; csv: boolean; ephemeral: boolean },
): Promise<void> {
  const { table, tables, counted, total } = await rules.standings(tour);
  // A public message speaks the tournament's language; one only the clicker sees, his own.
  const ephemeralMessage = !i.isChatInputCommand() && (i as Component).message.flags.has(MessageFlags.Ephemeral);
  const isPublic = i.isChatInputCommand() ? true : !ephemeral && !ephemeralMessage;
  const finished = tour.status === 'finished';
  const speak = isPublic ? (tour.locale as Locale) : loc;
  const payload = standingsPayload(tour, speak, table, counted, total, page, finished);
  const files = csv ? [await csvFile(rules, client, tour, tables)] : [];
  const flags = ephemeral ? { flags: MessageFlags.Ephemeral as const } : {};
  const view = { embeds: payload.embeds!, components: payload.components!, allowedMentions: { parse: [] as [] } };
  if (i.isChatInputCommand() || ephemeral) await i.reply({ ...view, files, ...flags });
  else await (i as Component).update(view);
}

/** The tables as a CSV file (names: registered, else the user's on Discord). */
export async function csvFile(
  rules: TournamentRules,
  client: Client,
  tour: TournamentRow,
  tables: TableView[],
): Promise<AttachmentBuilder> {
  const csv = await rules.csv(tour, tables, (u) => client.users.cache.get(u)?.username);
  const file = { name: `tournament-${tour.id}.csv`, description: tour.name };
  return new AttachmentBuilder(Buffer.from(csv, 'utf8'), file);
}
