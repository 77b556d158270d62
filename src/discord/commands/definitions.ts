// Every slash command's definition, for registering them with Discord (npm run deploy-commands).
import type { RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord-api-types/v10';
import { hostCommand } from './host';
import { mafiaCommand } from './mafia';
import { statsCommand } from './stats';
import { tournamentCommand } from '../tournament';

export { hostCommand, mafiaCommand, statsCommand, tournamentCommand };
export { TIMER_OPTIONS, type TimerOption } from './builder';

export function allCommands(): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  return [
    mafiaCommand().toJSON(),
    hostCommand().toJSON(),
    statsCommand().toJSON(),
    tournamentCommand().toJSON(),
  ] as RESTPostAPIChatInputApplicationCommandsJSONBody[];
}
export { HOST_SUBCOMMANDS, isHostSubcommand, type HostSubcommand } from './host-subcommands';
