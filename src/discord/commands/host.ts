// /host: the host's commands (G-7), on the channel's game or the one named by `game:`.
import { SlashCommandBuilder, SlashCommandSubcommandBuilder } from '@discordjs/builders';
import type { ChatInputCommandInteraction } from 'discord.js';
import type { ActorId, GameService } from '../../app/game-service';
import type { GameRow, Store } from '../../db/store';
import { RULESETS } from '../../engine/rulesets';
import type { Action, RefusalCode, Seat } from '../../engine/types';
import { t, type Locale } from '../../i18n';
import { isToolkitSubcommand, type HostTools, type ToolkitSubcommand } from '../host-tools';
import { refusalText } from '../render/words';
import { refuse, say, timely } from '../reply';
import { choice, gameOption, loc, reasonOption, seatOption } from './builder';
import { isHostSubcommand, type HostSubcommand } from './host-subcommands';

/** A /host subcommand's name and description (`cmd.host.<sub>.*`). */
const hostSub = (s: SlashCommandSubcommandBuilder, sub: HostSubcommand) => loc(s, `host.${sub}`);

export function hostCommand() {
  const b = loc(new SlashCommandBuilder(), 'host').setDMPermission(false);
  b.addSubcommand((s) => {
    hostSub(s, 'foul');
    seatOption(s);
    s.addIntegerOption((o) => loc(o, 'opt.count').setMinValue(1).setMaxValue(5).setRequired(false));
    return reasonOption(s);
  });
  b.addSubcommand((s) => reasonOption(seatOption(hostSub(s, 'remove'))));
  b.addSubcommand((s) => reasonOption(seatOption(hostSub(s, 'kill'))));
  b.addSubcommand((s) => reasonOption(hostSub(s, 'skip')));
  b.addSubcommand((s) => {
    hostSub(s, 'end');
    s.addStringOption((o) =>
      loc(o, 'opt.winner')
        .setRequired(true)
        .addChoices(choice('red', 'winner.red'), choice('black', 'winner.black'), choice('draw', 'winner.draw')),
    );
    return reasonOption(s);
  });
  b.addSubcommand((s) => reasonOption(seatOption(hostSub(s, 'best'))));
  b.addSubcommand((s) => {
    seatOption(hostSub(s, 'bonus'));
    s.addIntegerOption((o) =>
      loc(o, 'opt.points').setRequired(true).addChoices({ name: '+1', value: 1 }, { name: '+2', value: 2 }),
    );
    return reasonOption(s);
  });
  b.addSubcommand((s) => {
    seatOption(hostSub(s, 'substitute'));
    s.addUserOption((o) => loc(o, 'opt.user').setRequired(true));
    return reasonOption(s);
  });
  b.addSubcommand((s) => reasonOption(hostSub(s, 'cancel')));
  b.addSubcommand((s) => hostSub(s, 'log'));
  hostToolkitSubcommands(b);
  // Every host command works on the game in this channel, or on the one named by `game:`.
  for (const sub of b.options) if (sub instanceof SlashCommandSubcommandBuilder) gameOption(sub);
  return b;
}

/** Issue 11: the host's toolkit (pause, resume, extend, revive, undo, annul, transfer, panel). */
function hostToolkitSubcommands(b: SlashCommandBuilder) {
  b.addSubcommand((s) => reasonOption(hostSub(s, 'pause')));
  b.addSubcommand((s) => reasonOption(hostSub(s, 'resume')));
  b.addSubcommand((s) => {
    hostSub(s, 'extend');
    s.addStringOption((o) => loc(o, 'opt.duration').setRequired(true).setMaxLength(12));
    return reasonOption(s);
  });
  b.addSubcommand((s) => reasonOption(seatOption(hostSub(s, 'revive'))));
  b.addSubcommand((s) => reasonOption(hostSub(s, 'undo')));
  b.addSubcommand((s) => reasonOption(hostSub(s, 'annul')));
  b.addSubcommand((s) => {
    hostSub(s, 'transfer');
    s.addUserOption((o) => loc(o, 'opt.newHost').setRequired(true));
    return reasonOption(s);
  });
  b.addSubcommand((s) => hostSub(s, 'panel'));
}

/** The host's game verbs (G-7) that become one engine action each: the subcommands not handled before them. */
type GameVerb = Exclude<HostSubcommand, ToolkitSubcommand | 'cancel' | 'substitute'>;

export class HostCommand {
  constructor(
    private readonly service: GameService,
    private readonly store: Store,
    private readonly tools: HostTools,
  ) {}

  async run(i: ChatInputCommandInteraction, loc: Locale): Promise<void> {
    const sub = i.options.getSubcommand(false) ?? '';
    // The channel's game, or `game:`; the log and annul also read a finished one.
    const game = await this.tools.resolve(i, sub);
    if (typeof game === 'string') return refuse(i, refusalText(loc, game));
    if (!(await this.tools.isHost(i, game))) return refuse(i, t(loc, 'refusal.host/not-host'));
    const actor = `host:${i.user.id}` as const;
    const reason = i.options.getString('reason')?.slice(0, 200) ?? null;
    if (!isHostSubcommand(sub)) return refuse(i, t(loc, 'refusal.input/unknown'));
    // Fair hosting: a host who plays keeps the day's clock but does not rule on results or see the night.
    const fair = await this.tools.fairCheck(i, game, sub);
    if ('code' in fair) return refuse(i, refusalText(loc, fair.code));
    // A host who plays acts on the stage he was allowed in (skip: a night begun meanwhile refuses it).
    const at = fair.seq === undefined ? {} : { seq: fair.seq };
    if (sub === 'cancel') return this.answer(i, loc, await this.service.cancel(game.id, actor, reason));
    if (isToolkitSubcommand(sub)) return void (await this.tools.command(i, loc, sub, game, actor, reason, at));
    if (game.status === 'lobby') return refuse(i, t(loc, 'refusal.game/not-started'));
    const n = RULESETS[game.ruleset].players;
    const seat = i.options.getInteger('seat');
    if (seat !== null && (seat < 1 || seat > n)) return refuse(i, t(loc, 'refusal.seat/unknown'));
    if (sub === 'substitute') return this.substitute(i, loc, game, seat!, actor, reason);
    const given = this.action(i, sub, seat, reason);
    if (given === null) return refuse(i, t(loc, 'refusal.input/bad-choice'));
    const action = { ...given, ...at } as Action;
    return this.answer(i, loc, await timely(i, false, () => this.service.dispatch(game.id, action, actor, reason)));
  }

  private answer(i: ChatInputCommandInteraction, loc: Locale, r: { ok: true } | { ok: false; code: RefusalCode }) {
    return say(i, r.ok ? t(loc, 'host.done') : refusalText(loc, r.code));
  }

  /** The engine action of a host verb, or null when an option is out of its choices. */
  private action(
    i: ChatInputCommandInteraction,
    verb: GameVerb,
    seat: Seat | null,
    reason: string | null,
  ): Action | null {
    const why = reason ? { reason } : {};
    switch (verb) {
      case 'foul':
        return { kind: 'host-foul', target: seat!, count: i.options.getInteger('count') ?? 1, ...why };
      case 'remove':
        return { kind: 'host-remove', target: seat!, ...why };
      case 'kill':
        return { kind: 'host-kill', target: seat!, ...why };
      case 'skip':
        return { kind: 'host-skip' };
      case 'end': {
        const winner = i.options.getString('winner', true);
        if (winner !== 'red' && winner !== 'black' && winner !== 'draw') return null;
        return { kind: 'host-end', winner, ...why };
      }
      case 'best':
        return { kind: 'host-best', target: seat! };
      case 'bonus':
        return { kind: 'host-bonus', target: seat!, points: i.options.getInteger('points', true) };
    }
  }

  private async substitute(
    i: ChatInputCommandInteraction,
    loc: Locale,
    game: GameRow,
    seat: Seat,
    actor: ActorId,
    reason: string | null,
  ) {
    const user = i.options.getUser('user', true);
    if (user.bot) return refuse(i, t(loc, 'refusal.substitute/bot'));
    // Who may take the seat (nobody who plays, played, hosts or watched; a host who plays: a
    // volunteer of the seat's call) is the service's one rule for every substitution (app/hosts.ts).
    const r = await this.service.substitute(game.id, seat, user.id, actor, reason);
    if (!r.ok) return refuse(i, refusalText(loc, r.code));
    const names = { ...(game.lobby.names ?? {}), [user.id]: user.displayName ?? user.username };
    await this.store.gameTransaction(game.id, async () => {
      const fresh = (await this.store.getGame(game.id))!;
      await this.store.setLobby(game.id, { ...fresh.lobby, names }, this.service.now());
    });
    return this.answer(i, loc, r);
  }
}
