// The one entry of every interaction. Slash commands are looked up by name, buttons and menus by
// the kind in their custom id (src/discord/custom-id.ts): two typed tables, so a command or a kind
// without a handler does not compile. No collectors: every button works after a restart. Every
// input is untrusted; bad input gets a private answer to the one who sent it and changes nothing.
import { MessageFlags, type ChatInputCommandInteraction, type Interaction } from 'discord.js';
import { NO_TURN, Turnstile, type Turn } from '../app/keyed-queue';
import type { GameRow, Store } from '../db/store';
import type { DeliveryLogger } from '../delivery/deliverer';
import { t, type Locale } from '../i18n';
import { decodeId, type CustomId } from './custom-id';
import { localeOf, refuse, type Component } from './reply';

/** The bot's slash commands (their definitions: src/discord/commands/definitions.ts). */
export type CommandName = 'mafia' | 'host' | 'stats' | 'tournament';
export type CommandHandler = (i: ChatInputCommandInteraction, loc: Locale) => Promise<void>;

/** Every kind of component: the game's and tournaments' ids, and /stats' own codec (`v1:s:…`). */
export type ComponentKind = CustomId['kind'] | 'stats';
type IdOf<K extends ComponentKind> = K extends CustomId['kind'] ? Extract<CustomId, { kind: K }> : { kind: 'stats' };
export type ComponentHandlers = { [K in ComponentKind]: (i: Component, loc: Locale, id: IdOf<K>) => Promise<void> };

/** The kinds of component that belong to one game. */
export type GameComponentKind = Exclude<CustomId['kind'], 'tour'>;
export type GameComponentHandlers = {
  [K in GameComponentKind]: (i: Component, loc: Locale, game: GameRow, id: IdOf<K>, turn: Turn) => Promise<void>;
};

/**
 * The handlers of a game's components behind the checks they all share: the game exists, and a
 * component in a server belongs to that channel's game (DMs are checked by seat in the handler).
 * The host's controls may be used in any channel of the game's server (`game:`); checked there.
 *
 * Each action click of a game takes its turn when it arrives (the router calls this before any await):
 * its reads may take any time, but its action is queued only after those of the clicks that came
 * before it (a player's two quick clicks on a vote count as he made them; `turn`, Turnstile).
 */
export function gameComponents(
  store: Store,
  handlers: GameComponentHandlers,
  arrivals: Turnstile<number> = new Turnstile(),
): Pick<ComponentHandlers, GameComponentKind> {
  const wrap =
    <K extends GameComponentKind>(kind: K, anyChannel = false) =>
    async (i: Component, loc: Locale, id: IdOf<K>): Promise<void> => {
      // Players' game actions (votes, nominations, night moves); the other kinds queue nothing
      // that races a player's click, and would hold the line until they had answered.
      const turn = kind === 'act' ? arrivals.enter(id.game) : NO_TURN;
      try {
        const game = await store.getGame(id.game);
        if (!game) return await refuse(i, t(loc, 'refusal.game/unknown'), turn);
        if (!anyChannel && i.inGuild() && i.channelId !== game.channelId)
          return await refuse(i, t(loc, 'refusal.input/forged'), turn);
        return await handlers[kind](i, loc, game, id, turn);
      } finally {
        turn.release();
      }
    };
  return {
    host: wrap('host', true),
    lobby: wrap('lobby'),
    panel: wrap('panel'),
    act: wrap('act'),
    async: wrap('async'),
  };
}

export class Router {
  constructor(
    private readonly commands: Record<CommandName, CommandHandler>,
    private readonly components: ComponentHandlers,
    private readonly log: DeliveryLogger,
    /** False once the bot is going down (or, in fault-injection tests, has "died"): say nothing more. */
    private readonly alive: () => boolean = () => true,
  ) {}

  async handle(i: Interaction): Promise<void> {
    try {
      if (i.isChatInputCommand()) await this.command(i);
      else if (i.isButton() || i.isStringSelectMenu()) await this.component(i);
      else if (i.isRepliable()) {
        await i.reply({ content: t(localeOf(i), 'refusal.input/unknown'), flags: MessageFlags.Ephemeral });
      }
    } catch (e) {
      if (!this.alive()) return;
      this.log.error(`interaction ${i.id} failed`, e, i.guildId ? { guildId: i.guildId } : undefined);
      if (i.isRepliable()) {
        const content = t(localeOf(i), 'refusal.internal');
        try {
          if (i.deferred || i.replied) await i.followUp({ content, flags: MessageFlags.Ephemeral });
          else await i.reply({ content, flags: MessageFlags.Ephemeral });
        } catch {
          // the interaction may have expired; nothing more to do
        }
      }
    }
  }

  private async command(i: ChatInputCommandInteraction): Promise<void> {
    const loc = localeOf(i);
    if (!i.inGuild() || !i.channelId) return refuse(i, t(loc, 'refusal.input/guild-only'));
    const name = i.commandName as CommandName;
    if (!Object.hasOwn(this.commands, name)) return refuse(i, t(loc, 'refusal.input/unknown'));
    return this.commands[name](i, loc);
  }

  private async component(i: Component): Promise<void> {
    const loc = localeOf(i);
    if (i.customId.startsWith('v1:s:')) return this.components.stats(i, loc, { kind: 'stats' });
    const id = decodeId(i.customId);
    if (!id) return refuse(i, t(loc, 'refusal.input/forged'));
    const handler = this.components[id.kind] as (i: Component, loc: Locale, id: CustomId) => Promise<void>;
    return handler(i, loc, id);
  }
}
