// Every rule id of RULES.md is exercised by at least one test: a scenario file lists it in its
// `rules` field, or a test names it in its title. A second, stronger check: a hand-reviewed map from
// every rule id to the files whose assertions would fail if that rule were broken.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonFiles, OWN_DIR, readJson, ROOT, RULES_FILE, SHARED_DIR } from '../support/scenario-files';
import { ASSERTED_BY } from './rule-map';

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return testFiles(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
}

const ID = /\b[A-Z]-\d+\b/g;

function coveredIds(): Map<string, string[]> {
  const covered = new Map<string, string[]>();
  const add = (id: string, where: string) => covered.set(id, [...(covered.get(id) ?? []), where]);
  for (const f of [...jsonFiles(OWN_DIR), ...jsonFiles(SHARED_DIR)]) {
    const rules = (readJson(f) as { rules?: string[] }).rules ?? [];
    for (const id of rules) add(id, f);
  }
  for (const f of testFiles(join(ROOT, 'test'))) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(/\b(?:it|describe|test)(?:\.\w+)*\(\s*[`'"]([^`'"]+)[`'"]/g)) {
      for (const id of m[1]!.match(ID) ?? []) add(id, f);
    }
  }
  return covered;
}

const SHARED_PREFIX = 'shared/scenarios/';

/**
 * The titles of a test file's it/test/describe calls, including `it.each(...)('title')` and
 * `it.skipIf(...)('title')` (on one line), with escaped quotes inside.
 */
function testTitles(text: string): string[] {
  const lit = String.raw`(['"\`])((?:\\.|(?!\1)[^\\])*)\1`;
  const plain = new RegExp(String.raw`\b(?:it|describe|test)(?:\.\w+)*\(\s*` + lit, 'g');
  const curried = new RegExp(String.raw`\b(?:it|describe|test)\.(?:each|skipIf|runIf)\([^\n]*?\)\(\s*` + lit, 'g');
  return [...text.matchAll(plain), ...text.matchAll(curried)].map((m) => m[2]!);
}

describe('rule coverage', () => {
  const rulesMd = existsSync(RULES_FILE) ? readFileSync(RULES_FILE, 'utf8') : null;
  const ids = rulesMd ? [...new Set([...rulesMd.matchAll(/^\s*- \*\*([A-Z]-\d+)\*\*/gm)].map((m) => m[1]!))] : [];

  it.skipIf(rulesMd === null)('every rule id in RULES.md is exercised by at least one test', () => {
    expect(ids.length).toBeGreaterThan(50);
    const covered = coveredIds();
    expect(ids.filter((id) => !covered.has(id))).toEqual([]);
  });

  it.skipIf(rulesMd === null)('every rule id in RULES.md is mapped to files whose assertions would fail if it were broken', () => {
    const problems: string[] = [];
    const mapped = Object.keys(ASSERTED_BY);
    for (const id of ids) if (!(id in ASSERTED_BY)) problems.push(`${id}: no entry in the map`);
    for (const id of mapped) if (!ids.includes(id)) problems.push(`${id}: in the map but not in RULES.md`);
    const sharedHere = existsSync(SHARED_DIR);
    for (const [id, files] of Object.entries(ASSERTED_BY)) {
      // Each id keeps at least one file of the project's own, so the check means something in a clone
      // without the shared set.
      if (!files.some((f) => !f.startsWith(SHARED_PREFIX))) problems.push(`${id}: only shared files`);
      for (const f of files) {
        const shared = f.startsWith(SHARED_PREFIX);
        if (shared && !sharedHere) continue;
        const path = shared ? join(SHARED_DIR, f.slice(SHARED_PREFIX.length)) : join(ROOT, f);
        if (!existsSync(path)) {
          problems.push(`${id}: ${f} does not exist`);
          continue;
        }
        if (f.endsWith('.json')) {
          const expectBlock = (readJson(path) as { expect?: unknown }).expect;
          const keys = expectBlock && typeof expectBlock === 'object' ? Object.keys(expectBlock) : [];
          if (keys.length === 0) problems.push(`${id}: ${f} has no expect block with a key`);
        } else if (f.endsWith('.test.ts')) {
          const titles = testTitles(readFileSync(path, 'utf8'));
          if (!titles.some((t) => (t.match(ID) ?? ([] as string[])).includes(id))) problems.push(`${id}: no test title in ${f} mentions ${id}`);
        } else problems.push(`${id}: ${f} is neither a scenario nor a test file`);
      }
    }
    expect(problems).toEqual([]);
  });
});
