// /stats player|top|game and /mafia settings season|rating (issue 12). Queries live in src/stats;
// this file parses the options, renders the answer and handles its buttons. Answers are
// ephemeral, in the reader's language, with a "show to the channel" button that posts the same
// view in the server's language. Buttons carry the whole view in their id, so they work after a
// restart. Everything is an interaction response (the outbox is for game output).
import { MessageFlags, type ButtonInteraction, type ChatInputCommandInteraction } from 'discord.js';
import type { Store } from '../../db/store';
import { RULESET_IDS } from '../../engine/rulesets';
import type { RulesetId } from '../../engine/types';
import { t, type Locale } from '../../i18n';
import { gameRecord } from '../../stats/game-record';
import {
  latestRuleset,
  profile,
  seasonById,
  seasonByName,
  top,
  type Period,
  type StatsFilter,
} from '../../stats/queries';
import { isRebuilding, ratingSettings } from '../../stats/record';
import { presetName } from '../../app/presets';
import type { Contexts } from '../context';
import { decodeStatsId, type StatsId, type StatsPeriodCode } from '../custom-id';
import { gameView, playerView, topView, type Reply } from '../render/stats';
import { SlashCommandBuilder, type SlashCommandSubcommandBuilder } from '@discordjs/builders';
import { choice, loc, rulesetChoices } from './builder';
import { parseDays } from '../duration';
import { exportSubcommand, StatsExportCommand } from './stats-export';

/** "All time" as a reader types it in en, uk or ru. */
const ALL_TIME =
  /^(all|all time|ever|усі|все|всі|весь час|за весь час|всё|всё время|все время|за всё время|за все время)$/iu;

export class StatsCommands {
  constructor(
    private readonly store: Store,
    private readonly contexts: Contexts,
    private readonly now: () => number,
  ) {}

  private exporter: StatsExportCommand | null = null;

  /** /stats export (stats-export.ts), lent this command's periods and main rule set. */
  private get export(): StatsExportCommand {
    return (this.exporter ??= new StatsExportCommand(
      this.db,
      {
        parsePeriod: (g, raw) => this.parsePeriod(g, raw),
        period: (g, code) => this.period(g, code),
        mainRuleset: (g) => this.mainRuleset(g),
      },
      this.now,
    ));
  }

  /** The stats queries (src/db/stats-store.ts): this file holds no SQL. */
  private get db() {
    return this.store.stats;
  }

  // -------------------------------------------------------------------------------------------
  // Periods

  /** A period option as typed: `all` (in any of the three languages), `30`, `30d`, or a season's name. */
  private async parsePeriod(
    guildId: string,
    raw: string | null,
  ): Promise<{ code: StatsPeriodCode } | { error: string; value: string }> {
    const v = (raw ?? '').trim();
    if (v === '' || ALL_TIME.test(v)) return { code: 'a' };
    const n = parseDays(v);
    if (n !== null) {
      return n >= 1 && n <= 3650 ? { code: `d${n}` } : { error: 'period', value: v };
    }
    const season = await seasonByName(this.db, guildId, v);
    return season ? { code: `s${season.id}` } : { error: 'season', value: v };
  }

  private async period(guildId: string, code: StatsPeriodCode): Promise<Period | null> {
    if (code === 'a') return { kind: 'all' };
    if (code.startsWith('d')) return { kind: 'days', days: Number(code.slice(1)) };
    const s = await seasonById(this.db, guildId, Number(code.slice(1)));
    return s ? { kind: 'season', id: s.id, name: s.name, from: s.startsAt, to: s.endsAt } : null;
  }

  /** The rule set most players of this server have standings in (when /stats top names none). */
  private async mainRuleset(guildId: string): Promise<RulesetId> {
    return ((await this.db.mainRuleset(guildId)) as RulesetId | null) ?? 'classic-10';
  }

  private refuse(i: ChatInputCommandInteraction | ButtonInteraction, text: string) {
    return i.reply({ content: `⛔ ${text}`, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
  }

  // -------------------------------------------------------------------------------------------
  // Commands

  async command(i: ChatInputCommandInteraction, loc: Locale, sub: string): Promise<void> {
    if (sub === 'export') return this.export.run(i, loc);
    const guildId = i.guildId!;
    const ruleset = i.options.getString('ruleset');
    if (ruleset !== null && !(RULESET_IDS as string[]).includes(ruleset))
      return void (await this.refuse(i, t(loc, 'refusal.input/bad-choice')));
    const tournament = i.options.getInteger('tournament') ?? 0;
    if (tournament < 0) return void (await this.refuse(i, t(loc, 'refusal.input/bad-choice')));
    if (sub === 'game') {
      const id = i.options.getInteger('id', true);
      return void (await this.answer(i, { view: 'game', show: false, game: id, page: 0 }, loc, false));
    }
    const parsed = await this.parsePeriod(guildId, i.options.getString('period'));
    if ('error' in parsed) {
      const text =
        parsed.error === 'season'
          ? t(loc, 'st.refusal.noSeason', { name: parsed.value.slice(0, 40) })
          : t(loc, 'st.refusal.period', { value: parsed.value.slice(0, 40) });
      return void (await this.refuse(i, text));
    }
    if (sub === 'top') {
      const by = i.options.getString('by') ?? 'points';
      if (by !== 'points' && by !== 'elo') return void (await this.refuse(i, t(loc, 'refusal.input/bad-choice')));
      // Issue 24: a preset's standings (its name as typed; a deleted preset's games are still its).
      const presetRaw = i.options.getString('preset');
      const preset = presetRaw === null ? null : presetName(presetRaw);
      if (presetRaw !== null && preset === null) return void (await this.refuse(i, t(loc, 'refusal.preset/name')));
      if (preset !== null && by === 'elo') return void (await this.refuse(i, t(loc, 'refusal.stats/preset-elo')));
      const rs = (ruleset as RulesetId | null) ?? (await this.mainRuleset(guildId));
      return void (await this.answer(
        i,
        {
          view: 'top',
          show: false,
          ruleset: rs,
          period: parsed.code,
          by,
          tournament,
          page: 0,
          ...(preset !== null ? { preset } : {}),
        },
        loc,
        false,
      ));
    }
    if (sub === 'player') {
      const user = i.options.getUser('member') ?? i.user;
      if (user.bot) return void (await this.refuse(i, t(loc, 'st.refusal.bot')));
      const rs = (ruleset as RulesetId | null) ?? (await latestRuleset(this.db, guildId, user.id));
      if (!rs)
        return void (await i.reply({
          content: t(loc, 'st.player.noneAny', { user: `<@${user.id}>` }),
          flags: MessageFlags.Ephemeral,
          allowedMentions: { parse: [] },
        }));
      return void (await this.answer(
        i,
        { view: 'player', show: false, ruleset: rs, period: parsed.code, user: user.id, tournament },
        loc,
        false,
      ));
    }
    await this.refuse(i, t(loc, 'refusal.input/unknown'));
  }

  /** A /stats button: another page (the message is updated), or the view posted to the channel. */
  async component(i: ButtonInteraction, loc: Locale): Promise<void> {
    const id = decodeStatsId(i.customId);
    if (!id || !i.inGuild()) return void (await this.refuse(i, t(loc, 'refusal.input/forged')));
    if (id.show) {
      const pub = await this.contexts.publicLocale(i.guildId, i.guildLocale);
      return void (await this.answer(i, { ...id, show: false }, pub, true));
    }
    await this.answer(i, id, loc, false);
  }

  /** Renders a view and answers with it: a new ephemeral reply, an update of the clicked message, or a public post. */
  private async answer(
    i: ChatInputCommandInteraction | ButtonInteraction,
    id: StatsId,
    loc: Locale,
    publish: boolean,
  ): Promise<void> {
    const view = await this.render(i, id, loc, publish);
    if ('refusal' in view) return void (await this.refuse(i, view.refusal));
    const body = { ...view, allowedMentions: { parse: [] as [] } };
    if (publish) await i.reply(body);
    else if (i.isButton()) await i.update({ ...body, ...(body.files ? {} : { files: [], attachments: [] }) } as never);
    else await i.reply({ ...body, flags: MessageFlags.Ephemeral });
  }

  private async render(
    i: ChatInputCommandInteraction | ButtonInteraction,
    id: StatsId,
    loc: Locale,
    publish: boolean,
  ): Promise<Reply | { refusal: string }> {
    const guildId = i.guildId!;
    if (id.view === 'game') {
      const rec = await gameRecord(this.db, guildId, id.game);
      if (!rec) return { refusal: t(loc, 'st.refusal.game', { id: id.game }) };
      return gameView(rec, id.page, loc, publish, i.user.id);
    }
    if (isRebuilding(this.db, guildId, id.ruleset)) return { refusal: t(loc, 'st.refusal.rebuilding') };
    const period = await this.period(guildId, id.period);
    if (!period) return { refusal: t(loc, 'st.refusal.stale') };
    const filter: StatsFilter = {
      guildId,
      ruleset: id.ruleset as RulesetId,
      period,
      tournament: id.tournament || null,
      preset: id.view === 'top' && id.by === 'points' ? (id.preset ?? null) : null,
      now: this.now(),
    };
    if (id.view === 'top')
      return topView(await top(this.db, filter, id.by, id.page, i.user.id), filter, id, loc, publish, i.user.id);
    const name = await this.displayName(i, id.user);
    const eloStart = (await ratingSettings(this.db, guildId)).elo.start;
    const p = await profile(this.db, filter, id.user);
    return playerView(p, eloStart, filter, id, name, loc, publish, i.user.id);
  }

  private async displayName(i: ChatInputCommandInteraction | ButtonInteraction, userId: string): Promise<string> {
    if (i.isChatInputCommand()) {
      const m = i.options.getMember('member');
      const u = i.options.getUser('member');
      if (u?.id === userId) return (m && 'displayName' in m ? m.displayName : null) ?? u.displayName ?? u.username;
    }
    if (i.user.id === userId)
      return (
        (i.member && 'displayName' in i.member ? i.member.displayName : null) ?? i.user.displayName ?? i.user.username
      );
    try {
      const u = await i.client.users.fetch(userId);
      return u.displayName ?? u.username;
    } catch {
      return `#${userId.slice(-4)}`;
    }
  }
}

export function statsCommand() {
  const b = loc(new SlashCommandBuilder(), 'stats').setDMPermission(false);
  const period = (s: SlashCommandSubcommandBuilder) =>
    s.addStringOption((o) => loc(o, 'opt.period').setRequired(false).setMaxLength(40));
  const tournament = (s: SlashCommandSubcommandBuilder) =>
    s.addIntegerOption((o) => loc(o, 'opt.tournament').setRequired(false).setMinValue(1));
  b.addSubcommand((s) => {
    loc(s, 'stats.player');
    s.addUserOption((o) => loc(o, 'opt.member').setRequired(false));
    s.addStringOption((o) =>
      loc(o, 'opt.ruleset')
        .setRequired(false)
        .addChoices(...rulesetChoices()),
    );
    period(s);
    return tournament(s);
  });
  b.addSubcommand((s) => {
    loc(s, 'stats.top');
    s.addStringOption((o) =>
      loc(o, 'opt.ruleset')
        .setRequired(false)
        .addChoices(...rulesetChoices()),
    );
    period(s);
    s.addStringOption((o) =>
      loc(o, 'opt.by')
        .setRequired(false)
        .addChoices(choice('points', 'stats.by.points'), choice('elo', 'stats.by.elo')),
    );
    tournament(s);
    // Issue 24: the games of one preset of the server.
    return s.addStringOption((o) => loc(o, 'opt.statsPreset').setRequired(false).setMaxLength(40));
  });
  b.addSubcommand((s) => {
    loc(s, 'stats.game');
    return s.addIntegerOption((o) => loc(o, 'opt.gameId').setRequired(true).setMinValue(1));
  });
  exportSubcommand(b);
  return b;
}
