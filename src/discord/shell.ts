// The Discord shell's two tables: every slash command by name and every component by the kind in
// its custom id, each with the module that handles it. To add a button: a kind (or a verb of an
// existing kind) in custom-id.ts, its handler in components/, its line here; the compiler points at
// every table that misses it.
import { SetupCheck } from './setup-check';
import { ConductCommand } from './conduct';
import type { Dealer } from '../app/dealer';
import type { GameService } from '../app/game-service';
import type { Store } from '../db/store';
import type { Deliverer, DeliveryLogger } from '../delivery/deliverer';
import type { OutboxStore } from '../db/outbox-store';
import { t } from '../i18n';
import type { AsyncPlay } from './async-play';
import type { ClickAnswers } from './click-answers';
import { HostCommand } from './commands/host';
import { MafiaCommand } from './commands/mafia';
import { RatingSettingsCommand } from './commands/rating-settings';
import { SettingsCommand } from './commands/settings';
import { ActControls } from './components/act';
import { LobbyButtons } from './components/lobby';
import { PanelButtons } from './components/panel';
import type { Contexts } from './context';
import { HostTools } from './host-tools';
import { refuse } from './reply';
import { gameComponents, Router } from './router';
import { StatsCommands } from './commands/stats';
import type { Tournaments } from './tournament';

export interface ShellDeps {
  service: GameService;
  store: Store;
  outbox: OutboxStore;
  contexts: Contexts;
  deliverer: Deliverer;
  answers: ClickAnswers;
  asyncPlay: AsyncPlay;
  tournaments: Tournaments;
  log: DeliveryLogger;
  dealer: Dealer;
  /** False once the bot is going down: say nothing more. */
  alive: () => boolean;
}

export function buildRouter(d: ShellDeps): Router {
  const tools = new HostTools(d.service, d.store, d.contexts);
  const answers = d.answers;
  const stats = new StatsCommands(d.store, d.contexts, () => d.service.now());
  const settings = new SettingsCommand(d.store, () => d.service.now());
  const ratings = new RatingSettingsCommand(d.store, () => d.service.now());
  const setup = new SetupCheck(d.store, d.deliverer, () => d.service.now());
  const conduct = new ConductCommand(d.store, () => d.service.now());
  const mafia = new MafiaCommand(d.service, d.store, d.outbox, d.contexts, d.deliverer, {
    settings,
    ratings,
    setup,
    conduct,
  });
  const host = new HostCommand(d.service, d.store, tools);
  const lobby = new LobbyButtons(d.service, d.deliverer, tools, answers, d.log, d.dealer);
  const act = new ActControls(d.service, d.store, d.contexts, answers);
  const panels = new PanelButtons(d.contexts);
  return new Router(
    {
      mafia: (i, loc) => mafia.run(i, loc),
      host: (i, loc) => host.run(i, loc),
      stats: (i, loc) => {
        const sub = i.options.getSubcommand(false);
        if (sub === 'player' || sub === 'top' || sub === 'game' || sub === 'export') return stats.command(i, loc, sub);
        return refuse(i, t(loc, 'refusal.input/unknown'));
      },
      tournament: (i, loc) => d.tournaments.command(i, loc),
    },
    {
      ...gameComponents(d.store, {
        lobby: (i, loc, game, id) => lobby.click(i, loc, game, id.op),
        panel: (i, loc, game, id) => panels.click(i, loc, game, id.panel),
        act: (i, loc, game, id, turn) => act.click(i, loc, game, id, turn),
        host: (i, loc, game, id) => tools.component(i, loc, game, id),
        async: (i, loc, game, id) => d.asyncPlay.component(i, loc, game, id, () => tools.isHost(i, game)),
      }),
      tour: (i, _loc, id) => d.tournaments.component(i, id),
      stats: (i, loc) => (i.isButton() ? stats.component(i, loc) : refuse(i, t(loc, 'refusal.input/forged'))),
    },
    d.log,
    d.alive,
  );
}
