// Scenario files (shared/scenarios/FORMAT.md) are outside input: every field is checked, and an
// invalid file is reported with the step and field at fault.
import { optionOverridesSchema } from '../engine/options';
import { dealProblem, RULESET_IDS } from '../engine/rulesets';
import type { OptionOverrides, Pace, PlayerActionKind, Role, RulesetId, Winner } from '../engine/types';

export const ROLE_IDS: readonly Role[] = [
  'civilian',
  'sheriff',
  'mafia',
  'don',
  'commissioner',
  'doctor',
  'maniac',
  'prostitute',
];

/** A player step's verb: the engine's player action kinds (a new one needs its PLAYER_FIELDS). */
export type PlayerVerb = PlayerActionKind;
export type HostVerb = 'foul' | 'remove' | 'kill' | 'skip' | 'end' | 'best' | 'bonus';

export type ScenarioStep =
  | {
      type: 'player';
      seat: number;
      verb: PlayerVerb;
      target?: number;
      targets?: number[];
      choice?: boolean;
      note?: boolean;
    }
  | { type: 'host'; verb: HostVerb; target?: number; count?: number; points?: number; winner?: Winner }
  | { type: 'timeout' };

export interface Scenario {
  name: string;
  rules: string[];
  ruleset: RulesetId;
  pace: Pace;
  options: OptionOverrides;
  roles: Role[];
  steps: ScenarioStep[];
  expect?: Record<string, unknown>;
}

export class ScenarioError extends Error {
  constructor(
    readonly where: string,
    readonly why: string,
  ) {
    super(`${where}: ${why}`);
    this.name = 'ScenarioError';
  }
}

/** Which fields each verb needs (required) and may carry (optional). */
const PLAYER_FIELDS: Record<PlayerVerb, { required: string[]; optional?: string[] }> = {
  pass: { required: [] },
  nominate: { required: ['target'] },
  vote: { required: ['target'] },
  voteAll: { required: ['choice'] },
  shoot: { required: ['target'] },
  check: { required: ['target'], optional: ['note'] },
  askDon: { required: [] },
  heal: { required: ['target'] },
  freeze: { required: ['target'] },
  kill: { required: ['target'] },
  skip: { required: [] },
  take: { required: ['target'] },
  guess: { required: ['targets'] },
  best: { required: ['target'] },
};

const HOST_FIELDS: Record<HostVerb, { required: string[]; optional?: string[] }> = {
  foul: { required: ['target'], optional: ['count'] },
  remove: { required: ['target'] },
  kill: { required: ['target'] },
  skip: { required: [] },
  end: { required: ['winner'] },
  best: { required: ['target'] },
  bonus: { required: ['target', 'points'] },
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const describe = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'a list'
      : typeof v === 'string'
        ? `"${v}"`
        : `${typeof v} ${JSON.stringify(v)}`;

function int(where: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v))
    throw new ScenarioError(where, `expected an integer, got ${describe(v)}`);
  return v;
}

function field(step: Record<string, unknown>, where: string, name: string): unknown {
  const v = step[name];
  const at = `${where}.${name}`;
  switch (name) {
    case 'target':
    case 'count':
    case 'points':
      return int(at, v);
    case 'targets': {
      if (!Array.isArray(v)) throw new ScenarioError(at, `expected a list of seats, got ${describe(v)}`);
      return v.map((x, i) => int(`${at}[${i}]`, x));
    }
    case 'choice':
    case 'note':
      if (typeof v !== 'boolean') throw new ScenarioError(at, `expected true or false, got ${describe(v)}`);
      return v;
    case 'winner':
      if (v !== 'red' && v !== 'black' && v !== 'draw') {
        throw new ScenarioError(at, `expected "red", "black" or "draw", got ${describe(v)}`);
      }
      return v;
    default:
      return v;
  }
}

/** Fields with a meaning somewhere in the format: wherever they appear, their type is checked. */
const TYPED_FIELDS = ['target', 'targets', 'choice', 'note', 'count', 'points', 'winner'];

function parseStep(raw: unknown, i: number): ScenarioStep {
  const where = `steps[${i}]`;
  if (!isObject(raw)) throw new ScenarioError(where, `expected an object, got ${describe(raw)}`);
  if ('comment' in raw && typeof raw.comment !== 'string') {
    throw new ScenarioError(`${where}.comment`, `expected a string, got ${describe(raw.comment)}`);
  }
  for (const name of TYPED_FIELDS) if (name in raw) field(raw, where, name);
  const kinds = ['seat', 'host', 'timeout'].filter((k) => k in raw);
  if (kinds.length === 0)
    throw new ScenarioError(where, 'expected one of "seat" (a player step), "host" (a host step) or "timeout"');
  if (kinds.length > 1)
    throw new ScenarioError(
      where,
      `a step has exactly one of "seat", "host" and "timeout"; this one has ${kinds.map((k) => `"${k}"`).join(' and ')}`,
    );
  if (kinds[0] === 'timeout') {
    if (raw.timeout !== true)
      throw new ScenarioError(`${where}.timeout`, `expected true, got ${describe(raw.timeout)}`);
    return { type: 'timeout' };
  }
  if (kinds[0] === 'host') {
    const verb = raw.host;
    if (typeof verb !== 'string' || !(verb in HOST_FIELDS)) {
      throw new ScenarioError(
        `${where}.host`,
        `unknown host verb ${describe(verb)}; expected one of ${Object.keys(HOST_FIELDS).join(', ')}`,
      );
    }
    const spec = HOST_FIELDS[verb as HostVerb];
    const step: Record<string, unknown> = { type: 'host', verb };
    for (const name of spec.required) {
      if (!(name in raw))
        throw new ScenarioError(`${where}.${name}`, `missing (host "${verb}" needs ${spec.required.join(', ')})`);
      step[name] = field(raw, where, name);
    }
    for (const name of spec.optional ?? []) if (name in raw) step[name] = field(raw, where, name);
    return step as ScenarioStep;
  }
  const seat = int(`${where}.seat`, raw.seat);
  const verb = raw.do;
  if (typeof verb !== 'string' || !(verb in PLAYER_FIELDS)) {
    throw new ScenarioError(
      `${where}.do`,
      `unknown verb ${describe(verb)}; expected one of ${Object.keys(PLAYER_FIELDS).join(', ')}`,
    );
  }
  const spec = PLAYER_FIELDS[verb as PlayerVerb];
  const step: Record<string, unknown> = { type: 'player', seat, verb };
  for (const name of spec.required) {
    if (!(name in raw))
      throw new ScenarioError(`${where}.${name}`, `missing ("${verb}" needs ${spec.required.join(', ')})`);
    step[name] = field(raw, where, name);
  }
  for (const name of spec.optional ?? []) if (name in raw) step[name] = field(raw, where, name);
  // FORMAT.md: `note` is a boolean wherever it appears; on anything but a check the step is refused.
  if ('note' in raw && !('note' in step)) step.note = field(raw, where, 'note');
  return step as ScenarioStep;
}

/** Parses and validates a scenario; throws ScenarioError naming the field at fault. */
export function parseScenario(raw: unknown): Scenario {
  if (!isObject(raw)) throw new ScenarioError('file', `expected a JSON object, got ${describe(raw)}`);
  if ('name' in raw && typeof raw.name !== 'string')
    throw new ScenarioError('name', `expected a string, got ${describe(raw.name)}`);
  if ('rules' in raw && (!Array.isArray(raw.rules) || raw.rules.some((r) => typeof r !== 'string'))) {
    throw new ScenarioError('rules', 'expected a list of rule ids (strings)');
  }
  if (typeof raw.ruleset !== 'string' || !(RULESET_IDS as string[]).includes(raw.ruleset)) {
    throw new ScenarioError(
      'ruleset',
      `unknown rule set ${describe(raw.ruleset)}; expected one of ${RULESET_IDS.join(', ')}`,
    );
  }
  const ruleset = raw.ruleset as RulesetId;
  const pace = raw.pace ?? 'live';
  if (pace !== 'live' && pace !== 'async')
    throw new ScenarioError('pace', `expected "live" or "async", got ${describe(pace)}`);
  const optionsRaw = raw.options ?? {};
  const parsedOptions = optionOverridesSchema.safeParse(optionsRaw);
  if (!parsedOptions.success) {
    const issue = parsedOptions.error.issues[0]!;
    const path = ['options', ...issue.path.map(String)].join('.');
    throw new ScenarioError(path, issue.message);
  }
  if (!Array.isArray(raw.roles))
    throw new ScenarioError('roles', `expected a list of role ids, got ${describe(raw.roles)}`);
  raw.roles.forEach((r, i) => {
    if (typeof r !== 'string' || !(ROLE_IDS as string[]).includes(r)) {
      throw new ScenarioError(`roles[${i}]`, `unknown role ${describe(r)}; expected one of ${ROLE_IDS.join(', ')}`);
    }
  });
  const roles = raw.roles as Role[];
  const problem = dealProblem(ruleset, roles);
  if (problem) throw new ScenarioError('roles', `the deal does not fit ${ruleset}: ${problem}`);
  if (!Array.isArray(raw.steps))
    throw new ScenarioError('steps', `expected a list of steps, got ${describe(raw.steps)}`);
  const steps = raw.steps.map(parseStep);
  if ('expect' in raw && raw.expect !== undefined && !isObject(raw.expect)) {
    throw new ScenarioError('expect', `expected an object, got ${describe(raw.expect)}`);
  }
  return {
    name: typeof raw.name === 'string' ? raw.name : '',
    rules: Array.isArray(raw.rules) ? (raw.rules as string[]) : [],
    ruleset,
    pace,
    options: parsedOptions.data as OptionOverrides,
    roles,
    steps,
    ...(isObject(raw.expect) ? { expect: raw.expect } : {}),
  };
}
