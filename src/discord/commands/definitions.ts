// Slash commands, built with @discordjs/builders, with uk and ru names and descriptions.
import { SlashCommandBuilder, SlashCommandSubcommandBuilder, SlashCommandSubcommandGroupBuilder } from '@discordjs/builders';
import { ChannelType } from 'discord-api-types/v10';
import type { RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord-api-types/v10';
import { t, type MessageKey } from '../../i18n';

type Localizable = {
  setName(name: string): unknown;
  setDescription(d: string): unknown;
  setNameLocalizations(l: Record<string, string>): unknown;
  setDescriptionLocalizations(l: Record<string, string>): unknown;
};

/** Name and description from the catalog: `cmd.<path>.name` and `cmd.<path>.desc`. */
function loc<T extends Localizable>(b: T, path: string): T {
  const name = `cmd.${path}.name` as MessageKey;
  const desc = `cmd.${path}.desc` as MessageKey;
  b.setName(t('en', name));
  b.setDescription(t('en', desc));
  b.setNameLocalizations({ uk: t('uk', name), ru: t('ru', name) });
  b.setDescriptionLocalizations({ uk: t('uk', desc), ru: t('ru', desc) });
  return b;
}

const choice = (value: string, key: MessageKey) => ({ name: t('en', key), value, name_localizations: { uk: t('uk', key), ru: t('ru', key) } });

const TIMERS = ['night', 'speech', 'discussion', 'accusation', 'vote', 'last_words', 'shootout'] as const;
export type TimerOption = (typeof TIMERS)[number];
export const TIMER_OPTIONS = TIMERS;

function seatOption(s: SlashCommandSubcommandBuilder, required = true) {
  return s.addIntegerOption((o) => loc(o, 'opt.seat').setMinValue(1).setMaxValue(12).setRequired(required));
}
function reasonOption(s: SlashCommandSubcommandBuilder) {
  return s.addStringOption((o) => loc(o, 'opt.reason').setMaxLength(200).setRequired(false));
}

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

/**
 * The /host subcommands: the game's host actions, substitute and cancel (answered in
 * interactions.ts `host()`) and the toolkit's (host-tools.ts `HostTools.command()`).
 */
export const HOST_SUBCOMMANDS = [
  'foul',
  'remove',
  'kill',
  'skip',
  'end',
  'best',
  'bonus',
  'substitute',
  'cancel',
  'log',
  'pause',
  'resume',
  'extend',
  'revive',
  'undo',
  'annul',
  'transfer',
  'panel',
] as const;
export type HostSubcommand = (typeof HOST_SUBCOMMANDS)[number];

/** Whether a subcommand name from Discord is one of /host's. */
export function isHostSubcommand(sub: string): sub is HostSubcommand {
  return (HOST_SUBCOMMANDS as readonly string[]).includes(sub);
}

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
    s.addStringOption((o) => loc(o, 'opt.winner').setRequired(true).addChoices(choice('red', 'winner.red'), choice('black', 'winner.black'), choice('draw', 'winner.draw')));
    return reasonOption(s);
  });
  b.addSubcommand((s) => reasonOption(seatOption(hostSub(s, 'best'))));
  b.addSubcommand((s) => {
    seatOption(hostSub(s, 'bonus'));
    s.addIntegerOption((o) => loc(o, 'opt.points').setRequired(true).addChoices({ name: '+1', value: 1 }, { name: '+2', value: 2 }));
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

function gameOption(s: SlashCommandSubcommandBuilder) {
  return s.addIntegerOption((o) => loc(o, 'opt.game').setMinValue(1).setRequired(false));
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
    s.addUserOption((o) => loc(o, 'opt.member').setRequired(true));
    return reasonOption(s);
  });
  b.addSubcommand((s) => hostSub(s, 'panel'));
}

/** Issue 11: `/mafia settings …`, the server's general settings (each one a subcommand). */
function settingsGroup(g: SlashCommandSubcommandGroupBuilder) {
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

const rulesetChoices = () => [choice('chnu-2016', 'ruleset.chnu-2016'), choice('classic-10', 'ruleset.classic-10'), choice('kiev-12', 'ruleset.kiev-12')];

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

/** Issue 12: `/stats player`, `/stats top`, `/stats game`. */
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

/** /tournament (RULES T-1..T-4): create, draw, start, final, standings. */
export function tournamentCommand() {
  const b = loc(new SlashCommandBuilder(), 'tournament').setDMPermission(false);
  const which = (s: SlashCommandSubcommandBuilder) => s.addIntegerOption((o) => loc(o, 'opt.tournamentId').setMinValue(1).setRequired(false));
  b.addSubcommand((s) => {
    loc(s, 'tournament.create');
    s.addStringOption((o) => loc(o, 'opt.tournamentName').setRequired(true).setMaxLength(60));
    s.addStringOption((o) => loc(o, 'opt.ruleset').setRequired(true).addChoices(choice('chnu-2016', 'ruleset.chnu-2016'), choice('classic-10', 'ruleset.classic-10')));
    for (const timer of TIMERS) s.addStringOption((o) => loc(o, `opt.timer.${timer}`).setRequired(false).setMaxLength(12));
    return s;
  });
  b.addSubcommand((s) => which(loc(s, 'tournament.draw')));
  b.addSubcommand((s) => which(loc(s, 'tournament.remove').addUserOption((o) => loc(o, 'opt.tournamentPlayer').setRequired(true))));
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

export function allCommands(): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  return [mafiaCommand().toJSON(), hostCommand().toJSON(), statsCommand().toJSON(), tournamentCommand().toJSON()] as RESTPostAPIChatInputApplicationCommandsJSONBody[];
}
