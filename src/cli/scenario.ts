// npm run scenario -- FILE: plays a scenario file and prints the result JSON (FORMAT.md).
// Exit 0 when the file could be played; 2 with a message on stderr when it is not a valid scenario.
import { readFileSync } from 'node:fs';
import { parseScenario, ScenarioError } from '../scenario/parse';
import { runScenario } from '../scenario/run';

function fail(message: string): never {
  process.stderr.write(`scenario: ${message}\n`);
  process.exit(2);
}

const file = process.argv[2];
if (!file || process.argv.length > 3) fail('usage: npm run scenario -- path/to/scenario.json');

let text: string;
try {
  text = readFileSync(file, 'utf8');
} catch (e) {
  fail(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
}

let raw: unknown;
try {
  raw = JSON.parse(text);
} catch (e) {
  fail(`${file} is not valid JSON: ${(e as Error).message}`);
}

try {
  const scenario = parseScenario(raw);
  process.stdout.write(`${JSON.stringify(runScenario(scenario))}\n`);
} catch (e) {
  if (e instanceof ScenarioError) fail(`${file} is not a valid scenario: ${e.where}: ${e.why}`);
  throw e;
}
