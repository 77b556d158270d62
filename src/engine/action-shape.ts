// The engine's edge: an action is checked for its shape once, before any rule looks at it, so
// apply() never throws whatever it is given (a missing seat, a string target, an array, null...).
// A hand-written table rather than zod: this runs on every action and must cost next to nothing.

type FieldType = 'int' | 'bool' | 'string' | 'ints' | 'winner';

interface Shape {
  readonly required: Readonly<Record<string, FieldType>>;
  readonly optional: Readonly<Record<string, FieldType>>;
}

const SEQ = { seq: 'int' } as const;
const seatOnly: Shape = { required: { seat: 'int' }, optional: SEQ };
const seatTarget: Shape = { required: { seat: 'int', target: 'int' }, optional: SEQ };

const SHAPES: Readonly<Record<string, Shape>> = {
  pass: seatOnly,
  askDon: seatOnly,
  skip: seatOnly,
  nominate: seatTarget,
  vote: seatTarget,
  shoot: seatTarget,
  heal: seatTarget,
  freeze: seatTarget,
  kill: seatTarget,
  take: seatTarget,
  best: seatTarget,
  check: { required: { seat: 'int', target: 'int' }, optional: { seq: 'int', note: 'bool' } },
  voteAll: { required: { seat: 'int', choice: 'bool' }, optional: SEQ },
  guess: { required: { seat: 'int', targets: 'ints' }, optional: SEQ },
  'host-foul': { required: { target: 'int' }, optional: { count: 'int', reason: 'string', seq: 'int' } },
  'host-remove': { required: { target: 'int' }, optional: { reason: 'string', seq: 'int' } },
  'host-kill': { required: { target: 'int' }, optional: { reason: 'string', seq: 'int' } },
  'host-skip': { required: {}, optional: SEQ },
  'host-end': { required: { winner: 'winner' }, optional: { reason: 'string', seq: 'int' } },
  'host-best': { required: { target: 'int' }, optional: SEQ },
  'host-bonus': { required: { target: 'int', points: 'int' }, optional: SEQ },
  'host-pause': { required: {}, optional: { reason: 'string', seq: 'int' } },
  'host-resume': { required: {}, optional: { reason: 'string', seq: 'int' } },
  'host-extend': { required: { seconds: 'int' }, optional: { reason: 'string', seq: 'int' } },
  'host-revive': { required: { target: 'int' }, optional: { reason: 'string', seq: 'int' } },
  'host-undo': { required: { undone: 'int' }, optional: { reason: 'string', seq: 'int' } },
  timeout: { required: { seq: 'int' }, optional: {} },
};

function typed(v: unknown, type: FieldType): boolean {
  switch (type) {
    case 'int':
      return Number.isSafeInteger(v);
    case 'bool':
      return typeof v === 'boolean';
    case 'string':
      return typeof v === 'string';
    case 'ints':
      return Array.isArray(v) && v.length <= 16 && v.every((x) => Number.isSafeInteger(x));
    case 'winner':
      return v === 'red' || v === 'black' || v === 'draw';
  }
}

/** The shapes as flat lists, compiled once: the check below allocates nothing. */
interface Compiled {
  readonly required: readonly (readonly [string, FieldType])[];
  readonly optional: readonly (readonly [string, FieldType])[];
}
const COMPILED: ReadonlyMap<string, Compiled> = new Map(
  Object.entries(SHAPES).map(([kind, shape]) => [kind, { required: Object.entries(shape.required), optional: Object.entries(shape.optional) }]),
);
const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Why this value is not a well-formed action, as a stable refusal code, or null when it is one:
 * `action/not-an-object`, `action/unknown-kind`, `action/missing-field`, `action/bad-field`,
 * `action/extra-field`.
 */
export function actionShapeProblem(a: unknown): string | null {
  if (typeof a !== 'object' || a === null || Array.isArray(a)) return 'action/not-an-object';
  const o = a as Record<string, unknown>;
  const kind = o.kind;
  const shape = typeof kind === 'string' ? COMPILED.get(kind) : undefined;
  if (!shape) return 'action/unknown-kind';
  let known = 1; // kind
  for (const [name, type] of shape.required) {
    if (!(name in o) || o[name] === undefined) return 'action/missing-field';
    if (!typed(o[name], type)) return 'action/bad-field';
    known++;
  }
  for (const [name, type] of shape.optional) {
    if (!(name in o)) continue;
    known++;
    if (o[name] !== undefined && !typed(o[name], type)) return 'action/bad-field';
  }
  let keys = 0;
  for (const k in o) if (hasOwn.call(o, k)) keys++;
  if (keys !== known) return 'action/extra-field';
  return null;
}
