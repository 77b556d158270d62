// /mafia: create a game, my role, the table again, and the server's settings.
import { SlashCommandBuilder } from '@discordjs/builders';
import { choice, loc, TIMERS } from './builder';
import { settingsGroup } from './settings-definition';

export function mafiaCommand() {
  const b = loc(new SlashCommandBuilder(), 'mafia').setDMPermission(false);
  b.addSubcommand((s) => {
    loc(s, 'mafia.create');
    s.addStringOption((o) =>
      loc(o, 'opt.ruleset')
        .setRequired(false) // the server's default rule set when not given
        .addChoices(choice('chnu-2016', 'ruleset.chnu-2016'), choice('classic-10', 'ruleset.classic-10'), choice('kiev-12', 'ruleset.kiev-12')),
    );
    s.addStringOption((o) => loc(o, 'opt.pace').setRequired(false).addChoices(choice('live', 'pace.live'), choice('async', 'pace.async')));
    for (const timer of TIMERS) s.addStringOption((o) => loc(o, `opt.timer.${timer}`).setRequired(false).setMaxLength(12));
    return s;
  });
  b.addSubcommand((s) => loc(s, 'mafia.role'));
  b.addSubcommand((s) => loc(s, 'mafia.table'));
  b.addSubcommandGroup((g) => settingsGroup(loc(g, 'mafia.settings')));
  return b;
}
