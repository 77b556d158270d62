// /stats and the ratings' settings (`/mafia settings season`, `/mafia settings rating`).
import { SlashCommandBuilder, type SlashCommandSubcommandBuilder, type SlashCommandSubcommandGroupBuilder } from '@discordjs/builders';
import { choice, loc, rulesetChoices } from './builder';

/** Issue 12: `/mafia settings season` and `/mafia settings rating`. */
export function ratingSettingsSubcommands(g: SlashCommandSubcommandGroupBuilder) {
  g.addSubcommand((s) => {
    loc(s, 'mafia.settings.season');
    s.addStringOption((o) =>
      loc(o, 'opt.seasonAction').setRequired(true).addChoices(choice('define', 'season.action.define'), choice('end', 'season.action.end'), choice('list', 'season.action.list')),
    );
    s.addStringOption((o) => loc(o, 'opt.seasonName').setRequired(false).setMaxLength(40));
    s.addStringOption((o) => loc(o, 'opt.seasonStart').setRequired(false).setMaxLength(10));
    s.addStringOption((o) => loc(o, 'opt.seasonEnd').setRequired(false).setMaxLength(10));
    return s;
  });
  g.addSubcommand((s) => {
    loc(s, 'mafia.settings.rating');
    s.addNumberOption((o) => loc(o, 'opt.eloWin').setRequired(false).setMinValue(0).setMaxValue(100));
    s.addNumberOption((o) => loc(o, 'opt.eloLoss').setRequired(false).setMinValue(0).setMaxValue(100));
    s.addNumberOption((o) => loc(o, 'opt.eloStart').setRequired(false).setMinValue(0).setMaxValue(10000));
    s.addIntegerOption((o) => loc(o, 'opt.minMoves').setRequired(false).setMinValue(0).setMaxValue(10000));
    return s;
  });
  return g;
}

export function statsCommand() {
  const b = loc(new SlashCommandBuilder(), 'stats').setDMPermission(false);
  const period = (s: SlashCommandSubcommandBuilder) => s.addStringOption((o) => loc(o, 'opt.period').setRequired(false).setMaxLength(40));
  const tournament = (s: SlashCommandSubcommandBuilder) => s.addIntegerOption((o) => loc(o, 'opt.tournament').setRequired(false).setMinValue(1));
  b.addSubcommand((s) => {
    loc(s, 'stats.player');
    s.addUserOption((o) => loc(o, 'opt.member').setRequired(false));
    s.addStringOption((o) => loc(o, 'opt.ruleset').setRequired(false).addChoices(...rulesetChoices()));
    period(s);
    return tournament(s);
  });
  b.addSubcommand((s) => {
    loc(s, 'stats.top');
    s.addStringOption((o) => loc(o, 'opt.ruleset').setRequired(false).addChoices(...rulesetChoices()));
    period(s);
    s.addStringOption((o) => loc(o, 'opt.by').setRequired(false).addChoices(choice('points', 'stats.by.points'), choice('elo', 'stats.by.elo')));
    return tournament(s);
  });
  b.addSubcommand((s) => {
    loc(s, 'stats.game');
    return s.addIntegerOption((o) => loc(o, 'opt.gameId').setRequired(true).setMinValue(1));
  });
  return b;
}
