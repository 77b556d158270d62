// Every rule id of RULES.md is exercised by at least one test: a scenario file lists it in its
// `rules` field, or a test names it in its title.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonFiles, OWN_DIR, readJson, ROOT, RULES_FILE, SHARED_DIR } from '../support/scenario-files';

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

describe('rule coverage', () => {
  const rulesMd = existsSync(RULES_FILE) ? readFileSync(RULES_FILE, 'utf8') : null;
  const ids = rulesMd ? [...new Set([...rulesMd.matchAll(/^\s*- \*\*([A-Z]-\d+)\*\*/gm)].map((m) => m[1]!))] : [];

  it.skipIf(rulesMd === null)('every rule id in RULES.md is exercised by at least one test', () => {
    expect(ids.length).toBeGreaterThan(50);
    const covered = coveredIds();
    expect(ids.filter((id) => !covered.has(id))).toEqual([]);
  });
});
