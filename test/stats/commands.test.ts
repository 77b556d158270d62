// The /stats and /mafia settings commands as Discord checks them: every name, at every level and
// in every language, lowercase, at most 32 characters and unique among its siblings; descriptions
// at most 100; required options first. And the /stats custom ids round-trip, forged ones do not.
import { describe, expect, it } from 'vitest';
import { allCommands } from '../../src/discord/commands/definitions';
import { decodeStatsId, encodeStatsId, type StatsId } from '../../src/discord/custom-id';

type Opt = {
  name: string;
  description?: string;
  name_localizations?: Record<string, string>;
  description_localizations?: Record<string, string>;
  required?: boolean;
  options?: Opt[];
};

function problems(o: Opt, path: string, out: string[]): void {
  for (const n of [o.name, ...Object.values(o.name_localizations ?? {})])
    if (!/^[-_\p{L}\p{N}]{1,32}$/u.test(n) || n !== n.toLowerCase()) out.push(`${path}: name "${n}"`);
  for (const d of [o.description ?? '', ...Object.values(o.description_localizations ?? {})])
    if (d.length > 100) out.push(`${path}: description of ${d.length}`);
  const seen = new Map<string, Set<string>>();
  let optional = false;
  for (const c of o.options ?? []) {
    for (const [loc, n] of [['en', c.name], ...Object.entries(c.name_localizations ?? {})] as [string, string][]) {
      const s = seen.get(loc) ?? new Set<string>();
      if (s.has(n)) out.push(`${path}: "${n}" twice in ${loc}`);
      seen.set(loc, s.add(n));
    }
    if (c.required && optional) out.push(`${path} ${c.name}: required after optional`);
    if (!c.required) optional = true;
    problems(c, `${path} ${c.name}`, out);
  }
}

describe('/stats and /mafia settings for Discord', () => {
  it('every name and description is valid in en, uk and ru', () => {
    const out: string[] = [];
    for (const c of allCommands()) problems(c as unknown as Opt, c.name, out);
    expect(out).toEqual([]);
    const stats = allCommands().find((c) => c.name === 'stats') as unknown as Opt;
    expect(stats.options!.map((o) => o.name)).toEqual(['player', 'top', 'game', 'export']);
    const settings = (allCommands().find((c) => c.name === 'mafia') as unknown as Opt).options!.find(
      (o) => o.name === 'settings',
    )!;
    expect(settings.options!.map((o) => o.name)).toEqual(expect.arrayContaining(['show', 'season', 'rating']));
  });

  it('custom ids of the views round-trip; malformed ones are refused', () => {
    const ids: StatsId[] = [
      { view: 'top', show: false, ruleset: 'kiev-12', period: 'd30', by: 'elo', tournament: 4, page: 12 },
      { view: 'top', show: true, ruleset: 'chnu-2016', period: 's17', by: 'points', tournament: 0, page: 0 },
      // Issue 24: a preset's standings (its name, any alphabet, up to 24 characters).
      {
        view: 'top',
        show: false,
        ruleset: 'classic-10',
        period: 's9999999999',
        by: 'points',
        tournament: 9999999999,
        page: 100_000,
        preset: 'довга-тиша_'.padEnd(24, 'ї'),
      },
      { view: 'player', show: true, ruleset: 'classic-10', period: 'a', user: '123456789012345678', tournament: 0 },
      { view: 'game', show: false, game: 991, page: 2 },
    ];
    for (const id of ids) {
      const raw = encodeStatsId(id);
      expect(raw.length).toBeLessThanOrEqual(100);
      expect(decodeStatsId(raw)).toEqual(id);
    }
    for (const bad of [
      'v1:s:t:poker:a:points:0:0',
      'v1:s:t:kiev-12:d0:points:0:0',
      'v1:s:t:kiev-12:x:points:0:0',
      'v1:s:t:kiev-12:a:votes:0:0',
      'v1:s:t:kiev-12:a:points:0:-1',
      'v1:s:p:kiev-12:a:<@1>:0',
      'v1:s:g:0:0',
      'v1:s:g:5',
      'v1:s:z:1:1',
      'v2:s:g:5:0',
      'v1:s:t:kiev-12:a:points:0:0:extra:more',
      'v1:s:t:kiev-12:a:points:0:0:Not-Normal',
      'v1:s:t:kiev-12:a:points:0:0:',
      'v1:s:g:5:99999',
    ]) {
      expect(decodeStatsId(bad), bad).toBeNull();
    }
  });
});
