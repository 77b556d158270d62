// Issue 21: "how to play" for every rule set, language and pace fits one embed (description 4096,
// all text 6000), names no rule id or internal rule set id, and says what the rule set's options
// make true (the Sheriff's "is it the Don?" N-6, the Don's take D-8, the tie rule D-7); command
// mentions come from the registered ids, or plain text in the reader's language.
import { afterEach, describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/engine/options';
import { RULESET_IDS } from '../../src/engine/rulesets';
import { commandMention, LOCALES, setCommandIds, t } from '../../src/i18n';
import { EMBED_DESCRIPTION_MAX, EMBED_TOTAL_MAX, rulesPayload, rulesText } from '../../src/discord/render/rules';

afterEach(() => setCommandIds([]));

describe('how to play (issue 21)', () => {
  for (const ruleset of RULESET_IDS)
    for (const loc of LOCALES)
      for (const pace of ['live', 'async'] as const)
        it(`${ruleset}, ${loc}, ${pace}: within Discord's limits, no rule ids`, () => {
          const p = rulesPayload(loc, ruleset, pace, resolveOptions(ruleset, pace));
          const e = p.embeds![0]!;
          expect(e.description!.length).toBeLessThanOrEqual(EMBED_DESCRIPTION_MAX);
          expect((e.title ?? '').length + e.description!.length).toBeLessThanOrEqual(EMBED_TOTAL_MAX);
          expect(e.description).not.toMatch(/\b[GNDMFESTP]-\d+\b|chnu-2016|classic-10|kiev-12|\{\w+\}/);
        });

  it('N-6, D-8, D-7: what the options make true is said, and only then', () => {
    const chnu = rulesText('en', 'chnu-2016', 'live', resolveOptions('chnu-2016', 'live'));
    expect(chnu).toContain('is it the Don?');
    expect(chnu).toContain('another tie and nobody leaves');
    const classic = rulesText('en', 'classic-10', 'live', resolveOptions('classic-10', 'live'));
    expect(classic).not.toContain('is it the Don?');
    expect(classic).toContain('the table votes on whether they all leave');
    expect(classic).toContain('With 4 players or fewer alive');
    const kiev = rulesText('ru', 'kiev-12', 'live', resolveOptions('kiev-12', 'live'));
    expect(kiev).toContain('может забрать с собой');
    expect(kiev).toContain('хотя бы 1 голос');
    expect(kiev).toContain('Путана');
    const noTake = rulesText('ru', 'kiev-12', 'live', resolveOptions('kiev-12', 'live', { donTake: false }));
    expect(noTake).not.toContain('может забрать с собой');
  });

  it('{cmd:…} is a mention with a known id, else the command in the reader’s language', () => {
    expect(t('uk', 'refusal.undo/needs-log')).toBe('Скористайтеся /ведучий відкотити.');
    expect(commandMention('en', 'host undo')).toBe('/host undo');
    setCommandIds([['host', '42']]);
    expect(t('uk', 'refusal.undo/needs-log')).toBe('Скористайтеся </host undo:42>.');
    expect(commandMention('ru', 'mafia settings ruleset')).toBe('/мафия настройки правила');
  });
});
