// `/mafia settings season` and `/mafia settings rating` (Manage Server): the ratings' seasons and
// Elo constants. A change rebuilds the server's ratings in small steps while games go on.
import { MessageFlags, PermissionFlagsBits, type ChatInputCommandInteraction } from 'discord.js';
import type { Store } from '../../db/store';
import { t, type Locale } from '../../i18n';
import { seasonByName, seasonsOf } from '../../stats/queries';
import { ratingSettings, rebuildSeason, recomputeInBackground, saveRatingSettings } from '../../stats/record';
import { chunkLines } from '../render/common';
import { fmt } from '../render/stats';
import type { SlashCommandSubcommandGroupBuilder } from '@discordjs/builders';
import { choice, loc } from './builder';

const DAY = 86_400_000;

export class RatingSettingsCommand {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    /** After the rating settings change. */
    private readonly onRecomputed: (guildId: string) => void = () => {},
  ) {}

  /** The stats queries (src/db/stats-store.ts). */
  private get db() {
    return this.store.stats;
  }

  private refuse(i: ChatInputCommandInteraction, text: string) {
    return i.reply({ content: `⛔ ${text}`, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
  }

  async run(i: ChatInputCommandInteraction, loc: Locale, sub: 'season' | 'rating'): Promise<void> {
    if (!i.memberPermissions?.has(PermissionFlagsBits.ManageGuild))
      return void (await this.refuse(i, t(loc, 'refusal.settings/permission')));
    const guildId = i.guildId!;
    const say = (content: string) =>
      i.reply({ content, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
    if (sub === 'rating') {
      const cur = await ratingSettings(this.db, guildId);
      const win = i.options.getNumber('win_factor');
      const loss = i.options.getNumber('loss_factor');
      const start = i.options.getNumber('start_rating');
      const min = i.options.getInteger('min_moves');
      const bad = (x: number | null, hi: number) => x !== null && (!Number.isFinite(x) || x < 0 || x > hi);
      if (bad(win, 100) || bad(loss, 100) || bad(start, 10_000) || bad(min, 10_000))
        return void (await this.refuse(i, t(loc, 'st.rating.bad')));
      const next = {
        elo: { win: win ?? cur.elo.win, loss: loss ?? cur.elo.loss, start: start ?? cur.elo.start },
        minMoves: min ?? cur.minMoves,
      };
      const changed = win !== null || loss !== null || start !== null || min !== null;
      let finished = true;
      if (changed) {
        await saveRatingSettings(this.db, guildId, next, this.now());
        // Rebuilt in small steps (games go on meanwhile); the answer waits a little for a small server.
        const job = recomputeInBackground(this.db, guildId).then(() => this.onRecomputed(guildId));
        finished = await Promise.race([
          job.then(() => true),
          new Promise<boolean>((r) => setTimeout(() => r(false), 2000).unref()),
        ]);
      }
      const show = t(loc, 'st.rating.show', {
        win: fmt(loc, next.elo.win),
        loss: fmt(loc, next.elo.loss),
        start: fmt(loc, next.elo.start),
        count: next.minMoves,
      });
      return void (await say(changed ? `${t(loc, finished ? 'st.rating.saved' : 'st.rating.saving')}\n${show}` : show));
    }
    const action = i.options.getString('action', true);
    const name = (i.options.getString('name') ?? '').trim();
    const dayText = (ms: number) => `<t:${Math.floor(ms / 1000)}:D>`;
    if (action === 'list') {
      const list = await seasonsOf(this.db, guildId);
      if (list.length === 0) return void (await say(t(loc, 'st.season.none')));
      const lines = list.map((s) =>
        t(loc, 'st.season.line', {
          name: s.name,
          start: dayText(s.startsAt),
          end: s.endsAt === null ? t(loc, 'st.season.open') : dayText(s.endsAt - 1),
        }),
      );
      return void (await say(chunkLines([t(loc, 'st.season.list'), ...lines], 1900)[0]!));
    }
    if (!name || name.length > 40 || /[\n\r`]/.test(name))
      return void (await this.refuse(i, t(loc, 'st.season.needName')));
    const parseDay = (raw: string | null): number | null | 'bad' => {
      if (raw === null || raw.trim() === '') return null;
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw.trim());
      if (!m) return 'bad';
      const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
      const d = new Date(ms);
      return d.getUTCFullYear() === Number(m[1]) &&
        d.getUTCMonth() === Number(m[2]) - 1 &&
        d.getUTCDate() === Number(m[3])
        ? ms
        : 'bad';
    };
    if (action === 'define') {
      const start = parseDay(i.options.getString('start'));
      const end = parseDay(i.options.getString('end'));
      if (start === 'bad' || end === 'bad') return void (await this.refuse(i, t(loc, 'st.season.badDate')));
      const now = this.now();
      const from = start ?? now - (now % DAY);
      const to = end === null ? null : end + DAY; // the end day is included
      if (to !== null && to <= from) return void (await this.refuse(i, t(loc, 'st.season.order')));
      // Checked and defined in one transaction: the same name given twice at once makes one season.
      const defined = await this.store.transaction(async () => {
        if (await seasonByName(this.db, guildId, name)) return false;
        const id = await this.db.addSeason(guildId, name, from, to, now);
        await rebuildSeason(this.db, guildId, id);
        return true;
      });
      if (!defined) return void (await this.refuse(i, t(loc, 'st.season.exists', { name })));
      return void (await say(
        t(loc, 'st.season.defined', {
          name,
          start: dayText(from),
          end: to === null ? t(loc, 'st.season.open') : dayText(to - 1),
        }),
      ));
    }
    if (action === 'end') {
      const s = await seasonByName(this.db, guildId, name);
      if (!s) return void (await this.refuse(i, t(loc, 'st.refusal.noSeason', { name })));
      const now = this.now();
      if (s.endsAt !== null && s.endsAt <= now)
        return void (await this.refuse(i, t(loc, 'st.season.alreadyEnded', { name: s.name })));
      await this.store.transaction(async () => {
        await this.db.endSeason(s.id, Math.max(now, s.startsAt + 1));
        await rebuildSeason(this.db, guildId, s.id);
      });
      return void (await say(t(loc, 'st.season.ended', { name: s.name, end: dayText(now) })));
    }
    await this.refuse(i, t(loc, 'refusal.input/bad-choice'));
  }
}

/** Issue 12: `/mafia settings season` and `/mafia settings rating`. */
export function ratingSettingsSubcommands(g: SlashCommandSubcommandGroupBuilder) {
  g.addSubcommand((s) => {
    loc(s, 'mafia.settings.season');
    s.addStringOption((o) =>
      loc(o, 'opt.seasonAction')
        .setRequired(true)
        .addChoices(
          choice('define', 'season.action.define'),
          choice('end', 'season.action.end'),
          choice('list', 'season.action.list'),
        ),
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
