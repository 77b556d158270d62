// Finds scenario files: the project's own (test/scenarios) and the shared conformance set
// (../shared/scenarios, or SHARED_SCENARIOS), which a clone elsewhere may not have.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const OWN_DIR = join(ROOT, 'test', 'scenarios');
export const SHARED_DIR = resolve(process.env.SHARED_SCENARIOS ?? join(ROOT, '..', 'shared', 'scenarios'));
export const RULES_FILE = resolve(process.env.SHARED_RULES ?? join(ROOT, '..', 'shared', 'RULES.md'));

export function jsonFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => join(dir, f));
}

export function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** FORMAT.md: every key present in `expect` must equal the result's; points seat by seat. */
export function compareExpect(result: Record<string, unknown>, expect: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [key, want] of Object.entries(expect)) {
    const got = result[key];
    if (key === 'points') {
      const gotPoints = (got ?? {}) as Record<string, unknown>;
      for (const [seat, pts] of Object.entries(want as Record<string, unknown>)) {
        if (Number(gotPoints[seat]) !== Number(pts)) problems.push(`points[${seat}]: expected ${pts}, got ${String(gotPoints[seat])}`);
      }
    } else if (JSON.stringify(got) !== JSON.stringify(want)) {
      problems.push(`${key}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
    }
  }
  return problems;
}
