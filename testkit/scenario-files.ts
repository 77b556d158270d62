// Finds scenario files: the project's own (test/scenarios) and the shared conformance set
// (../shared/scenarios, or SHARED_SCENARIOS), which a clone elsewhere may not have; and the rule
// books: the project's docs/rules.md and the upstream one it follows (../shared/RULES.md).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');
export const OWN_DIR = join(ROOT, 'test', 'scenarios');
export const SHARED_DIR = resolve(process.env.SHARED_SCENARIOS ?? join(ROOT, '..', 'shared', 'scenarios'));
/** The project's rule book: every rule id the code and tests cite (always in the repository). */
export const RULES_FILE = join(ROOT, 'docs', 'rules.md');
/** The upstream rule book docs/rules.md follows, when it is next to the repository (or SHARED_RULES). */
export const SHARED_RULES_FILE = resolve(process.env.SHARED_RULES ?? join(ROOT, '..', 'shared', 'RULES.md'));

/** The rule ids of a rule book, in order: the ids of its `- **G-3** ...` lines. */
export function ruleIds(markdown: string): string[] {
  return [...markdown.matchAll(/^\s*- \*\*([A-Z]-\d+)\*\*/gm)].map((m) => m[1]!);
}

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
        if (Number(gotPoints[seat]) !== Number(pts))
          problems.push(`points[${seat}]: expected ${pts}, got ${String(gotPoints[seat])}`);
      }
    } else if (JSON.stringify(got) !== JSON.stringify(want)) {
      problems.push(`${key}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
    }
  }
  return problems;
}
