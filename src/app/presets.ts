// Presets (issue 24): a server's house variants saved under a name — a base rule set, its pace,
// and changes to the rule set's options and timers — for `/mafia create preset:<name>`. A preset
// is data in the server's settings (src/app/settings.ts), validated with the same option schema as
// every game's options (src/engine/options.ts); docs/rules.md ("Presets") lists what it may change.
import { z } from 'zod';
import { OPTION_NAMES, optionOverridesSchema } from '../engine/options';
import { RULESET_IDS } from '../engine/rulesets';
import type { GameOptions, OptionOverrides, Pace, RulesetId, Timers } from '../engine/types';

/** At most this many presets per server (one page of a list, one embed field). */
export const MAX_PRESETS = 20;
export const PRESET_NAME_MAX = 24;

/** A preset's name: lower case letters (any script), digits, `-` and `_`, starting with a letter or digit. */
const NAME_RE = new RegExp(`^[\\p{L}\\p{N}][\\p{L}\\p{N}_-]{0,${PRESET_NAME_MAX - 1}}$`, 'u');

export const presetSchema = z
  .object({
    ruleset: z.enum(RULESET_IDS as [RulesetId, ...RulesetId[]]),
    pace: z.enum(['live', 'async']),
    /** Changes to the rule set's options and timers (the same schema as a game's own options). */
    options: optionOverridesSchema.default({}),
    /** Who saved it last, and when (epoch ms). */
    by: z.string().regex(/^\d{15,21}$/),
    at: z.number().int().nonnegative(),
  })
  .strict();

export type Preset = z.infer<typeof presetSchema>;

/**
 * The settings' `presets` field: name -> preset. Read entry by entry: a stored entry that no longer
 * validates (an option removed in a later version, a hand-edited row) is dropped alone.
 */
export const presetsSchema = z.preprocess(
  (raw) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
    const out: Record<string, unknown> = {};
    for (const [name, p] of Object.entries(raw as Record<string, unknown>)) {
      if (Object.keys(out).length >= MAX_PRESETS) break;
      if (NAME_RE.test(name) && presetSchema.safeParse(p).success) out[name] = p;
    }
    return out;
  },
  z.record(z.string().regex(NAME_RE), presetSchema),
);

/** A name as typed (trimmed, lower case, inner spaces as `-`), or null when it cannot be a preset's name. */
export function presetName(raw: string): string | null {
  const name = raw.trim().toLowerCase().replace(/\s+/g, '-');
  return NAME_RE.test(name) ? name : null;
}

/** The options a preset may change (every option of the rule sets; the timers have their own command options). */
export const PRESET_OPTIONS = OPTION_NAMES.filter((k) => k !== 'timers') as Exclude<keyof GameOptions, 'timers'>[];

type RuleOption = (typeof PRESET_OPTIONS)[number];

/** An option's name as typed: any case, with or without `_`/`-` (`ask_don`, `askDon`, `ASKDON`). */
function optionByName(raw: string): RuleOption | null {
  const key = raw.toLowerCase().replace(/[_-]/g, '');
  return PRESET_OPTIONS.find((k) => k.toLowerCase() === key) ?? null;
}

const TRUE = new Set(['true', 'yes', 'on', '1', 'так', 'да']);
const FALSE = new Set(['false', 'no', 'off', '0', 'ні', 'нет']);

/** What a `rules:` text asks: options set, options back to the rule set's value. */
export interface RuleChanges {
  set: Partial<Omit<GameOptions, 'timers'>>;
  reset: RuleOption[];
}

export type RuleParse = { ok: true; changes: RuleChanges } | { ok: false; token: string; known?: boolean };

/**
 * Reads `askDon=false tie_again=nobody healRepeatLimit=0` (separated by spaces, commas or
 * semicolons; `option=default` goes back to the rule set's value). Each value is checked with the
 * option's own schema; the first bad item is returned (`known`: the option exists, its value is bad).
 */
export function parseRuleChanges(text: string): RuleParse {
  const changes: RuleChanges = { set: {}, reset: [] };
  const items = text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  for (const item of items) {
    const m = /^([^=:]+)[=:](.+)$/.exec(item);
    if (!m) return { ok: false, token: item };
    const key = optionByName(m[1]!);
    if (!key) return { ok: false, token: item };
    const raw = m[2]!.trim();
    if (raw.toLowerCase() === 'default') {
      changes.reset.push(key);
      delete (changes.set as Record<string, unknown>)[key];
      continue;
    }
    const shape = optionOverridesSchema.shape[key];
    const lower = raw.toLowerCase();
    const candidates: unknown[] = [raw, lower];
    if (TRUE.has(lower)) candidates.unshift(true);
    if (FALSE.has(lower)) candidates.unshift(false);
    if (/^\d{1,4}$/.test(raw)) candidates.unshift(Number(raw));
    const value = candidates.map((c) => shape.safeParse(c)).find((r) => r.success);
    if (!value) return { ok: false, token: item, known: true };
    (changes.set as Record<string, unknown>)[key] = value.data;
    changes.reset = changes.reset.filter((k) => k !== key);
  }
  return { ok: true, changes };
}

/** What `/mafia settings preset` was given besides the name. */
export interface PresetEdit {
  ruleset?: RulesetId;
  pace?: Pace;
  rules?: RuleChanges;
  /** Timers in seconds, or `default` (back to the rule set's). */
  timers?: Map<keyof Timers, number | 'default'>;
}

export type PresetChange =
  { ok: true; preset: Preset } | { ok: false; code: 'preset/ruleset-needed' | 'preset/invalid' };

/**
 * A new preset, or an existing one changed: a new one needs a rule set (the server's default one
 * when not given) and takes the server's pace when none is given. Changing the rule set keeps the
 * option changes (each is checked again with the whole schema).
 */
export function applyPresetEdit(
  current: Preset | null,
  edit: PresetEdit,
  defaults: { ruleset: RulesetId | null; pace: Pace },
  by: string,
  at: number,
): PresetChange {
  const ruleset = edit.ruleset ?? current?.ruleset ?? defaults.ruleset;
  if (!ruleset) return { ok: false, code: 'preset/ruleset-needed' };
  const options: OptionOverrides = { ...(current?.options ?? {}) };
  if (edit.rules) {
    for (const k of edit.rules.reset) delete options[k];
    Object.assign(options, edit.rules.set);
  }
  if (edit.timers) {
    const timers: Partial<Timers> = { ...(options.timers ?? {}) };
    for (const [k, v] of edit.timers) {
      if (v === 'default') delete timers[k];
      else timers[k] = v;
    }
    if (Object.keys(timers).length > 0) options.timers = timers;
    else delete options.timers;
  }
  const parsed = presetSchema.safeParse({
    ruleset,
    pace: edit.pace ?? current?.pace ?? defaults.pace,
    options,
    by,
    at,
  });
  return parsed.success ? { ok: true, preset: parsed.data } : { ok: false, code: 'preset/invalid' };
}

/** A preset's option changes as `option=value` items, in the schema's order (the timers apart). */
export function presetChanges(p: Preset): string[] {
  return PRESET_OPTIONS.filter((k) => p.options[k] !== undefined).map((k) => `${k}=${String(p.options[k])}`);
}
