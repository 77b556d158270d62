// The ids of the bot's registered slash commands, read once at start-up (issue 21): catalog texts
// that name a command (`{cmd:host skip}`) show it as a command mention, `</host skip:ID>`, which
// Discord renders clickable and in the reader's client language. Global commands are read, and the
// commands of the one server `deploy-commands` registers them in when DEV_GUILD_ID is set.
import { Routes } from 'discord-api-types/v10';
import type { Client } from 'discord.js';
import { setCommandIds } from '../i18n';

export async function loadCommandIds(
  client: Client,
  guildId: string | undefined,
  log: { warn(m: string): void },
): Promise<number> {
  const appId = client.application?.id ?? client.user?.id;
  if (!appId) return 0;
  try {
    const global = (await client.rest.get(Routes.applicationCommands(appId))) as { id: string; name: string }[];
    const guild = guildId
      ? ((await client.rest.get(Routes.applicationGuildCommands(appId, guildId))) as { id: string; name: string }[])
      : [];
    // A server's own registration (DEV_GUILD_ID) is what its members see, so it wins.
    const all = [...global, ...guild].map((c) => [c.name, c.id] as const);
    setCommandIds(all);
    return all.length;
  } catch (e) {
    // Without the ids, commands are written as plain text ("/host skip" in the reader's language).
    log.warn(`mafia-bot: could not read the registered commands (${(e as Error).message}); commands are shown as text`);
    return 0;
  }
}
