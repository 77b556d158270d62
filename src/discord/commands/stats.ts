// /stats player|top|game and /mafia settings season|rating (issue 12). Queries live in src/stats;
// this file parses the options, renders the answer and handles its buttons. Answers are
// ephemeral, in the reader's language, with a "show to the channel" button that posts the same
// view in the server's language. Buttons carry the whole view in their id, so they work after a
// restart. Everything is an interaction response (the outbox is for game output).
import { ActionRowBuilder, ButtonBuilder } from '@discordjs/builders';
import { ButtonStyle } from 'discord-api-types/v10';
import type { APIEmbed } from 'discord-api-types/v10';
import { MessageFlags, PermissionFlagsBits, type ButtonInteraction, type ChatInputCommandInteraction, type InteractionReplyOptions } from 'discord.js';
import type { Store } from '../../db/store';
import { RULESET_IDS } from '../../engine/rulesets';
import type { Role, RulesetId } from '../../engine/types';
import { t, type Locale, type MessageKey } from '../../i18n';
import { renderChart } from '../../stats/chart';
import { gameRecord, type GameRecordView } from '../../stats/game-record';
import { latestRuleset, profile, seasonById, seasonByName, seasonsOf, top, type Period, type RankBy, type StatsFilter } from '../../stats/queries';
import { isRebuilding, ratingSettings, rebuildSeason, recomputeInBackground, saveRatingSettings } from '../../stats/record';
import type { Contexts } from '../context';
import { decodeStatsId, encodeStatsId, type StatsId, type StatsPeriodCode } from '../custom-id';
import { chunkLines } from '../render/common';
import { roleName, rulesetName } from '../render/game';

type Reply = InteractionReplyOptions & { embeds: APIEmbed[] };

const DAY = 86_400_000;
/** Text of one page of `/stats game` (an embed's description may hold 4096). */
const GAME_PAGE_CHARS = 3800;

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1).replace(/\.0$/, ''));
const date = (ms: number) => `<t:${Math.floor(ms / 1000)}:d>`;
const pct = (a: number, b: number) => (b === 0 ? 0 : Math.round((a * 100) / b));

function button(id: string, label: string, style: ButtonStyle, disabled = false) {
  return new ButtonBuilder().setCustomId(id).setLabel(label).setStyle(style).setDisabled(disabled);
}

export class StatsCommands {
  constructor(
    private readonly store: Store,
    private readonly contexts: Contexts,
    private readonly now: () => number,
    /** After the rating settings change (the lead may also wire an annul here). */
    private readonly onRecomputed: (guildId: string) => void = () => {},
  ) {}

  /** The stats queries (src/db/stats-store.ts): this file holds no SQL. */
  private get db() {
    return this.store.stats;
  }

  // -------------------------------------------------------------------------------------------
  // Periods

  /** A period option as typed: `all`, `30`, `30d`, or a season's name. */
  private parsePeriod(guildId: string, raw: string | null): { code: StatsPeriodCode } | { error: string; value: string } {
    const v = (raw ?? '').trim();
    if (v === '' || /^all$/i.test(v)) return { code: 'a' };
    const days = /^(\d{1,9})\s*d?$/i.exec(v);
    if (days) {
      const n = Number(days[1]);
      return n >= 1 && n <= 3650 ? { code: `d${n}` } : { error: 'period', value: v };
    }
    const season = seasonByName(this.db, guildId, v);
    return season ? { code: `s${season.id}` } : { error: 'season', value: v };
  }

  private period(guildId: string, code: StatsPeriodCode): Period | null {
    if (code === 'a') return { kind: 'all' };
    if (code.startsWith('d')) return { kind: 'days', days: Number(code.slice(1)) };
    const s = seasonById(this.db, guildId, Number(code.slice(1)));
    return s ? { kind: 'season', id: s.id, name: s.name, from: s.startsAt, to: s.endsAt } : null;
  }

  private periodText(loc: Locale, p: Period, tournament: number): string {
    const base = p.kind === 'all' ? t(loc, 'st.period.all') : p.kind === 'days' ? t(loc, 'st.period.days', { count: p.days }) : t(loc, 'st.period.season', { name: p.name });
    return tournament ? `${base}, ${t(loc, 'st.period.tournament', { id: tournament })}` : base;
  }

  /** The rule set most players of this server have standings in (when /stats top names none). */
  private mainRuleset(guildId: string): RulesetId {
    return (this.db.mainRuleset(guildId) as RulesetId | null) ?? 'classic-10';
  }

  private refuse(i: ChatInputCommandInteraction | ButtonInteraction, text: string) {
    return i.reply({ content: `⛔ ${text}`, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
  }

  // -------------------------------------------------------------------------------------------
  // Commands

  async command(i: ChatInputCommandInteraction, loc: Locale, sub: string): Promise<void> {
    const guildId = i.guildId!;
    const ruleset = i.options.getString('ruleset');
    if (ruleset !== null && !(RULESET_IDS as string[]).includes(ruleset)) return void (await this.refuse(i, t(loc, 'refusal.input/bad-choice')));
    const tournament = i.options.getInteger('tournament') ?? 0;
    if (tournament < 0) return void (await this.refuse(i, t(loc, 'refusal.input/bad-choice')));
    if (sub === 'game') {
      const id = i.options.getInteger('id', true);
      return void (await this.answer(i, { view: 'game', show: false, game: id, page: 0 }, loc, false));
    }
    const parsed = this.parsePeriod(guildId, i.options.getString('period'));
    if ('error' in parsed) {
      const text = parsed.error === 'season' ? t(loc, 'st.refusal.noSeason', { name: parsed.value.slice(0, 40) }) : t(loc, 'st.refusal.period', { value: parsed.value.slice(0, 40) });
      return void (await this.refuse(i, text));
    }
    if (sub === 'top') {
      const by = i.options.getString('by') ?? 'points';
      if (by !== 'points' && by !== 'elo') return void (await this.refuse(i, t(loc, 'refusal.input/bad-choice')));
      const rs = (ruleset as RulesetId | null) ?? this.mainRuleset(guildId);
      return void (await this.answer(i, { view: 'top', show: false, ruleset: rs, period: parsed.code, by, tournament, page: 0 }, loc, false));
    }
    if (sub === 'player') {
      const user = i.options.getUser('member') ?? i.user;
      if (user.bot) return void (await this.refuse(i, t(loc, 'st.refusal.bot')));
      const rs = (ruleset as RulesetId | null) ?? latestRuleset(this.db, guildId, user.id);
      if (!rs) return void (await i.reply({ content: t(loc, 'st.player.noneAny', { user: `<@${user.id}>` }), flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } }));
      return void (await this.answer(i, { view: 'player', show: false, ruleset: rs, period: parsed.code, user: user.id, tournament }, loc, false));
    }
    await this.refuse(i, t(loc, 'refusal.input/unknown'));
  }

  /** A /stats button: another page (the message is updated), or the view posted to the channel. */
  async component(i: ButtonInteraction, loc: Locale): Promise<void> {
    const id = decodeStatsId(i.customId);
    if (!id || !i.inGuild()) return void (await this.refuse(i, t(loc, 'refusal.input/forged')));
    if (id.show) {
      const pub = this.contexts.publicLocale(i.guildId, i.guildLocale);
      return void (await this.answer(i, { ...id, show: false }, pub, true));
    }
    await this.answer(i, id, loc, false);
  }

  /** Renders a view and answers with it: a new ephemeral reply, an update of the clicked message, or a public post. */
  private async answer(i: ChatInputCommandInteraction | ButtonInteraction, id: StatsId, loc: Locale, publish: boolean): Promise<void> {
    const view = await this.render(i, id, loc, publish);
    if ('refusal' in view) return void (await this.refuse(i, view.refusal));
    const body = { ...view, allowedMentions: { parse: [] as [] } };
    if (publish) await i.reply(body);
    else if (i.isButton()) await i.update({ ...body, ...(body.files ? {} : { files: [], attachments: [] }) } as never);
    else await i.reply({ ...body, flags: MessageFlags.Ephemeral });
  }

  private async render(i: ChatInputCommandInteraction | ButtonInteraction, id: StatsId, loc: Locale, publish: boolean): Promise<Reply | { refusal: string }> {
    const guildId = i.guildId!;
    if (id.view === 'game') {
      const rec = gameRecord(this.db, guildId, id.game);
      if (!rec) return { refusal: t(loc, 'st.refusal.game', { id: id.game }) };
      return this.gameView(rec, id.page, loc, publish, i.user.id);
    }
    if (isRebuilding(this.db, guildId, id.ruleset)) return { refusal: t(loc, 'st.refusal.rebuilding') };
    const period = this.period(guildId, id.period);
    if (!period) return { refusal: t(loc, 'st.refusal.stale') };
    const filter: StatsFilter = { guildId, ruleset: id.ruleset as RulesetId, period, tournament: id.tournament || null, now: this.now() };
    if (id.view === 'top') return this.topView(filter, id, loc, publish, i.user.id);
    const name = await this.displayName(i, id.user);
    return this.playerView(filter, id, name, loc, publish, i.user.id);
  }

  private async displayName(i: ChatInputCommandInteraction | ButtonInteraction, userId: string): Promise<string> {
    if (i.isChatInputCommand()) {
      const m = i.options.getMember('member');
      const u = i.options.getUser('member');
      if (u?.id === userId) return (m && 'displayName' in m ? m.displayName : null) ?? u.displayName ?? u.username;
    }
    if (i.user.id === userId) return (i.member && 'displayName' in i.member ? i.member.displayName : null) ?? i.user.displayName ?? i.user.username;
    try {
      const u = await i.client.users.fetch(userId);
      return u.displayName ?? u.username;
    } catch {
      return `#${userId.slice(-4)}`;
    }
  }

  private showRow(id: StatsId, loc: Locale, extra: ButtonBuilder[] = []) {
    return new ActionRowBuilder<ButtonBuilder>().addComponents(...extra, button(encodeStatsId({ ...id, show: true }), t(loc, 'st.btn.show'), ButtonStyle.Primary)).toJSON();
  }

  private pager(id: Extract<StatsId, { view: 'top' | 'game' }>, page: number, pages: number, loc: Locale) {
    return [
      button(encodeStatsId({ ...id, page: Math.max(0, page - 1) } as StatsId), t(loc, 'st.btn.prev'), ButtonStyle.Secondary, page <= 0),
      button(encodeStatsId({ ...id, page: Math.min(pages - 1, page + 1) } as StatsId), t(loc, 'st.btn.next'), ButtonStyle.Secondary, page >= pages - 1),
    ];
  }

  private topView(f: StatsFilter, id: Extract<StatsId, { view: 'top' }>, loc: Locale, publish: boolean, viewer: string): Reply {
    const by: RankBy = id.by;
    const page = top(this.db, f, by, id.page, viewer);
    const rs = rulesetName(loc, f.ruleset);
    const periodText = this.periodText(loc, f.period, id.tournament);
    if (page.total === 0) return { embeds: [{ description: t(loc, 'st.top.empty', { ruleset: rs, period: periodText }) }], components: [] };
    const line = (r: (typeof page.rows)[number]) =>
      by === 'elo'
        ? t(loc, 'st.top.lineElo', { place: r.place, user: `<@${r.userId}>`, elo: Math.round(r.elo ?? 0), games: r.games })
        : t(loc, 'st.top.line', { place: r.place, user: `<@${r.userId}>`, points: fmt(r.points), games: r.games, wins: r.wins, best: r.bestPlayer });
    const lines = page.rows.map(line);
    if (page.own) lines.push('', `${publish ? '' : `${t(loc, 'st.top.you')}: `}${line(page.own)}`);
    const view: Extract<StatsId, { view: 'top' }> = { ...id, page: page.page };
    if (publish) lines.push('', t(loc, 'st.shownBy', { user: `<@${viewer}>` }));
    return {
      embeds: [
        {
          title: t(loc, by === 'elo' ? 'st.top.titleElo' : 'st.top.title', { ruleset: rs, period: periodText }),
          description: lines.join('\n'),
          footer: { text: t(loc, 'st.top.footer', { page: page.page + 1, pages: page.pages, total: page.total }) },
        },
      ],
      components: publish ? [] : [this.showRow(view, loc, page.pages > 1 ? this.pager(view, page.page, page.pages, loc) : [])],
    };
  }

  private playerView(f: StatsFilter, id: Extract<StatsId, { view: 'player' }>, name: string, loc: Locale, publish: boolean, viewer: string): Reply {
    const p = profile(this.db, f, id.user);
    const rs = rulesetName(loc, f.ruleset);
    const periodText = this.periodText(loc, f.period, id.tournament);
    if (p.games === 0 && p.last.length === 0) {
      return { embeds: [{ description: t(loc, 'st.player.none', { user: `<@${id.user}>`, ruleset: rs, period: periodText }) }], components: [] };
    }
    const lines = [
      `<@${id.user}>`,
      t(loc, 'st.player.games', { games: p.games, wins: p.wins, rate: pct(p.wins, p.games) }),
      t(loc, 'st.player.points', { points: fmt(p.points), avg: p.games ? fmt(Math.round((p.points / p.games) * 100) / 100) : '0' }),
      t(loc, 'st.player.titles', { best: p.bestPlayer, moves: p.bestMoves, n1: p.killedNight1 }),
      t(loc, 'st.player.fouls', { fouls: p.fouls, removals: p.removals }),
    ];
    if (p.streak) lines.push(t(loc, 'st.player.streak', { streak: t(loc, `st.streak.${p.streak.outcome}` as MessageKey, { count: p.streak.length }) }));
    lines.push(p.elo === null ? t(loc, 'st.player.eloNone') : t(loc, 'st.player.elo', { elo: Math.round(p.elo), trend: `${(p.trend ?? 0) >= 0 ? '+' : '−'}${fmt(Math.abs(p.trend ?? 0))}` }));
    if (publish) lines.push('', t(loc, 'st.shownBy', { user: `<@${viewer}>` }));
    const roles = p.byRole.map((r) => t(loc, 'st.player.roleLine', { role: roleName(loc, r.role as Role), wins: r.wins, games: r.games, rate: pct(r.wins, r.games) }));
    const last = p.last.map((g) =>
      t(loc, 'st.player.lastLine', {
        id: g.gameId,
        date: date(g.finishedAt),
        role: roleName(loc, g.role as Role),
        outcome: t(loc, `st.outcome.${g.outcome}` as MessageKey),
        points: fmt(g.points),
        flag: g.counts ? '' : t(loc, 'st.player.notCounted'),
      }),
    );
    const embed: APIEmbed = {
      title: t(loc, 'st.player.title', { name, ruleset: rs, period: periodText }).slice(0, 256),
      description: lines.join('\n'),
      fields: [
        ...(roles.length ? [{ name: t(loc, 'st.player.roles'), value: roles.join('\n').slice(0, 1024), inline: true }] : []),
        ...(last.length ? [{ name: t(loc, 'st.player.last'), value: chunkLines(last, 1024)[0]!, inline: false }] : []),
      ],
    };
    const reply: Reply = { embeds: [embed], components: publish ? [] : [this.showRow(id, loc)] };
    if (p.history.length > 0) {
      const dateText = (ms: number) => new Intl.DateTimeFormat(loc, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(ms);
      const png = renderChart({
        title: t(loc, 'st.chart.title', { name, ruleset: rs }),
        points: p.history.map((h) => ({ at: h.at, value: h.elo })),
        fromLabel: dateText(p.history[0]!.at),
        toLabel: dateText(p.history[p.history.length - 1]!.at),
        baseline: ratingSettings(this.db, f.guildId).elo.start,
      });
      embed.image = { url: 'attachment://elo.png' };
      reply.files = [{ attachment: png, name: 'elo.png' }];
    }
    return reply;
  }

  private gameView(rec: GameRecordView, page: number, loc: Locale, publish: boolean, viewer: string): Reply {
    const user = new Map(rec.seats.map((s) => [s.seat, s.userId]));
    const tag = (seat: number) => `#${seat} <@${user.get(seat) ?? ''}>`;
    const lines: string[] = [];
    const result = t(loc, `winner.${rec.winner}` as MessageKey) + (rec.reason === 'host' ? t(loc, 'st.game.byHost') : '');
    lines.push(t(loc, 'st.game.summary', { result, date: date(rec.finishedAt) }));
    if (rec.notCounted) lines.push(`⚠️ ${t(loc, `st.game.notCounted.${rec.notCounted}` as MessageKey)}`);
    lines.push('', t(loc, 'st.game.seats'));
    for (const s of rec.seats) {
      const holders = s.holders ? t(loc, 'st.game.holders', { list: s.holders.map((h) => `<@${h.userId}> ${Math.round(h.share * 100)}%`).join(', ') }) : '';
      lines.push(t(loc, 'st.game.seatLine', { seat: s.seat, user: `<@${s.userId}>`, role: roleName(loc, s.role), holders }));
    }
    const nights = new Map(rec.nights.map((n) => [n.n, n]));
    const dayNumbers = [...new Set([...rec.days.map((d) => d.n), ...rec.nights.map((n) => n.n + 1)])].sort((a, b) => a - b);
    for (const n of dayNumbers) {
      const night = nights.get(n - 1);
      if (night && n - 1 >= 1) lines.push('', t(loc, 'st.game.night', { n: n - 1, result: night.out.length ? night.out.map(tag).join(', ') : t(loc, 'st.game.nightNobody') }));
      const d = rec.days.find((x) => x.n === n);
      if (!d) continue;
      lines.push('', t(loc, 'st.game.day', { n }));
      lines.push(d.nominations.length ? t(loc, 'st.game.nominations', { list: d.nominations.map((x) => `${tag(x.target)} ← #${x.by}`).join(', ') }) : t(loc, 'st.game.noNominations'));
      for (const v of d.votes) {
        const tally = v.tally.map((x) => `#${x.seat}: ${x.votes}`).join(', ');
        const res = v.outcome === 'leaves' ? t(loc, 'st.game.leaves', { seats: v.leaving.map(tag).join(', ') }) : v.outcome === 'tie' ? t(loc, 'st.game.tie') : t(loc, 'st.game.nobody');
        lines.push(t(loc, v.round === 2 ? 'st.game.revote' : 'st.game.vote', { tally, result: res }));
      }
      for (const a of d.allLeave) lines.push(t(loc, 'st.game.allLeave', { yes: a.yes, no: a.no, result: t(loc, a.passed ? 'st.game.allLeaveYes' : 'st.game.allLeaveNo') }));
    }
    lines.push('', t(loc, 'st.game.out'));
    if (rec.out.length === 0) lines.push(t(loc, 'st.game.outNone'));
    for (const o of rec.out) {
      lines.push(t(loc, 'st.game.outLine', { seat: o.seat, user: `<@${user.get(o.seat) ?? ''}>`, how: t(loc, `st.leave.${o.by}` as MessageKey), when: t(loc, o.phase === 'day' ? 'st.clock.day' : 'st.clock.night', { n: o.n }) }));
    }
    lines.push('', t(loc, 'st.game.points'));
    for (const p of rec.points) {
      const items = Object.entries(p.items)
        .map(([k, v]) => `${t(loc, `st.item.${k}` as MessageKey)} ${v > 0 ? '+' : '−'}${fmt(Math.abs(v))}`)
        .join(', ');
      lines.push(t(loc, 'st.game.pointsLine', { seat: p.seat, user: `<@${p.userId}>`, total: fmt(p.total), items: items ? ` (${items})` : '' }));
    }
    if (publish) lines.push('', t(loc, 'st.shownBy', { user: `<@${viewer}>` }));
    // Whole lines only: a page never cuts a mention.
    const pages = chunkLines(lines, GAME_PAGE_CHARS);
    const at = Math.min(Math.max(0, page), pages.length - 1);
    const id: Extract<StatsId, { view: 'game' }> = { view: 'game', show: false, game: rec.id, page: at };
    return {
      embeds: [
        {
          title: t(loc, 'st.game.title', { id: rec.id, ruleset: rulesetName(loc, rec.ruleset) }),
          description: pages[at]!,
          ...(pages.length > 1 ? { footer: { text: t(loc, 'st.game.page', { page: at + 1, pages: pages.length }) } } : {}),
        },
      ],
      components: publish ? [] : [this.showRow(id, loc, pages.length > 1 ? this.pager(id, at, pages.length, loc) : [])],
    };
  }

  // -------------------------------------------------------------------------------------------
  // /mafia settings season | rating (Manage Server)

  async settings(i: ChatInputCommandInteraction, loc: Locale, sub: 'season' | 'rating'): Promise<void> {
    if (!i.memberPermissions?.has(PermissionFlagsBits.ManageGuild)) return void (await this.refuse(i, t(loc, 'refusal.settings/permission')));
    const guildId = i.guildId!;
    const say = (content: string) => i.reply({ content, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
    if (sub === 'rating') {
      const cur = ratingSettings(this.db, guildId);
      const win = i.options.getNumber('win_factor');
      const loss = i.options.getNumber('loss_factor');
      const start = i.options.getNumber('start_rating');
      const min = i.options.getInteger('min_moves');
      const bad = (x: number | null, hi: number) => x !== null && (!Number.isFinite(x) || x < 0 || x > hi);
      if (bad(win, 100) || bad(loss, 100) || bad(start, 10_000) || bad(min, 10_000)) return void (await this.refuse(i, t(loc, 'st.rating.bad')));
      const next = { elo: { win: win ?? cur.elo.win, loss: loss ?? cur.elo.loss, start: start ?? cur.elo.start }, minMoves: min ?? cur.minMoves };
      const changed = win !== null || loss !== null || start !== null || min !== null;
      let finished = true;
      if (changed) {
        saveRatingSettings(this.db, guildId, next, this.now());
        // Rebuilt in small steps (games go on meanwhile); the answer waits a little for a small server.
        const job = recomputeInBackground(this.db, guildId).then(() => this.onRecomputed(guildId));
        finished = await Promise.race([job.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 2000).unref())]);
      }
      const show = t(loc, 'st.rating.show', { win: fmt(next.elo.win), loss: fmt(next.elo.loss), start: fmt(next.elo.start), min: next.minMoves });
      return void (await say(changed ? `${t(loc, finished ? 'st.rating.saved' : 'st.rating.saving')}\n${show}` : show));
    }
    const action = i.options.getString('action', true);
    const name = (i.options.getString('name') ?? '').trim();
    const dayText = (ms: number) => `<t:${Math.floor(ms / 1000)}:D>`;
    if (action === 'list') {
      const list = seasonsOf(this.db, guildId);
      if (list.length === 0) return void (await say(t(loc, 'st.season.none')));
      const lines = list.map((s) => t(loc, 'st.season.line', { name: s.name, start: dayText(s.startsAt), end: s.endsAt === null ? t(loc, 'st.season.open') : dayText(s.endsAt - 1) }));
      return void (await say(chunkLines([t(loc, 'st.season.list'), ...lines], 1900)[0]!));
    }
    if (!name || name.length > 40 || /[\n\r`]/.test(name)) return void (await this.refuse(i, t(loc, 'st.season.needName')));
    const parseDay = (raw: string | null): number | null | 'bad' => {
      if (raw === null || raw.trim() === '') return null;
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw.trim());
      if (!m) return 'bad';
      const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
      const d = new Date(ms);
      return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]) ? ms : 'bad';
    };
    if (action === 'define') {
      const start = parseDay(i.options.getString('start'));
      const end = parseDay(i.options.getString('end'));
      if (start === 'bad' || end === 'bad') return void (await this.refuse(i, t(loc, 'st.season.badDate')));
      const now = this.now();
      const from = start ?? now - (now % DAY);
      const to = end === null ? null : end + DAY; // the end day is included
      if (to !== null && to <= from) return void (await this.refuse(i, t(loc, 'st.season.order')));
      if (seasonByName(this.db, guildId, name)) return void (await this.refuse(i, t(loc, 'st.season.exists', { name })));
      this.store.transaction(() => {
        const id = this.db.addSeason(guildId, name, from, to, now);
        rebuildSeason(this.db, guildId, id);
      });
      return void (await say(t(loc, 'st.season.defined', { name, start: dayText(from), end: to === null ? t(loc, 'st.season.open') : dayText(to - 1) })));
    }
    if (action === 'end') {
      const s = seasonByName(this.db, guildId, name);
      if (!s) return void (await this.refuse(i, t(loc, 'st.refusal.noSeason', { name })));
      const now = this.now();
      if (s.endsAt !== null && s.endsAt <= now) return void (await this.refuse(i, t(loc, 'st.season.alreadyEnded', { name: s.name })));
      this.store.transaction(() => {
        this.db.endSeason(s.id, Math.max(now, s.startsAt + 1));
        rebuildSeason(this.db, guildId, s.id);
      });
      return void (await say(t(loc, 'st.season.ended', { name: s.name, end: dayText(now) })));
    }
    await this.refuse(i, t(loc, 'refusal.input/bad-choice'));
  }
}
