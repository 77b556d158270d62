// npm run deploy-commands: registers the slash commands (guild-scoped with DEV_GUILD_ID, where they
// appear at once; global otherwise, where Discord may take up to an hour).
import { REST } from '@discordjs/rest';
import { Routes } from 'discord-api-types/v10';
import { ConfigError, loadDotEnv, parseConfig } from '../config';
import { allCommands } from '../discord/commands/definitions';

loadDotEnv();
try {
  const config = parseConfig();
  const rest = new REST(config.DISCORD_API_BASE ? { api: config.DISCORD_API_BASE } : {}).setToken(config.DISCORD_TOKEN);
  const appId = config.DISCORD_APP_ID ?? ((await rest.get(Routes.currentApplication())) as { id: string }).id;
  const body = allCommands();
  const route = config.DEV_GUILD_ID
    ? Routes.applicationGuildCommands(appId, config.DEV_GUILD_ID)
    : Routes.applicationCommands(appId);
  const done = (await rest.put(route, { body })) as unknown[];
  process.stdout.write(
    `deploy-commands: registered ${done.length} commands ${config.DEV_GUILD_ID ? `in guild ${config.DEV_GUILD_ID}` : 'globally (may take up to an hour to appear)'}\n`,
  );
} catch (e) {
  if (e instanceof ConfigError) {
    process.stderr.write(`deploy-commands: ${e.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`deploy-commands: ${(e as Error).message}\n`);
  process.exit(1);
}
