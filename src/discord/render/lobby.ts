// The lobby message: rule set, pace, host, joined players, Join / Leave / Start buttons.
import { ButtonStyle } from 'discord-api-types/v10';
import type { GameRow } from '../../db/store';
import { RULESETS } from '../../engine/rulesets';
import { t, type Locale, type MessageKey } from '../../i18n';
import { button, mentions, row, type Payload } from './common';
import { durationText, roleName, rulesetName } from './words';
import { resolveOptions } from '../../engine/options';
import type { Role } from '../../engine/types';

export interface LobbyExtra {
  /** Players the bot could not DM, with the fix. */
  unreachable?: string[];
  /** A one-line status (started, expired, cancelled). */
  status?: 'started' | 'expired' | 'cancelled';
}

export function lobbyPayload(game: GameRow, loc: Locale, extra: LobbyExtra = {}): Payload {
  const need = RULESETS[game.ruleset].players;
  const members = game.lobby.members;
  const fallback = new Set(game.lobby.fallback ?? []);
  const list =
    members.length === 0
      ? t(loc, 'lobby.empty')
      : members.map((u, i) => `${i + 1}. <@${u}>${fallback.has(u) ? ` ${t(loc, 'lobby.noDm')}` : ''}`).join('\n');
  const lines = [
    t(loc, 'lobby.host', { host: `<@${game.hostId}>` }),
    t(loc, game.rated ? 'lobby.rated' : 'lobby.casual'),
    ...(game.preset ? [t(loc, 'lobby.preset', { name: game.preset })] : []),
    t(loc, 'lobby.count', { count: members.length, need }),
    ...compositionLines(game, loc),
    '',
    list,
  ];
  const unreachable = extra.unreachable ?? [];
  if (unreachable.length > 0 && extra.status === undefined) {
    lines.push(
      '',
      t(loc, 'lobby.unreachable', { users: unreachable.map((u) => `<@${u}>`).join(', ') }),
      t(loc, 'lobby.howToFix'),
    );
  }
  if (extra.status) lines.push('', `**${t(loc, `lobby.status.${extra.status}` as MessageKey)}**`);
  const open = extra.status === undefined;
  // Issue 24: the server's lobby role is pinged by the lobby's own post (edits notify nobody); the
  // line goes once the lobby is closed.
  const ping = open ? (game.lobby.ping ?? null) : null;
  const buttons = [
    button(
      { kind: 'lobby', game: game.id, op: 'join' },
      t(loc, 'lobby.join'),
      ButtonStyle.Success,
      !open || members.length >= need,
    ),
    button({ kind: 'lobby', game: game.id, op: 'leave' }, t(loc, 'lobby.leave'), ButtonStyle.Secondary, !open),
    button(
      { kind: 'lobby', game: game.id, op: 'start' },
      t(loc, 'lobby.start'),
      ButtonStyle.Primary,
      !open || members.length !== need,
    ),
  ];
  if (open && unreachable.length > 0)
    buttons.push(
      button({ kind: 'lobby', game: game.id, op: 'fallback' }, t(loc, 'lobby.startFallback'), ButtonStyle.Danger),
    );
  buttons.push(
    button({ kind: 'lobby', game: game.id, op: 'cancel' }, t(loc, 'lobby.cancel'), ButtonStyle.Danger, !open),
  );
  const rulesButton = button(
    { kind: 'panel', game: game.id, panel: 'rules' },
    t(loc, 'button.rules'),
    ButtonStyle.Secondary,
    !open,
  );
  return {
    ...(game.lobby.ping !== undefined ? { content: ping ? t(loc, 'lobby.ping', { role: `<@&${ping}>` }) : '' } : {}),
    embeds: [
      {
        title: t(loc, 'lobby.title', {
          id: game.id,
          ruleset: rulesetName(loc, game.ruleset),
          pace: t(loc, `pace.${game.pace}` as MessageKey),
        }),
        description: lines.join('\n'),
        color: 0x2e86c1,
      },
    ],
    // Issue 21: how to play, for anybody (a second row when the first is full: five buttons a row).
    components: buttons.length < 5 ? [row(...buttons, rulesButton)] : [row(...buttons), row(rulesButton)],
    allowed_mentions: ping ? { parse: [], users: [], roles: [ping] } : mentions(),
  };
}

/** Issue 10: what players join — the rule set's roles and this game's timers (P-1). */
function compositionLines(game: GameRow, loc: Locale): string[] {
  const comp = RULESETS[game.ruleset].composition as Partial<Record<Role, number>>;
  const roles = (Object.entries(comp) as [Role, number][])
    .filter(([, n]) => n > 0)
    .map(([r, n]) => `${roleName(loc, r)}${n > 1 ? ` ×${n}` : ''}`);
  const timers = resolveOptions(game.ruleset, game.pace, game.options).timers;
  const day =
    RULESETS[game.ruleset].dayShape === 'discussion-accusations'
      ? (['discussion', 'accusation'] as const)
      : game.pace === 'async'
        ? (['discussion'] as const)
        : (['speech'] as const);
  const keys = ['night', ...day, 'vote', 'lastWords'] as const;
  const shown = keys.map((k) => `${t(loc, `timer.short.${k}` as MessageKey)} ${durationText(loc, timers[k])}`);
  return [
    t(loc, 'lobby.composition', { roles: roles.join(', ') }),
    t(loc, 'lobby.timers', { timers: shown.join(' · ') }),
  ];
}
