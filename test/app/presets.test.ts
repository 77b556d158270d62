// Presets (issue 24): names, the `rules:` text, edits, and stored presets read entry by entry.
import { describe, expect, it } from 'vitest';
import { applyPresetEdit, parseRuleChanges, presetName, presetsSchema, PRESET_OPTIONS } from '../../src/app/presets';
import { parseSettings } from '../../src/app/settings';
import { OPTION_NAMES } from '../../src/engine/options';
import type { Timers } from '../../src/engine/types';

const BY = '123456789012345678';

describe('preset names', () => {
  it('are trimmed, lower-cased, spaces as dashes; letters of any script, digits, - and _', () => {
    expect(presetName('  Long Quiet ')).toBe('long-quiet');
    expect(presetName('Швидка_2')).toBe('швидка_2');
    expect(presetName('a:b')).toBeNull();
    expect(presetName('-x')).toBeNull();
    expect(presetName('')).toBeNull();
    expect(presetName('x'.repeat(24))).toBe('x'.repeat(24));
    expect(presetName('x'.repeat(25))).toBeNull();
  });
});

describe('the rules text', () => {
  it('reads option=value in any spelling of the name, each value checked by the option’s own schema', () => {
    const r = parseRuleChanges('ask_don=no, TIEAGAIN=nobody; healRepeatLimit=0 nonVoter:abstain');
    expect(r).toEqual({
      ok: true,
      changes: { set: { askDon: false, tieAgain: 'nobody', healRepeatLimit: 0, nonVoter: 'abstain' }, reset: [] },
    });
    expect(parseRuleChanges('askDon=default')).toEqual({ ok: true, changes: { set: {}, reset: ['askDon'] } });
    expect(parseRuleChanges('')).toEqual({ ok: true, changes: { set: {}, reset: [] } });
  });

  it('refuses the first bad item: unknown options, the timers (their own options), bad values', () => {
    expect(parseRuleChanges('askDon=false bogus=1')).toEqual({ ok: false, token: 'bogus=1' });
    expect(parseRuleChanges('timers=5')).toEqual({ ok: false, token: 'timers=5' });
    expect(parseRuleChanges('askDon')).toEqual({ ok: false, token: 'askDon' });
    expect(parseRuleChanges('askDon=maybe')).toEqual({ ok: false, token: 'askDon=maybe', known: true });
    expect(parseRuleChanges('freezeRepeatLimit=101')).toEqual({
      ok: false,
      token: 'freezeRepeatLimit=101',
      known: true,
    });
    expect(parseRuleChanges('minVotesToLeave=-1')).toMatchObject({ ok: false, known: true });
  });

  it('may change every option of the rule sets but the timers', () => {
    expect([...PRESET_OPTIONS, 'timers'].sort()).toEqual([...OPTION_NAMES].sort());
  });
});

describe('edits', () => {
  const defaults = { ruleset: null, pace: 'live' as const };
  it('a new preset needs a rule set (or the server’s default) and takes the server’s pace', () => {
    expect(applyPresetEdit(null, {}, defaults, BY, 1)).toEqual({ ok: false, code: 'preset/ruleset-needed' });
    const r = applyPresetEdit(null, {}, { ruleset: 'kiev-12', pace: 'async' }, BY, 1);
    expect(r).toEqual({ ok: true, preset: { ruleset: 'kiev-12', pace: 'async', options: {}, by: BY, at: 1 } });
  });

  it('changes keep what they do not name; default undoes a change; timers too', () => {
    const first = applyPresetEdit(
      null,
      {
        ruleset: 'classic-10',
        rules: { set: { askDon: false, selfVote: false }, reset: [] },
        timers: new Map([['speech', 45] as const]),
      },
      defaults,
      BY,
      1,
    );
    if (!first.ok) throw new Error('not saved');
    const second = applyPresetEdit(
      first.preset,
      {
        rules: { set: {}, reset: ['askDon'] },
        timers: new Map<keyof Timers, number | 'default'>([
          ['speech', 'default'],
          ['vote', 30],
        ]),
      },
      defaults,
      BY,
      2,
    );
    expect(second).toEqual({
      ok: true,
      preset: {
        ruleset: 'classic-10',
        pace: 'live',
        options: { selfVote: false, timers: { vote: 30 } },
        by: BY,
        at: 2,
      },
    });
  });
});

describe('stored presets', () => {
  it('are read entry by entry: a bad one is dropped alone, and the other settings stay', () => {
    const good = { ruleset: 'chnu-2016', pace: 'live', options: { askDon: false }, by: BY, at: 5 };
    const stored = {
      ok: good,
      'bad:name': good,
      unknownOption: { ...good, options: { noSuchOption: true } },
      badRuleset: { ...good, ruleset: 'mafia-3000' },
    };
    expect(presetsSchema.parse(stored)).toEqual({ ok: good });
    const s = parseSettings({ presets: stored, pace: 'async' });
    expect(s.presets).toEqual({ ok: good });
    expect(s.pace).toBe('async');
    expect(parseSettings({ presets: 'nonsense' }).presets).toEqual({});
  });
});
