// The engine's edge: an action is checked for its shape once, before any rule looks at it, so
// apply() never throws whatever it is given (a missing seat, a string target, an array, null...).
// A hand-written table rather than zod: this runs on every action and must cost next to nothing.
import type { ActionKind, ActionOf, EngineRefusalCode } from './types';

type FieldType = 'int' | 'bool' | 'string' | 'ints' | 'winner';

interface Shape {
  readonly required: Readonly<Record<string, FieldType>>;
  readonly optional: Readonly<Record<string, FieldType>>;
}

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
/** The shape of one kind: its fields, required and optional, exactly as the action type has them. */
interface ShapeOf<A> {
  readonly required: Readonly<Record<Exclude<RequiredKeys<A>, 'kind'>, FieldType>>;
  readonly optional: Readonly<Record<Exclude<keyof A, RequiredKeys<A>>, FieldType>>;
}

const SEQ = { seq: 'int' } as const;
const seatOnly = { required: { seat: 'int' }, optional: SEQ } as const;
const seatTarget = { required: { seat: 'int', target: 'int' }, optional: SEQ } as const;

/** Every action kind's shape (a new kind does not compile without one). */
const SHAPES: { readonly [K in ActionKind]: ShapeOf<ActionOf<K>> } = {
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

type Check = (o: Record<string, unknown>) => EngineRefusalCode | null;

/** Each shape compiled once into a check that allocates nothing. */
function compile(shape: Shape): Check {
  const required = Object.entries(shape.required);
  const optional = Object.entries(shape.optional);
  const allowed = new Set(['kind', ...required.map(([n]) => n), ...optional.map(([n]) => n)]);
  return (o) => {
    for (let i = 0; i < required.length; i++) {
      const [name, type] = required[i]!;
      const v = o[name];
      if (v === undefined) return 'action/missing-field';
      if (!typed(v, type)) return 'action/bad-field';
    }
    for (let i = 0; i < optional.length; i++) {
      const [name, type] = optional[i]!;
      const v = o[name];
      if (v !== undefined && !typed(v, type)) return 'action/bad-field';
    }
    const keys = Object.keys(o);
    for (let i = 0; i < keys.length; i++) if (!allowed.has(keys[i]!)) return 'action/extra-field';
    return null;
  };
}
const CHECKS: ReadonlyMap<string, Check> = new Map(
  Object.entries(SHAPES).map(([kind, shape]: [string, Shape]) => [kind, compile(shape)]),
);

/**
 * Why this value is not a well-formed action, as a stable refusal code, or null when it is one:
 * `action/not-an-object`, `action/unknown-kind`, `action/missing-field`, `action/bad-field`,
 * `action/extra-field`.
 */
export function actionShapeProblem(a: unknown): EngineRefusalCode | null {
  if (typeof a !== 'object' || a === null || Array.isArray(a)) return 'action/not-an-object';
  const o = a as Record<string, unknown>;
  const kind = o.kind;
  const check = typeof kind === 'string' ? CHECKS.get(kind) : undefined;
  if (!check) return 'action/unknown-kind';
  return check(o);
}
