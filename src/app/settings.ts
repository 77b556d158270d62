// Per-server settings: one zod schema, stored as JSON on the server's row, validated on every read
// and write. A new setting is one line here (with its default); a field that fails validation on
// read falls back to its default alone, so one bad value never hides the others.
import { z } from 'zod';
import type { Store } from '../db/store';
import { timersSchema } from '../engine/options';
import { RULESET_IDS } from '../engine/rulesets';
import type { RulesetId } from '../engine/types';
import { asyncSettingsShape } from './async-settings';
import { presetsSchema } from './presets';
import { conductSettingsSchema, DEFAULT_CONDUCT } from './conduct-settings';

const snowflake = z.string().regex(/^\d{15,21}$/);

export const serverSettingsSchema = z.object({
  /** Language of public messages; `auto` follows the server's locale. */
  language: z.enum(['auto', 'en', 'uk', 'ru']).default('auto'),
  /** The rule set `/mafia create` uses when none is given (null: it must be given). */
  ruleset: z
    .enum(RULESET_IDS as [RulesetId, ...RulesetId[]])
    .nullable()
    .default(null),
  /** The pace `/mafia create` uses when none is given (P-1). */
  pace: z.enum(['live', 'async']).default('live'),
  /** Issue 24: whether `/mafia create` makes a rated game when not told (false: casual). */
  rated: z.boolean().default(true),
  /** Issue 24: the opt-in role a new lobby pings (null: none), at most once per `lobbyCooldown` minutes. */
  lobbyRole: snowflake.nullable().default(null),
  lobbyCooldown: z.number().int().min(0).max(1440).default(60),
  /** Stage timers per pace, in seconds (P-1), over the rule set's own; `/mafia create` options win. */
  timers: z
    .object({ live: timersSchema.default({}), async: timersSchema.default({}) })
    .default({ live: {}, async: {} }),
  /** Members with this role host any game of the server (as do members with Manage Server). */
  hostRole: snowflake.nullable().default(null),
  /** M-2: the mafia may talk in private every night, not only on night 0. */
  mafiaTalk: z.enum(['night-0', 'every-night']).default('night-0'),
  /** M-1: the channel lets only the current speaker write. */
  speakingOrder: z.enum(['free', 'enforced']).default('free'),
  /** Every finished game's points are also posted here (null: only in the game's channel). */
  resultsChannel: snowflake.nullable().default(null),
  ...asyncSettingsShape,
  /** Issue 24: the server's presets (house variants) by name, for `/mafia create preset:`. */
  presets: presetsSchema.default({}),
  /** Issue 24: the thresholds that pause a member from rated games (src/app/conduct.ts). */
  conduct: conductSettingsSchema.default(DEFAULT_CONDUCT),
});

export type ServerSettings = z.infer<typeof serverSettingsSchema>;
export type SettingKey = keyof ServerSettings;
export const SETTING_KEYS = Object.keys(serverSettingsSchema.shape) as SettingKey[];

export const DEFAULT_SETTINGS: ServerSettings = serverSettingsSchema.parse({});

/** Parses stored settings, field by field: an invalid or unknown field is its default. */
export function parseSettings(raw: unknown): ServerSettings {
  const obj = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const out: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const r = serverSettingsSchema.shape[key].safeParse(obj[key]);
    out[key] = r.success ? r.data : DEFAULT_SETTINGS[key];
  }
  return out as ServerSettings;
}

/** The server's settings (the columns of older versions are read when the JSON lacks them). */
export async function readSettings(store: Store, guildId: string): Promise<ServerSettings> {
  const row = await store.getServer(guildId);
  if (!row) return DEFAULT_SETTINGS;
  let json: Record<string, unknown> = {};
  try {
    const v = JSON.parse(row.settings) as unknown;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) json = v as Record<string, unknown>;
  } catch {
    // unreadable JSON: every field is its default (or its legacy column)
  }
  const legacy: Record<string, unknown> = {
    language: row.locale ?? 'auto',
    mafiaTalk: row.mafiaTalkEveryNight ? 'every-night' : 'night-0',
    speakingOrder: row.enforceSpeakingOrder ? 'enforced' : 'free',
  };
  return parseSettings({ ...legacy, ...json });
}

export type SettingsUpdate = { ok: true; settings: ServerSettings } | { ok: false; field: string; problem: string };

/**
 * Validates a change and stores the whole settings object (and the legacy columns, kept in step).
 * Read and written in one transaction: two changes at once do not undo each other (a patch made
 * from the current settings is given as a function of them).
 */
export function writeSettings(
  store: Store,
  guildId: string,
  patch: Partial<Record<SettingKey, unknown>> | ((current: ServerSettings) => Partial<Record<SettingKey, unknown>>),
  now: number,
): Promise<SettingsUpdate> {
  return store.transaction(async (): Promise<SettingsUpdate> => {
    const current = await readSettings(store, guildId);
    const next = { ...current, ...(typeof patch === 'function' ? patch(current) : patch) };
    const r = serverSettingsSchema.safeParse(next);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      return { ok: false, field: issue.path.join('.') || '?', problem: issue.message };
    }
    const s = r.data;
    await store.setServerSettingsRaw(guildId, JSON.stringify(s), now);
    await store.updateServer(
      guildId,
      {
        locale: s.language === 'auto' ? null : s.language,
        mafiaTalkEveryNight: s.mafiaTalk === 'every-night',
        enforceSpeakingOrder: s.speakingOrder === 'enforced',
      },
      now,
    );
    return { ok: true, settings: s };
  });
}
