// The public panels' buttons (`v1:p:…`): "My role" and "My actions", answered in private to the
// player who clicked (the actions panel is how a player without DMs plays his night), and "Rules"
// (how to play), open to anybody.
import { MessageFlags } from 'discord.js';
import type { GameRow } from '../../db/store';
import { t, type Locale } from '../../i18n';
import { seatOfUser, type Contexts } from '../context';
import type { Panel } from '../custom-id';
import { panelPayload, roleCard } from '../render/panel';
import { rulesPayload } from '../render/rules';
import { resolveOptions } from '../../engine/options';
import { refuse, toReply, type Component } from '../reply';

export class PanelButtons {
  constructor(private readonly contexts: Contexts) {}

  async click(i: Component, loc: Locale, game: GameRow, panel: Panel): Promise<void> {
    // Issue 21: how to play this game, to anybody (lobby or table), in the clicker's language.
    if (panel === 'rules') {
      const options = resolveOptions(game.ruleset, game.pace, game.options);
      return i
        .reply({ ...toReply(rulesPayload(loc, game.ruleset, game.pace, options)), flags: MessageFlags.Ephemeral })
        .then(() => {});
    }
    if (game.status === 'lobby') return refuse(i, t(loc, 'refusal.game/not-started'));
    const ctx = await this.contexts.fromRow(game);
    const seat = seatOfUser(ctx, i.user.id);
    if (seat === null) return refuse(i, t(loc, 'refusal.player/not-playing'));
    const payload = panel === 'role' ? roleCard(ctx, seat, loc) : panelPayload(ctx, seat, loc);
    await i.reply({ ...toReply(payload), flags: MessageFlags.Ephemeral });
  }
}
