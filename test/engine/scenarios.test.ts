// Every scenario file (shared conformance set and the project's own) is played and its `expect`
// compared key by key (shared/scenarios/FORMAT.md).
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/parse';
import { playScenario, resultOf } from '../../src/scenario/run';
import { apply, createGame } from '../../src/engine/apply';
import { compareExpect, jsonFiles, OWN_DIR, readJson, SHARED_DIR } from '../../testkit/scenario-files';

function check(file: string) {
  const raw = readJson(file) as { expect?: Record<string, unknown> };
  const sc = parseScenario(raw);
  const played = playScenario(sc);
  const result = resultOf(played.state, played.refused) as unknown as Record<string, unknown>;
  expect(compareExpect(result, raw.expect ?? {}), `${file}\n${JSON.stringify(result)}`).toEqual([]);
  // Replaying the accepted actions from the deal gives the identical state.
  let s = createGame(sc.ruleset, { roles: sc.roles }, sc.options, sc.pace, { now: 0 });
  for (const { action, now } of played.log) {
    const r = apply(s, action, { now });
    if (!r.ok) throw new Error(`replay refused ${r.code}`);
    s = r.state;
  }
  expect(s).toEqual(played.state);
}

const shared = jsonFiles(SHARED_DIR);
describe('shared scenarios (../shared/scenarios)', () => {
  if (shared.length === 0) {
    it.skip(`no shared scenarios at ${SHARED_DIR}: skipped (set SHARED_SCENARIOS to run them)`, () => {});
  }
  for (const file of shared) it(file.split('/').pop()!, () => check(file));
});

describe('own scenarios (test/scenarios)', () => {
  const own = jsonFiles(OWN_DIR);
  it('has scenario files', () => expect(own.length).toBeGreaterThan(0));
  for (const file of own) it(file.split('/').pop()!, () => check(file));
});
