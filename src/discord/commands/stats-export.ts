// /stats export (issue 24): the standings and finished games of a rule set and period as CSV or
// JSON files, a private answer to whoever asks (the same numbers /stats shows anyone). The
// building is src/stats/export.ts; this file reads the options, keeps the cooldowns and answers.
// docs/export.md is the format; docs/hosting.md "Exporting results" the how-to.
import { AttachmentBuilder, MessageFlags, type ChatInputCommandInteraction } from 'discord.js';
import type { SlashCommandBuilder } from '@discordjs/builders';
import type { StatsStore } from '../../db/stats-store';
import { RULESET_IDS } from '../../engine/rulesets';
import type { RulesetId } from '../../engine/types';
import { t, type Locale } from '../../i18n';
import { buildExport, type ExportFormat, type ExportWhat } from '../../stats/export';
import type { Period, StatsFilter } from '../../stats/queries';
import { isRebuilding } from '../../stats/record';
import type { StatsPeriodCode } from '../custom-id';
import { rulesetName } from '../render/words';
import { choice, loc, rulesetChoices } from './builder';

/** A member's next export waits this long after his last one (the export reads every row). */
export const EXPORT_COOLDOWN_MS = 60_000;
/** Discord's attachment limit for bots when the interaction does not say it (10 MiB). */
const DEFAULT_LIMIT = 10 * 1024 * 1024;

/** What /stats already knows how to do, lent to the export (the period option, the main rule set). */
export interface StatsPeriods {
  parsePeriod(
    guildId: string,
    raw: string | null,
  ): Promise<{ code: StatsPeriodCode } | { error: string; value: string }>;
  period(guildId: string, code: StatsPeriodCode): Promise<Period | null>;
  mainRuleset(guildId: string): Promise<RulesetId>;
}

/** `/stats export`'s options, added to the /stats command's definition. */
export function exportSubcommand(b: SlashCommandBuilder): void {
  b.addSubcommand((s) => {
    loc(s, 'stats.export');
    s.addStringOption((o) =>
      loc(o, 'opt.exportFormat')
        .setRequired(false)
        .addChoices(choice('csv', 'export.format.csv'), choice('json', 'export.format.json')),
    );
    s.addStringOption((o) =>
      loc(o, 'opt.exportWhat')
        .setRequired(false)
        .addChoices(
          choice('both', 'export.what.both'),
          choice('standings', 'export.what.standings'),
          choice('games', 'export.what.games'),
        ),
    );
    s.addStringOption((o) =>
      loc(o, 'opt.ruleset')
        .setRequired(false)
        .addChoices(...rulesetChoices()),
    );
    s.addStringOption((o) => loc(o, 'opt.period').setRequired(false).setMaxLength(40));
    return s.addIntegerOption((o) => loc(o, 'opt.tournament').setRequired(false).setMinValue(1));
  });
}

/** Bytes as a reader reads them: 10 MiB, 512 KiB. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KiB`;
}

export class StatsExportCommand {
  /** `guild:user` -> when his last export was made. */
  private readonly last = new Map<string, number>();
  /** Servers with an export being built (one at a time per server). */
  private readonly busy = new Set<string>();

  constructor(
    private readonly db: StatsStore,
    private readonly periods: StatsPeriods,
    private readonly now: () => number,
  ) {}

  private refuse(i: ChatInputCommandInteraction, text: string) {
    return i.reply({ content: `⛔ ${text}`, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
  }

  async run(i: ChatInputCommandInteraction, loc: Locale): Promise<void> {
    const guildId = i.guildId!;
    const format = (i.options.getString('format') ?? 'csv') as ExportFormat;
    const what = (i.options.getString('what') ?? 'both') as ExportWhat;
    const ruleset = i.options.getString('ruleset');
    const tournament = i.options.getInteger('tournament') ?? 0;
    if (
      !['csv', 'json'].includes(format) ||
      !['standings', 'games', 'both'].includes(what) ||
      (ruleset !== null && !(RULESET_IDS as string[]).includes(ruleset)) ||
      tournament < 0
    )
      return void (await this.refuse(i, t(loc, 'refusal.input/bad-choice')));
    const parsed = await this.periods.parsePeriod(guildId, i.options.getString('period'));
    if ('error' in parsed) {
      const text =
        parsed.error === 'season'
          ? t(loc, 'st.refusal.noSeason', { name: parsed.value.slice(0, 40) })
          : t(loc, 'st.refusal.period', { value: parsed.value.slice(0, 40) });
      return void (await this.refuse(i, text));
    }
    const rs = (ruleset as RulesetId | null) ?? (await this.periods.mainRuleset(guildId));
    if (isRebuilding(this.db, guildId, rs)) return void (await this.refuse(i, t(loc, 'st.refusal.rebuilding')));
    const key = `${guildId}:${i.user.id}`;
    const since = this.now() - (this.last.get(key) ?? -Infinity);
    if (since < EXPORT_COOLDOWN_MS) {
      // Discord shows the time left in the reader's own language ("in 58 seconds").
      const when = `<t:${Math.ceil((this.now() - since + EXPORT_COOLDOWN_MS) / 1000)}:R>`;
      return void (await this.refuse(i, t(loc, 'refusal.export/cooldown', { when })));
    }
    if (this.busy.has(guildId)) return void (await this.refuse(i, t(loc, 'refusal.export/busy')));

    this.busy.add(guildId);
    try {
      // The reads take longer than Discord's 3 seconds on a large server: the answer comes later.
      await i.deferReply({ flags: MessageFlags.Ephemeral });
      const period = await this.periods.period(guildId, parsed.code);
      if (!period) return void (await i.editReply({ content: `⛔ ${t(loc, 'st.refusal.stale')}` }));
      const filter: StatsFilter = { guildId, ruleset: rs, period, tournament: tournament || null, now: this.now() };
      const maxBytes = i.attachmentSizeLimit > 0 ? i.attachmentSizeLimit : DEFAULT_LIMIT;
      const result = await buildExport(this.db, { filter, format, what, nameOf: (u) => this.nameOf(i, u), maxBytes });
      const params = { ruleset: rulesetName(loc, rs), period: periodText(loc, period, tournament) };
      // The work is done (an export over the limit read up to the limit): the member waits.
      if (result.kind !== 'empty') this.last.set(key, this.now());
      if (result.kind === 'too-large') {
        const text = t(loc, 'refusal.export/too-large', { file: result.file, size: sizeText(result.limit) });
        return void (await i.editReply({ content: `⛔ ${text}`, allowedMentions: { parse: [] } }));
      }
      if (result.kind === 'empty') {
        // Only the standings asked for, and only casual games: "no counted games", as /stats top says.
        const text = t(loc, what === 'standings' ? 'st.top.empty' : 'export.empty', params);
        return void (await i.editReply({ content: text, allowedMentions: { parse: [] } }));
      }
      const players = t(loc, 'export.players', { count: result.players });
      await i.editReply({
        content: t(loc, 'export.ready', { ...params, players, count: result.games }),
        files: result.files.map((f) => new AttachmentBuilder(f.data, { name: f.name })),
        allowedMentions: { parse: [] },
      });
    } finally {
      this.busy.delete(guildId);
    }
  }

  /** The member's name on this server when the bot has it at hand (no request per player). */
  private nameOf(i: ChatInputCommandInteraction, userId: string): string | null {
    const m = i.guild?.members.cache.get(userId);
    if (m) return m.displayName;
    const u = i.client.users.cache.get(userId);
    return u ? (u.globalName ?? u.username) : null;
  }
}

function periodText(loc: Locale, p: Period, tournament: number): string {
  const base =
    p.kind === 'all'
      ? t(loc, 'st.period.all')
      : p.kind === 'days'
        ? t(loc, 'st.period.days', { count: p.days })
        : t(loc, 'st.period.season', { name: p.name });
  return tournament ? `${base}, ${t(loc, 'st.period.tournament', { id: tournament })}` : base;
}
