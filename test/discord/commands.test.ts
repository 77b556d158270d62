// Discord refuses a command whose subcommands or options share a name in any language: every
// level of every command has distinct names in en, uk and ru (issue 11 added many).
import { describe, expect, it } from 'vitest';
import { allCommands } from '../../src/discord/commands/definitions';

interface Opt {
  name: string;
  name_localizations?: Record<string, string> | null;
  options?: Opt[];
}

function levels(o: { options?: Opt[] }, path: string, out: { path: string; opts: Opt[] }[] = []) {
  if (o.options && o.options.length > 0) {
    out.push({ path, opts: o.options });
    for (const c of o.options) levels(c, `${path} ${c.name}`, out);
  }
  return out;
}

describe('slash commands', () => {
  it('have distinct names at every level in every language', () => {
    for (const cmd of allCommands()) {
      for (const { path, opts } of levels(cmd as { options?: Opt[] }, `/${cmd.name}`)) {
        for (const lang of ['en', 'uk', 'ru']) {
          const names = opts.map((o) => (lang === 'en' ? o.name : (o.name_localizations?.[lang] ?? o.name)));
          expect(new Set(names).size, `${path} (${lang}): ${names.join(', ')}`).toBe(names.length);
        }
      }
    }
  });

  it('every host subcommand takes game:, and the settings are one group of /mafia', () => {
    const host = allCommands().find((c) => c.name === 'host')! as { options: Opt[] };
    for (const sub of host.options)
      expect(
        sub.options?.some((o) => o.name === 'game'),
        sub.name,
      ).toBe(true);
    const mafia = allCommands().find((c) => c.name === 'mafia')! as { options: (Opt & { type: number })[] };
    const group = mafia.options.find((o) => o.name === 'settings')!;
    expect(group.type).toBe(2);
    expect(group.options!.map((o) => o.name)).toEqual([
      'show',
      'language',
      'ruleset',
      'pace',
      'rated',
      'timers',
      'host_role',
      'lobby_ping',
      'mafia_talk',
      'speaking_order',
      'results_channel',
      'pings',
      'reminders',
      'quiet_hours',
      'absent',
      'auto_substitute',
      'auto_end',
      'spectators',
      'conduct',
      'reset',
      'preset',
      'season',
      'rating',
    ]);
  });
});
