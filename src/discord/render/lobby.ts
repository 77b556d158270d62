// The lobby message: rule set, pace, host, joined players, Join / Leave / Start buttons.
import { ButtonStyle } from 'discord-api-types/v10';
import type { GameRow } from '../../db/store';
import { RULESETS } from '../../engine/rulesets';
import { t, type Locale, type MessageKey } from '../../i18n';
import { button, mentions, row, type Payload } from './common';
import { rulesetName } from './game';

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
  const list = members.length === 0 ? t(loc, 'lobby.empty') : members.map((u, i) => `${i + 1}. <@${u}>${fallback.has(u) ? ` ${t(loc, 'lobby.noDm')}` : ''}`).join('\n');
  const lines = [
    t(loc, 'lobby.host', { host: `<@${game.hostId}>` }),
    t(loc, 'lobby.count', { count: members.length, need }),
    '',
    list,
  ];
  const unreachable = extra.unreachable ?? [];
  if (unreachable.length > 0 && extra.status === undefined) {
    lines.push('', t(loc, 'lobby.unreachable', { users: unreachable.map((u) => `<@${u}>`).join(', ') }), t(loc, 'lobby.howToFix'));
  }
  if (extra.status) lines.push('', `**${t(loc, `lobby.status.${extra.status}` as MessageKey)}**`);
  const open = extra.status === undefined;
  const buttons = [
    button({ kind: 'lobby', game: game.id, op: 'join' }, t(loc, 'lobby.join'), ButtonStyle.Success, !open || members.length >= need),
    button({ kind: 'lobby', game: game.id, op: 'leave' }, t(loc, 'lobby.leave'), ButtonStyle.Secondary, !open),
    button({ kind: 'lobby', game: game.id, op: 'start' }, t(loc, 'lobby.start'), ButtonStyle.Primary, !open || members.length !== need),
  ];
  if (open && unreachable.length > 0) buttons.push(button({ kind: 'lobby', game: game.id, op: 'fallback' }, t(loc, 'lobby.startFallback'), ButtonStyle.Danger));
  buttons.push(button({ kind: 'lobby', game: game.id, op: 'cancel' }, t(loc, 'lobby.cancel'), ButtonStyle.Danger, !open));
  return {
    embeds: [
      {
        title: t(loc, 'lobby.title', { id: game.id, ruleset: rulesetName(loc, game.ruleset), pace: t(loc, `pace.${game.pace}` as MessageKey) }),
        description: lines.join('\n'),
        color: 0x2e86c1,
      },
    ],
    components: [row(...buttons)],
    allowed_mentions: mentions(),
  };
}
