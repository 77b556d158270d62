// `/mafia setup check` (issue 24): what the bot may do in this channel and what the server's
// settings ask of it, checked and said with the fix, privately, in the reader's language. The
// channel's permissions are the interaction's own (`app_permissions`: Discord's answer for this
// channel, no request spent); a setting's channel and roles are read from the gateway's cache. With
// `dms:true`, the players of the lobby open here are sent the DM check a lobby sends (players who
// had a DM from the bot lately count as reachable without another one).
import {
  MessageFlags,
  PermissionFlagsBits,
  type ChatInputCommandInteraction,
  type GuildTextBasedChannel,
  type PermissionsBitField,
} from 'discord.js';
import { canHost } from '../app/hosts';
import { readSettings } from '../app/settings';
import type { Store } from '../db/store';
import type { Deliverer } from '../delivery/deliverer';
import { t, toLocale, type Locale, type MessageKey } from '../i18n';
import { unreachablePlayers } from './dm-check';
import { memberOf } from './host-tools';

/** One line of the answer: fine, to fix, or worth knowing. */
export interface CheckLine {
  status: 'ok' | 'fix' | 'info';
  text: string;
}

const F = PermissionFlagsBits;

/** The channel's permissions the bot needs, each group with what it is for. */
const CHANNEL_CHECKS: { key: string; need: bigint[]; anyOf?: boolean }[] = [
  { key: 'play', need: [F.ViewChannel, F.SendMessages, F.EmbedLinks, F.ReadMessageHistory] },
  { key: 'pin', need: [F.ManageMessages, F.PinMessages], anyOf: true },
  { key: 'speakers', need: [F.ManageRoles] },
  { key: 'threads', need: [F.CreatePrivateThreads, F.SendMessagesInThreads, F.ManageThreads] },
  { key: 'files', need: [F.AttachFiles] },
  { key: 'tables', need: [F.ManageChannels] },
];

/** Discord's names of the permissions, as its settings show them in the reader's language. */
const PERMISSION_NAMES = new Map<bigint, MessageKey>([
  [F.ViewChannel, 'perm.viewChannel'],
  [F.SendMessages, 'perm.sendMessages'],
  [F.EmbedLinks, 'perm.embedLinks'],
  [F.ReadMessageHistory, 'perm.readHistory'],
  [F.ManageMessages, 'perm.manageMessages'],
  [F.PinMessages, 'perm.pinMessages'],
  [F.ManageRoles, 'perm.manageRoles'],
  [F.CreatePrivateThreads, 'perm.createPrivateThreads'],
  [F.SendMessagesInThreads, 'perm.sendInThreads'],
  [F.ManageThreads, 'perm.manageThreads'],
  [F.AttachFiles, 'perm.attachFiles'],
  [F.ManageChannels, 'perm.manageChannels'],
  [F.MentionEveryone, 'perm.mentionEveryone'],
]);

const permName = (loc: Locale, p: bigint): string => `**${t(loc, PERMISSION_NAMES.get(p)!)}**`;

/** The lines about this channel's permissions (pure: tested without Discord). */
export function channelLines(loc: Locale, has: (p: bigint) => boolean): CheckLine[] {
  return CHANNEL_CHECKS.map((c) => {
    const missing = c.anyOf ? (c.need.some(has) ? [] : c.need) : c.need.filter((p) => !has(p));
    if (missing.length === 0) return { status: 'ok', text: t(loc, `setup.ok.${c.key}` as MessageKey) };
    const names = missing.map((p) => permName(loc, p)).join(c.anyOf ? t(loc, 'setup.or') : ', ');
    // Only tournaments' own channels need Manage Channels (without it the head host names them).
    return {
      status: c.key === 'tables' ? 'info' : 'fix',
      text: t(loc, `setup.missing.${c.key}` as MessageKey, { perms: names }),
    };
  });
}

export class SetupCheck {
  constructor(
    private readonly store: Store,
    private readonly deliverer: Deliverer,
    private readonly now: () => number,
  ) {}

  async run(i: ChatInputCommandInteraction, loc: Locale): Promise<void> {
    const guildId = i.guildId!;
    const settings = await readSettings(this.store, guildId);
    // Hosts' business: Manage Server or the server's host role (a DM check writes to players).
    if (!canHost(memberOf(i), { hostId: '' }, settings.hostRole))
      return void (await i.reply({
        content: `⛔ ${t(loc, 'refusal.setup/permission')}`,
        flags: MessageFlags.Ephemeral,
      }));
    const dms = i.options.getBoolean('dms') ?? false;
    // The DM checks may wait for the request budget: answered within 15 minutes after the defer.
    await i.deferReply({ flags: MessageFlags.Ephemeral });
    const perms = i.appPermissions;
    const lines: CheckLine[] = [
      ...channelLines(loc, (p) => perms?.has(p) === true),
      ...this.settingsLines(loc, settings, i),
    ];
    if (dms) lines.push(...(await this.dmLines(loc, i.channelId, settings.language)));
    const fixes = lines.filter((l) => l.status === 'fix').length;
    const icon = { ok: '✅', fix: '❌', info: 'ℹ️' } as const;
    await i.editReply({
      embeds: [
        {
          title: t(loc, 'setup.title'),
          description: lines.map((l) => `${icon[l.status]} ${l.text}`).join('\n'),
          color: fixes > 0 ? 0xe67e22 : 0x2ecc71,
          footer: { text: fixes > 0 ? t(loc, 'setup.footerFix', { count: fixes }) : t(loc, 'setup.footerOk') },
        },
      ],
      allowedMentions: { parse: [] },
    });
  }

  private settingsLines(
    loc: Locale,
    s: Awaited<ReturnType<typeof readSettings>>,
    i: ChatInputCommandInteraction,
  ): CheckLine[] {
    const out: CheckLine[] = [];
    const guild = i.guild;
    if (s.ruleset === null) out.push({ status: 'info', text: t(loc, 'setup.noRuleset') });
    if (s.resultsChannel) {
      const client = i.client;
      const ch = client.channels.cache.get(s.resultsChannel) as GuildTextBasedChannel | undefined;
      const p: Readonly<PermissionsBitField> | null =
        ch && 'permissionsFor' in ch ? ch.permissionsFor(client.user) : null;
      const channel = `<#${s.resultsChannel}>`;
      if (!ch) out.push({ status: 'fix', text: t(loc, 'setup.resultsGone', { channel }) });
      else if (!p?.has([F.ViewChannel, F.SendMessages, F.EmbedLinks]))
        out.push({ status: 'fix', text: t(loc, 'setup.resultsBlocked', { channel }) });
      else out.push({ status: 'ok', text: t(loc, 'setup.resultsOk', { channel }) });
    }
    if (s.hostRole && guild && !guild.roles.cache.has(s.hostRole))
      out.push({ status: 'fix', text: t(loc, 'setup.hostRoleGone') });
    if (s.lobbyRole && guild) {
      const role = guild.roles.cache.get(s.lobbyRole);
      if (!role) out.push({ status: 'fix', text: t(loc, 'setup.lobbyRoleGone') });
      else if (!role.mentionable && !i.appPermissions?.has(F.MentionEveryone))
        out.push({
          status: 'fix',
          text: t(loc, 'setup.lobbyRoleSilent', {
            role: `<@&${role.id}>`,
            perms: permName(loc, F.MentionEveryone),
          }),
        });
      else out.push({ status: 'ok', text: t(loc, 'setup.lobbyRoleOk', { role: `<@&${role.id}>` }) });
    }
    return out;
  }

  /** The DM check of the lobby open in this channel: who the bot cannot write to. */
  private async dmLines(loc: Locale, channelId: string, language: string): Promise<CheckLine[]> {
    const lobby = (await this.store.activeGamesInChannel(channelId)).find((g) => g.status === 'lobby');
    if (!lobby) return [{ status: 'info', text: t(loc, 'setup.dmsNoLobby') }];
    const members = lobby.lobby.members;
    if (members.length === 0) return [{ status: 'info', text: t(loc, 'setup.dmsEmpty') }];
    const closed = await unreachablePlayers(this.deliverer, lobby, members, toLocale(language) ?? loc, this.now());
    if (closed.length === 0) return [{ status: 'ok', text: t(loc, 'setup.dmsOk', { count: members.length }) }];
    return [{ status: 'fix', text: t(loc, 'setup.dmsClosed', { users: closed.map((u) => `<@${u}>`).join(', ') }) }];
  }
}
