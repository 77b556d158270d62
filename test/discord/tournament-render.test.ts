// The tournament's messages within Discord's limits at the largest size (150 players, long ids,
// substitutes), in every language; buttons unique; the standings' pages.
import { describe, expect, it } from 'vitest';
import type { RegisteredPlayer, TournamentRow } from '../../src/db/tournament-store';
import { drawQualifiers, standings } from '../../src/engine/standings';
import { FINAL_ROUND, phaseOf } from '../../src/engine/tournament';
import { LOCALES } from '../../src/i18n';
import {
  MAX_PLAYERS,
  boardPayload,
  finalPayload,
  resultPayload,
  roundPayload,
  standingsPayload,
  type TableView,
} from '../../src/discord/tournament-render';
import type { Payload } from '../../src/discord/render/common';
import { seededRng } from '../../src/sim/random-play';

const tour = (locale: string, status: TournamentRow['status'] = 'running'): TournamentRow => ({
  id: 123456,
  guildId: 'g',
  channelId: 'c',
  hostId: '99999999999999999999',
  name: 'A rather long tournament name, of sixty characters in all!!',
  ruleset: 'chnu-2016',
  options: {},
  locale,
  status,
  holderGameId: 1,
  categoryId: null,
  finalLot: null,
  createdAt: 0,
  finishedAt: null,
});

/** Discord's limits on a message (embeds: 6000 characters in all, 25 fields, 4096 a description, 1024 a field). */
function checkLimits(p: Payload): void {
  let total = 0;
  for (const e of p.embeds ?? []) {
    expect((e.title ?? '').length).toBeLessThanOrEqual(256);
    expect((e.description ?? '').length).toBeLessThanOrEqual(4096);
    expect((e.fields ?? []).length).toBeLessThanOrEqual(25);
    for (const f of e.fields ?? []) {
      expect(f.name.length).toBeLessThanOrEqual(256);
      expect(f.value.length).toBeLessThanOrEqual(1024);
      total += f.name.length + f.value.length;
    }
    total += (e.title ?? '').length + (e.description ?? '').length + (e.footer?.text ?? '').length;
  }
  expect(total).toBeLessThanOrEqual(6000);
  expect((p.content ?? '').length).toBeLessThanOrEqual(2000);
  const rows = p.components ?? [];
  expect(rows.length).toBeLessThanOrEqual(5);
  const ids = rows.flatMap((r) => r.components.map((c) => ('custom_id' in c ? c.custom_id : '')));
  for (const r of rows) expect(r.components.length).toBeLessThanOrEqual(5);
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids) expect(id.length).toBeLessThanOrEqual(100);
  for (const r of rows)
    for (const c of r.components) if ('label' in c && c.label) expect(c.label.length).toBeLessThanOrEqual(80);
}

describe('tournament messages', () => {
  const users = Array.from({ length: MAX_PLAYERS }, (_, i) => String(10n ** 19n + BigInt(i)));
  const players: RegisteredPlayer[] = users.map((u) => ({ userId: u, name: 'x'.repeat(60), locale: null }));
  const draw = drawQualifiers(users, seededRng(1));
  if (!draw.ok) throw new Error('draw');
  const tables: TableView[] = draw.rounds.flatMap((round, r) =>
    round.map((seats, t) => ({
      round: r + 1,
      table: t + 1,
      seats,
      gameId: 1_000_000 + r * 100 + t,
      results: null,
      channelId: '12345678901234567890',
      status: 'running',
      // Two substitutes at every table.
      subs: { [seats[0]!]: '11111111111111111111', [seats[1]!]: '22222222222222222222' },
    })),
  );

  it.each(LOCALES)(`the board, every round and the final fit Discord at ${MAX_PLAYERS} players (%s)`, (loc) => {
    const phase = phaseOf('running', tables);
    checkLimits(boardPayload(tour(loc, 'registration'), players, { kind: 'registration' }));
    checkLimits(boardPayload(tour(loc, 'finished'), players, { kind: 'finished' }, [users[0]!, users[1]!]));
    for (const round of [1, 2, 3]) {
      const p = roundPayload(tour(loc), round, tables, phase);
      checkLimits(p);
      expect(p.embeds![0]!.fields).toHaveLength(MAX_PLAYERS / 10);
      // Every table has its Start button: off while its game is on; on a waiting table only in the round being played.
      const disabled = (x: Payload) =>
        (x.components ?? []).flatMap((r) => r.components).map((b) => 'disabled' in b && b.disabled === true);
      expect(disabled(p)).toEqual(new Array(MAX_PLAYERS / 10).fill(true));
      const waiting = tables.map((x) => ({ ...x, gameId: null, status: null }));
      expect(disabled(roundPayload(tour(loc), round, waiting, phaseOf('running', waiting)))).toEqual(
        new Array(MAX_PLAYERS / 10).fill(round !== 1),
      );
    }
    const table = standings('chnu', [], users);
    checkLimits(
      finalPayload(tour(loc), table, users.slice(0, 10), { among: users.slice(5, 20), chosen: users.slice(5, 10) }),
    );
    checkLimits(resultPayload(tour(loc, 'finished'), table));
    checkLimits(
      roundPayload(tour(loc), FINAL_ROUND, [...tables, { ...tables[0]!, round: FINAL_ROUND, table: 1 }], {
        kind: 'final',
      }),
    );
  });

  it('the board says how many to add or remove, and lists at most 60 names', () => {
    const p = boardPayload(tour('en', 'registration'), players.slice(0, 73), { kind: 'registration' });
    const d = p.embeds![0]!.description!;
    expect(d).toContain(
      `with 73 registered, add 7 more or remove 3 (the last to register: ${users
        .slice(70, 73)
        .map((u) => `<@${u}>`)
        .join(', ')}).`,
    );
    expect(d).toContain('…and 13 more');
    expect(
      boardPayload(tour('uk', 'registration'), players.slice(0, 4), { kind: 'registration' }).embeds![0]!.description,
    ).toContain('зареєстровано 4, додайте ще 6.');
    expect(
      boardPayload(tour('ru', 'registration'), players.slice(0, 21), { kind: 'registration' }).embeds![0]!.description,
    ).toContain('Зарегистрирован 21 игрок');
  });

  it('standings pages: ten a page, paging buttons unique and disabled at the ends', () => {
    const table = standings('chnu', [], users.slice(0, 23));
    const page = (n: number) => standingsPayload(tour('en'), 'en', table, 3, 7, n, false);
    for (const n of [1, 2, 3]) checkLimits(page(n));
    expect(page(1).embeds![0]!.footer!.text).toBe('Page 1 of 3');
    expect(
      page(3)
        .embeds![0]!.description!.split('\n')
        .filter((l) => /^\d+\. /.test(l)),
    ).toHaveLength(3);
    const buttons = (n: number) =>
      page(n).components![0]!.components.map((c) => ('disabled' in c ? c.disabled === true : false));
    expect(buttons(1)).toEqual([true, false, false]);
    expect(buttons(2)).toEqual([false, false, false]);
    expect(buttons(3)).toEqual([false, true, false]);
  });
});
