// /host: the host's commands (G-7), on the channel's game or the one named by `game:`.
import { SlashCommandBuilder, SlashCommandSubcommandBuilder } from '@discordjs/builders';
import { choice, gameOption, loc, reasonOption, seatOption } from './builder';

export function hostCommand() {
  const b = loc(new SlashCommandBuilder(), 'host').setDMPermission(false);
  b.addSubcommand((s) => {
    loc(s, 'host.foul');
    seatOption(s);
    s.addIntegerOption((o) => loc(o, 'opt.count').setMinValue(1).setMaxValue(5).setRequired(false));
    return reasonOption(s);
  });
  b.addSubcommand((s) => reasonOption(seatOption(loc(s, 'host.remove'))));
  b.addSubcommand((s) => reasonOption(seatOption(loc(s, 'host.kill'))));
  b.addSubcommand((s) => reasonOption(loc(s, 'host.skip')));
  b.addSubcommand((s) => {
    loc(s, 'host.end');
    s.addStringOption((o) => loc(o, 'opt.winner').setRequired(true).addChoices(choice('red', 'winner.red'), choice('black', 'winner.black'), choice('draw', 'winner.draw')));
    return reasonOption(s);
  });
  b.addSubcommand((s) => reasonOption(seatOption(loc(s, 'host.best'))));
  b.addSubcommand((s) => {
    seatOption(loc(s, 'host.bonus'));
    s.addIntegerOption((o) => loc(o, 'opt.points').setRequired(true).addChoices({ name: '+1', value: 1 }, { name: '+2', value: 2 }));
    return reasonOption(s);
  });
  b.addSubcommand((s) => {
    seatOption(loc(s, 'host.substitute'));
    s.addUserOption((o) => loc(o, 'opt.user').setRequired(true));
    return reasonOption(s);
  });
  b.addSubcommand((s) => reasonOption(loc(s, 'host.cancel')));
  b.addSubcommand((s) => loc(s, 'host.log'));
  hostToolkitSubcommands(b);
  // Every host command works on the game in this channel, or on the one named by `game:`.
  for (const sub of b.options) if (sub instanceof SlashCommandSubcommandBuilder) gameOption(sub);
  return b;
}

/** Issue 11: the host's toolkit (pause, resume, extend, revive, undo, annul, transfer, panel). */
function hostToolkitSubcommands(b: SlashCommandBuilder) {
  b.addSubcommand((s) => reasonOption(loc(s, 'host.pause')));
  b.addSubcommand((s) => reasonOption(loc(s, 'host.resume')));
  b.addSubcommand((s) => {
    loc(s, 'host.extend');
    s.addStringOption((o) => loc(o, 'opt.duration').setRequired(true).setMaxLength(12));
    return reasonOption(s);
  });
  b.addSubcommand((s) => reasonOption(seatOption(loc(s, 'host.revive'))));
  b.addSubcommand((s) => reasonOption(loc(s, 'host.undo')));
  b.addSubcommand((s) => reasonOption(loc(s, 'host.annul')));
  b.addSubcommand((s) => {
    loc(s, 'host.transfer');
    s.addUserOption((o) => loc(o, 'opt.member').setRequired(true));
    return reasonOption(s);
  });
  b.addSubcommand((s) => loc(s, 'host.panel'));
}
