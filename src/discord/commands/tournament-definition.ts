// /tournament: the definition (its handler is the tournaments' shell).
import { SlashCommandBuilder, type SlashCommandSubcommandBuilder } from '@discordjs/builders';
import { choice, loc, TIMERS } from './builder';

/** /tournament (RULES T-1..T-4): create, draw, start, final, standings. */
export function tournamentCommand() {
  const b = loc(new SlashCommandBuilder(), 'tournament').setDMPermission(false);
  const which = (s: SlashCommandSubcommandBuilder) =>
    s.addIntegerOption((o) => loc(o, 'opt.tournamentId').setMinValue(1).setRequired(false));
  b.addSubcommand((s) => {
    loc(s, 'tournament.create');
    s.addStringOption((o) => loc(o, 'opt.tournamentName').setRequired(true).setMaxLength(60));
    s.addStringOption((o) =>
      loc(o, 'opt.ruleset')
        .setRequired(true)
        .addChoices(choice('chnu-2016', 'ruleset.chnu-2016'), choice('classic-10', 'ruleset.classic-10')),
    );
    for (const timer of TIMERS)
      s.addStringOption((o) => loc(o, `opt.timer.${timer}`).setRequired(false).setMaxLength(12));
    return s;
  });
  b.addSubcommand((s) => which(loc(s, 'tournament.draw')));
  b.addSubcommand((s) =>
    which(loc(s, 'tournament.remove').addUserOption((o) => loc(o, 'opt.tournamentPlayer').setRequired(true))),
  );
  b.addSubcommand((s) => {
    loc(s, 'tournament.start');
    s.addIntegerOption((o) => loc(o, 'opt.round').setMinValue(1).setMaxValue(4).setRequired(true));
    s.addIntegerOption((o) => loc(o, 'opt.table').setMinValue(1).setMaxValue(20).setRequired(true));
    s.addChannelOption((o) => loc(o, 'opt.tableChannel').addChannelTypes(0).setRequired(false));
    s.addUserOption((o) => loc(o, 'opt.missing').setRequired(false));
    s.addUserOption((o) => loc(o, 'opt.substitute').setRequired(false));
    s.addUserOption((o) => loc(o, 'opt.missing2').setRequired(false));
    s.addUserOption((o) => loc(o, 'opt.substitute2').setRequired(false));
    return which(s);
  });
  b.addSubcommand((s) => which(loc(s, 'tournament.final')));
  b.addSubcommand((s) => {
    loc(s, 'tournament.standings');
    which(s);
    s.addIntegerOption((o) => loc(o, 'opt.page').setMinValue(1).setMaxValue(100).setRequired(false));
    s.addBooleanOption((o) => loc(o, 'opt.csv').setRequired(false));
    return s;
  });
  return b;
}
