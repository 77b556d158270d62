// What a tournament shows (T-1..T-4): the registration board, one message per round of the draw
// (and the final) with its tables and Start buttons, the standings pages, the announcements.
// Pure renderers: rows in, payloads out.
import { ButtonStyle } from 'discord-api-types/v10';
import { MAX_PLAYERS, type TableView } from '../app/tournaments';
import type { RegisteredPlayer, TournamentRow } from '../db/tournament-store';
import type { StandingRow } from '../engine/standings';
import { FINAL_ROUND, drawFit, pageOf, type Phase } from '../engine/tournament';
import { t, type Locale } from '../i18n';
import { button, buttonRows, mentions, type Payload } from './render/common';
import { rulesetName } from './render/words';

/** Standings rows per page. */
export const STANDINGS_PAGE = 10;
const LIST_MAX = 60;

export { MAX_PLAYERS, type TableView };

function roundName(loc: Locale, round: number): string {
  return round === FINAL_ROUND ? t(loc, 'tour.final') : t(loc, 'tour.round', { round });
}

function phaseLine(loc: Locale, phase: Phase): string {
  switch (phase.kind) {
    case 'registration':
      return t(loc, 'tour.phase.registration');
    case 'qualifying':
      return t(loc, 'tour.phase.qualifying', { round: phase.round });
    case 'qualified':
      return t(loc, 'tour.phase.qualified');
    case 'final':
      return t(loc, 'tour.phase.final');
    case 'finished':
      return t(loc, 'tour.phase.finished');
  }
}

/** The registration message: Join / Leave, the registered players, the head host's controls. */
export function boardPayload(
  tour: TournamentRow,
  players: readonly RegisteredPlayer[],
  phase: Phase,
  winners: readonly string[] = [],
): Payload {
  const loc = tour.locale as Locale;
  const open = tour.status === 'registration';
  const lines = [
    t(loc, 'tour.board.meta', { ruleset: rulesetName(loc, tour.ruleset), host: `<@${tour.hostId}>` }),
    `**${tour.status === 'cancelled' ? t(loc, 'tour.phase.cancelled') : phaseLine(loc, phase)}**`,
  ];
  if (winners.length > 0) lines.push(t(loc, 'tour.board.winner', { users: winners.map((u) => `<@${u}>`).join(', ') }));
  lines.push('', t(loc, 'tour.board.count', { count: players.length }));
  const shown = players.slice(0, LIST_MAX).map((p, i) => `${i + 1}. <@${p.userId}>`);
  if (players.length > LIST_MAX) shown.push(t(loc, 'tour.board.more', { count: players.length - LIST_MAX }));
  lines.push(shown.length > 0 ? shown.join('\n') : t(loc, 'tour.board.empty'));
  if (open) {
    const fit = drawFit(players.length);
    lines.push('', fit.ok ? t(loc, 'tour.fit.ok', { count: fit.tables }) : fitLine(loc, players, fit.add, fit.remove));
  }
  const buttons = [
    button(
      { kind: 'tour', tournament: tour.id, op: 'join' },
      t(loc, 'tour.join'),
      ButtonStyle.Success,
      !open || players.length >= MAX_PLAYERS,
    ),
    button({ kind: 'tour', tournament: tour.id, op: 'leave' }, t(loc, 'tour.leave'), ButtonStyle.Secondary, !open),
    button({ kind: 'tour', tournament: tour.id, op: 'draw' }, t(loc, 'tour.drawButton'), ButtonStyle.Primary, !open),
    button(
      { kind: 'tour', tournament: tour.id, op: 'final' },
      t(loc, 'tour.finalButton'),
      ButtonStyle.Primary,
      phase.kind !== 'qualified' || tour.status !== 'running',
    ),
    button(
      { kind: 'tour', tournament: tour.id, op: 'mine' },
      t(loc, 'tour.standingsButton'),
      ButtonStyle.Secondary,
      open,
    ),
  ];
  return {
    embeds: [
      {
        title: t(loc, 'tour.board.title', { id: tour.id, name: tour.name }),
        description: lines.join('\n').slice(0, 4096),
        color: 0xb7950b,
      },
    ],
    components: buttonRows(buttons),
    allowed_mentions: mentions(),
  };
}

/**
 * T-1: the count does not fit tables of 10: how many to add or remove, and which players would go
 * (decision: the last to register; the head host may decide otherwise and ask others to leave).
 */
export function fitLine(loc: Locale, players: readonly RegisteredPlayer[], add: number, remove: number): string {
  const n = players.length;
  if (remove === 0) return t(loc, 'tour.fit.add', { players: n, add });
  const last = players
    .slice(n - remove)
    .map((p) => `<@${p.userId}>`)
    .join(', ');
  return t(loc, 'tour.fit.addOrRemove', { players: n, add, remove, users: last });
}

function tableState(loc: Locale, tv: TableView): string {
  if (tv.results) return t(loc, 'tour.table.finished', { game: tv.gameId! });
  if (tv.gameId !== null && (tv.status === 'lobby' || tv.status === 'running' || tv.status === 'post-game')) {
    return t(loc, 'tour.table.playing', { game: tv.gameId, channel: tv.channelId ? `<#${tv.channelId}>` : '' });
  }
  return t(loc, 'tour.table.waiting');
}

/**
 * One round of the draw (or the final): a field per table (the table's seats in the draw's
 * order, its state) and a Start button per table that can start now.
 */
export function roundPayload(tour: TournamentRow, round: number, tables: readonly TableView[], phase: Phase): Payload {
  const loc = tour.locale as Locale;
  const mine = tables.filter((x) => x.round === round);
  const current =
    (phase.kind === 'qualifying' && phase.round === round) || (phase.kind === 'final' && round === FINAL_ROUND);
  const fields = mine.map((tv) => {
    const subs = Object.entries(tv.subs);
    const seats = tv.seats.map((u, i) => {
      const sub = subs.find(([missing]) => missing === u);
      return `${i + 1}. <@${u}>${sub ? ` → <@${sub[1]}>` : ''}`;
    });
    return {
      name: `${t(loc, 'tour.table.name', { table: tv.table })} — ${tableState(loc, tv)}`.slice(0, 256),
      value: seats.join('\n').slice(0, 1024),
      inline: true,
    };
  });
  const live = (tv: TableView) =>
    tv.gameId !== null && (tv.status === 'lobby' || tv.status === 'running' || tv.status === 'post-game');
  const buttons = mine.map((tv) =>
    button(
      { kind: 'tour', tournament: tour.id, op: 'start', a: round, b: tv.table },
      t(loc, 'tour.startButton', { table: tv.table }),
      ButtonStyle.Primary,
      !current || tv.results !== null || live(tv) || tour.status !== 'running',
    ),
  );
  const done = mine.every((tv) => tv.results !== null);
  return {
    embeds: [
      {
        title: `${t(loc, 'tour.board.title', { id: tour.id, name: tour.name })} · ${roundName(loc, round)}`.slice(
          0,
          256,
        ),
        description: done ? t(loc, 'tour.roundDone') : current ? t(loc, 'tour.roundNow') : t(loc, 'tour.roundLater'),
        fields,
        color: round === FINAL_ROUND ? 0xc0392b : 0x2e86c1,
      },
    ],
    components: buttonRows(buttons)!.slice(0, 5),
    allowed_mentions: mentions(),
  };
}

/** T-2: who plays the final (with their qualifying points) and any lot at the cut. */
export function finalPayload(
  tour: TournamentRow,
  table: readonly StandingRow[],
  finalists: readonly string[],
  lot: { among: string[]; chosen: string[] } | null,
): Payload {
  const loc = tour.locale as Locale;
  const rows = finalists.map((u, i) => {
    const r = table.find((x) => x.player === u);
    return t(loc, 'tour.finalist', { n: i + 1, user: `<@${u}>`, points: r?.points ?? 0, best: r?.bestPlayer ?? 0 });
  });
  const lines = [t(loc, 'tour.finalists', { name: tour.name }), ...rows];
  if (lot)
    lines.push(
      '',
      t(loc, 'tour.lot', {
        among: lot.among.map((u) => `<@${u}>`).join(', '),
        chosen: lot.chosen.map((u) => `<@${u}>`).join(', '),
      }),
    );
  return { content: lines.join('\n').slice(0, 2000), allowed_mentions: mentions([...finalists]) };
}

/** T-3: the result, with the winner (or winners, level after every tie-break). */
export function resultPayload(tour: TournamentRow, table: readonly StandingRow[]): Payload {
  const loc = tour.locale as Locale;
  const winners = table.filter((r) => r.place === 1);
  const top = table.slice(0, 3).map((r) =>
    t(loc, 'tour.standings.line', {
      place: r.place,
      user: `<@${r.player}>`,
      points: r.points,
      games: r.games,
      best: r.bestPlayer,
    }),
  );
  const head =
    winners.length === 1
      ? t(loc, 'tour.winner', {
          name: tour.name,
          user: `<@${winners[0]!.player}>`,
          points: winners[0]!.points,
          count: winners[0]!.points,
          best: winners[0]!.bestPlayer,
        })
      : t(loc, 'tour.winners', { name: tour.name, users: winners.map((w) => `<@${w.player}>`).join(', ') });
  return {
    content: [head, '', ...top, '', t(loc, 'tour.seeStandings')].join('\n').slice(0, 2000),
    allowed_mentions: mentions(winners.map((w) => w.player)),
  };
}

/** T-3: one page of the live standings, with paging and the CSV export. */
export function standingsPayload(
  tour: TournamentRow,
  loc: Locale,
  table: readonly StandingRow[],
  counted: number,
  total: number,
  page: number,
  finished: boolean,
): Payload {
  const p = pageOf(table, page, STANDINGS_PAGE);
  const lines = p.rows.map((r) =>
    t(loc, 'tour.standings.line', {
      place: r.place,
      user: `<@${r.player}>`,
      points: r.points,
      games: r.games,
      best: r.bestPlayer,
    }),
  );
  const head: string[] = [t(loc, 'tour.standings.progress', { counted, total })];
  if (finished) {
    const winners = table.filter((r) => r.place === 1).map((r) => `<@${r.player}>`);
    head.push(t(loc, 'tour.board.winner', { users: winners.join(', ') }));
  }
  head.push(t(loc, 'tour.standings.ties'));
  const buttons = [
    button(
      { kind: 'tour', tournament: tour.id, op: 'page', a: Math.max(1, p.page - 1), b: 0 },
      '◀',
      ButtonStyle.Secondary,
      p.page <= 1,
    ),
    button(
      { kind: 'tour', tournament: tour.id, op: 'page', a: Math.min(p.pages, p.page + 1), b: 1 },
      '▶',
      ButtonStyle.Secondary,
      p.page >= p.pages,
    ),
    button({ kind: 'tour', tournament: tour.id, op: 'csv' }, t(loc, 'tour.standings.csv'), ButtonStyle.Secondary),
  ];
  return {
    embeds: [
      {
        title: t(loc, 'tour.standings.title', { name: tour.name }).slice(0, 256),
        description: [...head, '', ...(lines.length > 0 ? lines : [t(loc, 'tour.board.empty')])]
          .join('\n')
          .slice(0, 4096),
        footer: { text: t(loc, 'tour.standings.page', { page: p.page, pages: p.pages }) },
        color: 0xb7950b,
      },
    ],
    components: buttonRows(buttons),
    allowed_mentions: mentions(),
  };
}
