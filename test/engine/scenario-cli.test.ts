// The scenario runner as a command: result JSON on stdout and exit 0; an invalid file gets a clear
// message on stderr (which field, why) and a non-zero exit (shared/scenarios/FORMAT.md).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../testkit/scenario-files';

const dir = mkdtempSync(join(tmpdir(), 'scenario-cli-'));
const deal = [
  'civilian',
  'civilian',
  'mafia',
  'sheriff',
  'civilian',
  'don',
  'civilian',
  'mafia',
  'civilian',
  'civilian',
];

function run(content: unknown, raw = false) {
  const file = join(dir, `s${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, raw ? String(content) : JSON.stringify(content));
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/scenario.ts'), file], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const valid = {
  name: 't',
  rules: ['N-1'],
  ruleset: 'chnu-2016',
  pace: 'live',
  options: {},
  roles: deal,
  steps: [{ timeout: true }],
};

describe('npm run scenario', () => {
  it('prints the result JSON and exits 0', () => {
    const r = run(valid);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ winner: null, out: [], at: 'day 1', refused: [], checks: [], notes: [] });
  });

  it('exits 0 whatever the result, and never compares expect itself', () => {
    const r = run({ ...valid, expect: { winner: 'black' } });
    expect(r.code).toBe(0);
  });

  const invalid: [string, unknown, RegExp][] = [
    ['unknown rule set', { ...valid, ruleset: 'mafia-9' }, /ruleset: unknown rule set "mafia-9"/],
    ['unknown pace', { ...valid, pace: 'slow' }, /pace: expected "live" or "async"/],
    ['unknown role', { ...valid, roles: [...deal.slice(0, 9), 'werewolf'] }, /roles\[9\]: unknown role "werewolf"/],
    [
      'deal of the wrong size',
      { ...valid, roles: deal.slice(1) },
      /roles: the deal does not fit chnu-2016: expected 10 roles/,
    ],
    [
      'deal of the wrong composition',
      { ...valid, roles: [...deal.slice(0, 9), 'mafia'] },
      /roles: the deal does not fit chnu-2016: expected 6 × civilian, got 5; expected 2 × mafia, got 3/,
    ],
    ['a kiev role in chnu', { ...valid, roles: [...deal.slice(0, 9), 'doctor'] }, /role "doctor" is not in chnu-2016/],
    ['unknown verb', { ...valid, steps: [{ seat: 1, do: 'dance' }] }, /steps\[0\]\.do: unknown verb "dance"/],
    ['unknown host verb', { ...valid, steps: [{ host: 'shout' }] }, /steps\[0\]\.host: unknown host verb "shout"/],
    [
      'target not an integer',
      { ...valid, steps: [{ seat: 1, do: 'vote', target: '3' }] },
      /steps\[0\]\.target: expected an integer, got "3"/,
    ],
    ['missing target', { ...valid, steps: [{ seat: 1, do: 'shoot' }] }, /steps\[0\]\.target: missing/],
    [
      'targets not a list',
      { ...valid, steps: [{ seat: 1, do: 'guess', targets: 3 }] },
      /steps\[0\]\.targets: expected a list/,
    ],
    [
      'choice not a boolean',
      { ...valid, steps: [{ seat: 1, do: 'voteAll', choice: 'yes' }] },
      /steps\[0\]\.choice: expected true or false/,
    ],
    [
      'note not a boolean',
      { ...valid, steps: [{ seat: 1, do: 'check', target: 2, note: 1 }] },
      /steps\[0\]\.note: expected true or false/,
    ],
    [
      'comment not a string',
      { ...valid, steps: [{ timeout: true, comment: 5 }] },
      /steps\[0\]\.comment: expected a string/,
    ],
    [
      'winner not red/black/draw',
      { ...valid, steps: [{ host: 'end', winner: 'mafia' }] },
      /steps\[0\]\.winner: expected "red", "black" or "draw"/,
    ],
    ['timeout not true', { ...valid, steps: [{ timeout: false }] }, /steps\[0\]\.timeout: expected true/],
    ['both seat and host', { ...valid, steps: [{ seat: 1, host: 'skip' }] }, /steps\[0\]: a step has exactly one of/],
    [
      'seat not an integer',
      { ...valid, steps: [{ seat: 'one', do: 'pass' }] },
      /steps\[0\]\.seat: expected an integer/,
    ],
    ['unknown option', { ...valid, options: { speed: 2 } }, /options/],
    ['mistyped option', { ...valid, options: { selfVote: 'yes' } }, /options\.selfVote/],
    ['steps missing', { ...valid, steps: undefined }, /steps: expected a list of steps/],
    [
      'a mistyped field on a verb that does not use it',
      { ...valid, steps: [{ seat: 1, do: 'pass', target: 'x' }] },
      /steps\[0\]\.target: expected an integer/,
    ],
    [
      'count not an integer',
      { ...valid, steps: [{ host: 'foul', target: 1, count: 1.5 }] },
      /steps\[0\]\.count: expected an integer/,
    ],
    ['not an object', [1, 2], /file: expected a JSON object/],
  ];
  for (const [what, content, message] of invalid) {
    it(`rejects ${what} with a clear message and a non-zero exit`, () => {
      const r = run(content);
      expect(r.code).not.toBe(0);
      expect(r.out).toBe('');
      expect(r.err).toMatch(message);
      expect(r.err.split('\n').filter(Boolean)).toHaveLength(1);
    });
  }

  it('rejects a file that is not JSON', () => {
    const r = run('{ "ruleset": ', true);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/is not valid JSON/);
  });

  it('plays well-formed but impossible steps as refused steps', () => {
    const r = run({
      ...valid,
      steps: [
        { timeout: true },
        { seat: 11, do: 'pass', comment: 'no seat 11' },
        { seat: 1, do: 'nominate', target: 0 },
        { host: 'foul', target: 2, count: 0 },
        { host: 'bonus', target: 2, points: 3 },
        { seat: 1, do: 'pass', note: true },
      ],
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).refused).toEqual([1, 2, 3, 4, 5]);
  });
});
