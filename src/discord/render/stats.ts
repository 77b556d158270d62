// The views of /stats (top, player, game) as message payloads: the numbers come from src/stats,
// the words from the catalogs; the buttons carry the whole view in their id (see custom-id.ts).
import { ActionRowBuilder, ButtonBuilder } from '@discordjs/builders';
import { ButtonStyle } from 'discord-api-types/v10';
import type { APIEmbed } from 'discord-api-types/v10';
import type { InteractionReplyOptions } from 'discord.js';
import type { Role } from '../../engine/types';
import { t, type Locale, type MessageKey } from '../../i18n';
import { renderChart } from '../../stats/chart';
import type { GameRecordView } from '../../stats/game-record';
import type { Period, RankBy, StatsFilter, top, profile } from '../../stats/queries';
import { encodeStatsId, type StatsId } from '../custom-id';
import { chunkLines } from './common';
import { achievementLines } from './achievements';
import { roleName, rulesetName } from './words';

export type Reply = InteractionReplyOptions & { embeds: APIEmbed[] };
type TopPage = Awaited<ReturnType<typeof top>>;
type Profile = Awaited<ReturnType<typeof profile>>;

/** Text of one page of `/stats game` (an embed's description may hold 4096). */
const GAME_PAGE_CHARS = 3800;

/** A number as the reader writes it: one decimal at most, a decimal comma in uk/ru, a true minus. */
export function fmt(loc: Locale, n: number): string {
  const abs = Math.abs(n);
  const body = Number.isInteger(abs) ? String(abs) : abs.toFixed(1).replace(/\.0$/, '');
  return `${n < 0 && body !== '0' ? '−' : ''}${loc === 'en' ? body : body.replace('.', ',')}`;
}
const date = (ms: number) => `<t:${Math.floor(ms / 1000)}:d>`;
const pct = (a: number, b: number) => (b === 0 ? 0 : Math.round((a * 100) / b));

function button(id: string, label: string, style: ButtonStyle, disabled = false) {
  return new ButtonBuilder().setCustomId(id).setLabel(label).setStyle(style).setDisabled(disabled);
}

function periodLabel(loc: Locale, p: Period, tournament: number, preset?: string): string {
  const base =
    p.kind === 'all'
      ? t(loc, 'st.period.all')
      : p.kind === 'days'
        ? t(loc, 'st.period.days', { count: p.days })
        : t(loc, 'st.period.season', { name: p.name });
  const withTournament = tournament ? `${base}, ${t(loc, 'st.period.tournament', { id: tournament })}` : base;
  return preset ? `${withTournament}, ${t(loc, 'st.top.preset', { name: preset })}` : withTournament;
}

function showRow(id: StatsId, loc: Locale, extra: ButtonBuilder[] = []) {
  return new ActionRowBuilder<ButtonBuilder>()
    .addComponents(...extra, button(encodeStatsId({ ...id, show: true }), t(loc, 'st.btn.show'), ButtonStyle.Primary))
    .toJSON();
}

function pager(id: Extract<StatsId, { view: 'top' | 'game' }>, page: number, pages: number, loc: Locale) {
  return [
    button(
      encodeStatsId({ ...id, page: Math.max(0, page - 1) } as StatsId),
      t(loc, 'st.btn.prev'),
      ButtonStyle.Secondary,
      page <= 0,
    ),
    button(
      encodeStatsId({ ...id, page: Math.min(pages - 1, page + 1) } as StatsId),
      t(loc, 'st.btn.next'),
      ButtonStyle.Secondary,
      page >= pages - 1,
    ),
  ];
}

export function topView(
  page: TopPage,
  f: StatsFilter,
  id: Extract<StatsId, { view: 'top' }>,
  loc: Locale,
  publish: boolean,
  viewer: string,
): Reply {
  const by: RankBy = id.by;
  const rs = rulesetName(loc, f.ruleset);
  const periodText = periodLabel(loc, f.period, id.tournament, id.preset);
  if (page.total === 0)
    return { embeds: [{ description: t(loc, 'st.top.empty', { ruleset: rs, period: periodText }) }], components: [] };
  const line = (r: (typeof page.rows)[number]) =>
    by === 'elo'
      ? t(loc, 'st.top.lineElo', {
          place: r.place,
          user: `<@${r.userId}>`,
          elo: Math.round(r.elo ?? 0),
          games: r.games,
        })
      : t(loc, 'st.top.line', {
          place: r.place,
          user: `<@${r.userId}>`,
          points: fmt(loc, r.points),
          games: r.games,
          wins: r.wins,
          best: r.bestPlayer,
        });
  const lines = page.rows.map(line);
  if (page.own) lines.push('', `${publish ? '' : `${t(loc, 'st.top.you')}: `}${line(page.own)}`);
  const view: Extract<StatsId, { view: 'top' }> = { ...id, page: page.page };
  if (publish) lines.push('', t(loc, 'st.shownBy', { user: `<@${viewer}>` }));
  return {
    embeds: [
      {
        title: t(loc, by === 'elo' ? 'st.top.titleElo' : 'st.top.title', { ruleset: rs, period: periodText }),
        description: lines.join('\n'),
        footer: { text: t(loc, 'st.top.footer', { page: page.page + 1, pages: page.pages, count: page.total }) },
      },
    ],
    components: publish ? [] : [showRow(view, loc, page.pages > 1 ? pager(view, page.page, page.pages, loc) : [])],
  };
}

export function playerView(
  p: Profile,
  eloStart: number,
  f: StatsFilter,
  id: Extract<StatsId, { view: 'player' }>,
  name: string,
  loc: Locale,
  publish: boolean,
  viewer: string,
): Reply {
  const rs = rulesetName(loc, f.ruleset);
  const periodText = periodLabel(loc, f.period, id.tournament);
  if (p.games === 0 && p.last.length === 0) {
    return {
      embeds: [{ description: t(loc, 'st.player.none', { user: `<@${id.user}>`, ruleset: rs, period: periodText }) }],
      components: [],
    };
  }
  const lines = [
    `<@${id.user}>`,
    t(loc, 'st.player.games', { games: p.games, wins: p.wins, rate: pct(p.wins, p.games) }),
    t(loc, 'st.player.points', {
      points: fmt(loc, p.points),
      avg: p.games ? fmt(loc, Math.round((p.points / p.games) * 100) / 100) : '0',
    }),
    t(loc, 'st.player.titles', { best: p.bestPlayer, moves: p.bestMoves, n1: p.killedNight1 }),
    t(loc, 'st.player.fouls', { fouls: p.fouls, removals: p.removals }),
  ];
  if (p.streak)
    lines.push(
      t(loc, 'st.player.streak', {
        streak: t(loc, `st.streak.${p.streak.outcome}` as MessageKey, { count: p.streak.length }),
      }),
    );
  lines.push(
    p.elo === null
      ? t(loc, 'st.player.eloNone')
      : t(loc, 'st.player.elo', {
          elo: Math.round(p.elo),
          trend: `${(p.trend ?? 0) >= 0 ? '+' : '−'}${fmt(loc, Math.abs(p.trend ?? 0))}`,
        }),
  );
  if (publish) lines.push('', t(loc, 'st.shownBy', { user: `<@${viewer}>` }));
  const roles = p.byRole.map((r) =>
    t(loc, 'st.player.roleLine', {
      role: roleName(loc, r.role as Role),
      wins: r.wins,
      games: r.games,
      rate: pct(r.wins, r.games),
    }),
  );
  const last = p.last.map((g) =>
    t(loc, 'st.player.lastLine', {
      id: g.gameId,
      date: date(g.finishedAt),
      role: roleName(loc, g.role as Role),
      outcome: t(loc, `st.outcome.${g.outcome}` as MessageKey),
      points: fmt(loc, g.points),
      flag: g.counts ? '' : t(loc, 'st.player.notCounted'),
    }),
  );
  const achieved = achievementLines(
    loc,
    p.achievements.map((a) => a.code),
  );
  const embed: APIEmbed = {
    title: t(loc, 'st.player.title', { name, ruleset: rs, period: periodText }).slice(0, 256),
    description: lines.join('\n'),
    fields: [
      ...(roles.length
        ? [{ name: t(loc, 'st.player.roles'), value: roles.join('\n').slice(0, 1024), inline: true }]
        : []),
      ...(last.length ? [{ name: t(loc, 'st.player.last'), value: chunkLines(last, 1024)[0]!, inline: false }] : []),
      ...(achieved.length ? [{ name: t(loc, 'ach.field'), value: chunkLines(achieved, 1024)[0]!, inline: false }] : []),
    ],
  };
  const reply: Reply = { embeds: [embed], components: publish ? [] : [showRow(id, loc)] };
  if (p.history.length > 0) {
    const dateText = (ms: number) =>
      new Intl.DateTimeFormat(loc, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(ms);
    const png = renderChart({
      title: t(loc, 'st.chart.title', { name, ruleset: rs }),
      points: p.history.map((h) => ({ at: h.at, value: h.elo })),
      fromLabel: dateText(p.history[0]!.at),
      toLabel: dateText(p.history[p.history.length - 1]!.at),
      baseline: eloStart,
    });
    embed.image = { url: 'attachment://elo.png' };
    reply.files = [{ attachment: png, name: 'elo.png' }];
  }
  return reply;
}

export function gameView(rec: GameRecordView, page: number, loc: Locale, publish: boolean, viewer: string): Reply {
  const user = new Map(rec.seats.map((s) => [s.seat, s.userId]));
  const tag = (seat: number) => `#${seat} <@${user.get(seat) ?? ''}>`;
  const lines: string[] = [];
  const result = t(loc, `winner.${rec.winner}` as MessageKey) + (rec.reason === 'host' ? t(loc, 'st.game.byHost') : '');
  lines.push(t(loc, 'st.game.summary', { result, date: date(rec.finishedAt) }));
  if (rec.preset) lines.push(t(loc, 'st.game.preset', { name: rec.preset }));
  if (rec.notCounted) lines.push(`⚠️ ${t(loc, `st.game.notCounted.${rec.notCounted}` as MessageKey)}`);
  lines.push('', t(loc, 'st.game.seats'));
  for (const s of rec.seats) {
    const holders = s.holders
      ? t(loc, 'st.game.holders', {
          list: s.holders.map((h) => `<@${h.userId}> ${Math.round(h.share * 100)}%`).join(', '),
        })
      : '';
    lines.push(
      t(loc, 'st.game.seatLine', { seat: s.seat, user: `<@${s.userId}>`, role: roleName(loc, s.role), holders }),
    );
  }
  const nights = new Map(rec.nights.map((n) => [n.n, n]));
  const dayNumbers = [...new Set([...rec.days.map((d) => d.n), ...rec.nights.map((n) => n.n + 1)])].sort(
    (a, b) => a - b,
  );
  for (const n of dayNumbers) {
    const night = nights.get(n - 1);
    if (night && n - 1 >= 1)
      lines.push(
        '',
        t(loc, 'st.game.night', {
          n: n - 1,
          result: night.out.length ? night.out.map(tag).join(', ') : t(loc, 'st.game.nightNobody'),
        }),
      );
    const d = rec.days.find((x) => x.n === n);
    if (!d) continue;
    lines.push('', t(loc, 'st.game.day', { n }));
    lines.push(
      d.nominations.length
        ? t(loc, 'st.game.nominations', { list: d.nominations.map((x) => `${tag(x.target)} ← #${x.by}`).join(', ') })
        : t(loc, 'st.game.noNominations'),
    );
    for (const v of d.votes) {
      const tally = v.tally.map((x) => `#${x.seat}: ${x.votes}`).join(', ');
      const res =
        v.outcome === 'leaves'
          ? t(loc, 'st.game.leaves', { seats: v.leaving.map(tag).join(', ') })
          : v.outcome === 'tie'
            ? t(loc, 'st.game.tie')
            : t(loc, 'st.game.nobody');
      lines.push(t(loc, v.round === 2 ? 'st.game.revote' : 'st.game.vote', { tally, result: res }));
    }
    for (const a of d.allLeave)
      lines.push(
        t(loc, 'st.game.allLeave', {
          yes: a.yes,
          no: a.no,
          result: t(loc, a.passed ? 'st.game.allLeaveYes' : 'st.game.allLeaveNo'),
        }),
      );
  }
  lines.push('', t(loc, 'st.game.out'));
  if (rec.out.length === 0) lines.push(t(loc, 'st.game.outNone'));
  for (const o of rec.out) {
    lines.push(
      t(loc, 'st.game.outLine', {
        seat: o.seat,
        user: `<@${user.get(o.seat) ?? ''}>`,
        how: t(loc, `st.leave.${o.by}` as MessageKey),
        when: t(loc, o.phase === 'day' ? 'st.clock.day' : 'st.clock.night', { n: o.n }),
      }),
    );
  }
  lines.push('', t(loc, 'st.game.points'));
  for (const p of rec.points) {
    const items = Object.entries(p.items)
      .map(([k, v]) => `${t(loc, `st.item.${k}` as MessageKey)} ${v > 0 ? '+' : '−'}${fmt(loc, Math.abs(v))}`)
      .join(', ');
    lines.push(
      t(loc, 'st.game.pointsLine', {
        seat: p.seat,
        user: `<@${p.userId}>`,
        total: fmt(loc, p.total),
        items: items ? ` (${items})` : '',
      }),
    );
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
        ...(pages.length > 1
          ? { footer: { text: t(loc, 'st.game.page', { page: at + 1, pages: pages.length }) } }
          : {}),
      },
    ],
    components: publish ? [] : [showRow(id, loc, pages.length > 1 ? pager(id, at, pages.length, loc) : [])],
  };
}
