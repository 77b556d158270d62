// `/mafia settings …`: the definitions of the server's settings.
import type { SlashCommandSubcommandGroupBuilder } from '@discordjs/builders';
import { ChannelType } from 'discord-api-types/v10';
import { choice, loc, TIMERS } from './builder';
import { ratingSettingsSubcommands } from './stats-definition';

/** Issue 11: `/mafia settings …`, the server's general settings (each one a subcommand). */
export function settingsGroup(g: SlashCommandSubcommandGroupBuilder) {
  g.addSubcommand((s) => loc(s, 'settings.show'));
  g.addSubcommand((s) =>
    loc(s, 'settings.language').addStringOption((o) => loc(o, 'opt.language').setRequired(true).addChoices(choice('auto', 'lang.auto'), choice('en', 'lang.en'), choice('uk', 'lang.uk'), choice('ru', 'lang.ru'))),
  );
  g.addSubcommand((s) =>
    loc(s, 'settings.ruleset').addStringOption((o) =>
      loc(o, 'opt.ruleset')
        .setRequired(false)
        .addChoices(choice('chnu-2016', 'ruleset.chnu-2016'), choice('classic-10', 'ruleset.classic-10'), choice('kiev-12', 'ruleset.kiev-12')),
    ),
  );
  g.addSubcommand((s) => loc(s, 'settings.pace').addStringOption((o) => loc(o, 'opt.pace').setRequired(true).addChoices(choice('live', 'pace.live'), choice('async', 'pace.async'))));
  g.addSubcommand((s) => {
    loc(s, 'settings.timers');
    s.addStringOption((o) => loc(o, 'opt.settingsPace').setRequired(true).addChoices(choice('live', 'pace.live'), choice('async', 'pace.async')));
    for (const timer of TIMERS) s.addStringOption((o) => loc(o, `opt.timer.${timer}`).setRequired(false).setMaxLength(12));
    return s;
  });
  g.addSubcommand((s) => loc(s, 'settings.hostRole').addRoleOption((o) => loc(o, 'opt.role').setRequired(false)));
  g.addSubcommand((s) =>
    loc(s, 'settings.mafiaTalk').addStringOption((o) => loc(o, 'opt.mafiaTalk').setRequired(true).addChoices(choice('night-0', 'mafiaTalk.night-0'), choice('every-night', 'mafiaTalk.every-night'))),
  );
  g.addSubcommand((s) =>
    loc(s, 'settings.speakingOrder').addStringOption((o) => loc(o, 'opt.speakingOrder').setRequired(true).addChoices(choice('free', 'speakingOrder.free'), choice('enforced', 'speakingOrder.enforced'))),
  );
  g.addSubcommand((s) => loc(s, 'settings.resultsChannel').addChannelOption((o) => loc(o, 'opt.channel').setRequired(false).addChannelTypes(ChannelType.GuildText)));
  asyncSettingsSubcommands(g);
  g.addSubcommand((s) => loc(s, 'settings.reset'));
  ratingSettingsSubcommands(g);
  return g;
}

/** Issue 10: the settings of asynchronous play. */
function asyncSettingsSubcommands(g: SlashCommandSubcommandGroupBuilder) {
  g.addSubcommand((s) => loc(s, 'settings.pings').addStringOption((o) => loc(o, 'opt.pings').setRequired(true).addChoices(choice('on', 'pings.on'), choice('off', 'pings.off'))));
  g.addSubcommand((s) =>
    loc(s, 'settings.reminders').addStringOption((o) =>
      loc(o, 'opt.reminders')
        .setRequired(true)
        .addChoices(choice('auto', 'reminders.auto'), choice('off', 'reminders.off'), choice('halfway', 'reminders.halfway'), choice('hour', 'reminders.hour'), choice('both', 'reminders.both')),
    ),
  );
  g.addSubcommand((s) => {
    loc(s, 'settings.quietHours');
    s.addStringOption((o) => loc(o, 'opt.quietStart').setRequired(false).setMaxLength(5));
    s.addStringOption((o) => loc(o, 'opt.quietEnd').setRequired(false).setMaxLength(5));
    s.addStringOption((o) => loc(o, 'opt.timeZone').setRequired(false).setMaxLength(64));
    return s;
  });
  g.addSubcommand((s) => loc(s, 'settings.absent').addIntegerOption((o) => loc(o, 'opt.absentAfter').setRequired(true).setMinValue(0).setMaxValue(10)));
  g.addSubcommand((s) => loc(s, 'settings.autoSubstitute').addBooleanOption((o) => loc(o, 'opt.autoSubstitute').setRequired(true)));
  g.addSubcommand((s) => loc(s, 'settings.autoEnd').addBooleanOption((o) => loc(o, 'opt.autoEnd').setRequired(true)));
  g.addSubcommand((s) => loc(s, 'settings.spectators').addBooleanOption((o) => loc(o, 'opt.spectatorRoles').setRequired(true)));
}
