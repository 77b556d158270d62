// Every rule id of docs/rules.md is exercised by at least one test: a scenario file lists it in its
// `rules` field, or a test names it in its title. A second, stronger check: a hand-reviewed map from
// every rule id to the files whose assertions would fail if that rule were broken. And the rule book
// itself: every id cited in src/ exists in docs/rules.md, and docs/rules.md has the same ids as the
// upstream RULES.md it follows (when that is next to the repository).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  jsonFiles,
  OWN_DIR,
  readJson,
  ROOT,
  RULES_FILE,
  ruleIds,
  SHARED_DIR,
  SHARED_RULES_FILE,
} from '../../testkit/scenario-files';
import { ASSERTED_BY } from './rule-map';

function filesEndingWith(dir: string, suffix: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return filesEndingWith(p, suffix);
    return e.name.endsWith(suffix) ? [p] : [];
  });
}

const testFiles = (dir: string) => filesEndingWith(dir, '.test.ts');

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

/**
 * The places a source file can cite a rule id: its comments (`// N-13`, `(G-7)` in a JSDoc, `D-7:`)
 * and its string literals (messages shown to players cite a few ids, e.g. "(T-1)"). The TypeScript
 * parser finds the literals (strings, template parts, regular expressions); the comments are then
 * looked for in the text with those blanked out, so a `//` inside a string or a regular expression
 * is never taken for a comment.
 */
function citationTexts(file: string): { kind: 'comment' | 'string'; text: string; line: number }[] {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: { kind: 'comment' | 'string'; text: string; line: number }[] = [];
  const line = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const chars = text.split(''); // UTF-16 units, as the parser's positions are
  const literal = (n: ts.Node) =>
    ts.isStringLiteral(n) ||
    ts.isNoSubstitutionTemplateLiteral(n) ||
    ts.isTemplateLiteralToken(n) ||
    ts.isRegularExpressionLiteral(n);
  const visit = (node: ts.Node) => {
    if (literal(node)) {
      const start = node.getStart(sf);
      if (!ts.isRegularExpressionLiteral(node)) {
        out.push({ kind: 'string', text: (node as ts.LiteralLikeNode).text, line: line(start) });
      }
      for (let i = start; i < node.end; i++) if (chars[i] !== '\n') chars[i] = ' ';
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sf, visit);
  const code = chars.join('');
  for (const m of code.matchAll(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g)) {
    out.push({ kind: 'comment', text: m[0], line: line(m.index) });
  }
  return out;
}

describe('the rule book', () => {
  const ids = ruleIds(readFileSync(RULES_FILE, 'utf8'));

  it('docs/rules.md has every rule id once', () => {
    expect(ids.length).toBeGreaterThan(50);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  const shared = existsSync(SHARED_RULES_FILE) ? readFileSync(SHARED_RULES_FILE, 'utf8') : null;
  it.skipIf(shared === null)('docs/rules.md has the same rule ids and sections as the upstream RULES.md', () => {
    const upstream = ruleIds(shared!);
    expect(upstream.length).toBeGreaterThan(50);
    expect({
      missing: upstream.filter((id) => !ids.includes(id)),
      extra: ids.filter((id) => !upstream.includes(id)),
    }).toEqual({ missing: [], extra: [] });
    const sections = (md: string) => md.match(/^## [A-Z]\. .*$/gm) ?? [];
    expect(sections(readFileSync(RULES_FILE, 'utf8'))).toEqual(sections(shared!));
  });

  it('every rule id cited in src/ (comments and messages) exists in docs/rules.md', () => {
    // Only the section letters the rule book uses count (not, say, an `A-1`), and `\b` keeps a match
    // inside a longer word out (`UTF-8` has no word boundary before the F).
    const letters = new Set(ids.map((id) => id[0]));
    const unknown: string[] = [];
    let cited = 0;
    for (const file of filesEndingWith(join(ROOT, 'src'), '.ts')) {
      for (const { kind, text, line } of citationTexts(file)) {
        for (const [id, letter] of text.matchAll(/\b([A-Z])-\d+\b/g)) {
          if (!letters.has(letter!)) continue;
          cited++;
          if (!ids.includes(id)) unknown.push(`${relative(ROOT, file)}:${line} (${kind}): ${id}`);
        }
      }
    }
    // The code cites ids in hundreds of places: far fewer means the search itself broke.
    expect(cited).toBeGreaterThan(250);
    expect(unknown).toEqual([]);
  });
});

describe('rule coverage', () => {
  const ids = [...new Set(ruleIds(readFileSync(RULES_FILE, 'utf8')))];

  it('every rule id in docs/rules.md is exercised by at least one test', () => {
    expect(ids.length).toBeGreaterThan(50);
    const covered = coveredIds();
    expect(ids.filter((id) => !covered.has(id))).toEqual([]);
  });

  it('every rule id in docs/rules.md is mapped to files whose assertions would fail if it were broken', () => {
    const problems: string[] = [];
    const mapped = Object.keys(ASSERTED_BY);
    for (const id of ids) if (!(id in ASSERTED_BY)) problems.push(`${id}: no entry in the map`);
    for (const id of mapped) if (!ids.includes(id)) problems.push(`${id}: in the map but not in docs/rules.md`);
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
          if (!titles.some((t) => (t.match(ID) ?? ([] as string[])).includes(id)))
            problems.push(`${id}: no test title in ${f} mentions ${id}`);
        } else problems.push(`${id}: ${f} is neither a scenario nor a test file`);
      }
    }
    expect(problems).toEqual([]);
  });
});
