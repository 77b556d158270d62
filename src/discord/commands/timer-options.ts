// The timer options of /mafia create, /mafia settings timers, /mafia settings preset and /tournament create: one reader for all.
import type { ChatInputCommandInteraction } from 'discord.js';
import type { Timers } from '../../engine/types';
import { TIMER_OPTIONS, type TimerOption } from './builder';
import { parseDuration } from '../duration';

/**
 * The timer options of a slash command (`night:90s`, …) over `base`: 5 s to 30 days each, or the
 * first bad one (for the refusal's text).
 */
export function timerOptions(
  i: ChatInputCommandInteraction,
  base: Partial<Timers> = {},
): Partial<Timers> | { bad: { option: string; value: string } } {
  const timers: Partial<Timers> = { ...base };
  for (const opt of TIMER_OPTIONS) {
    const raw = i.options.getString(opt);
    if (raw === null) continue;
    const secs = parseDuration(raw);
    if (secs === null || secs < 5 || secs > 30 * 86_400) return { bad: { option: opt, value: raw.slice(0, 20) } };
    for (const key of TIMER_KEYS[opt]) timers[key] = secs;
  }
  return timers;
}

/**
 * The timer options as changes (`/mafia settings timers`, `/mafia settings preset`): each given one
 * as seconds (5 s to 30 days) or `default` (back to the rule set's), per stage timer it sets; or the
 * first bad one (for the refusal's text).
 */
export function timerChanges(
  i: ChatInputCommandInteraction,
): Map<keyof Timers, number | 'default'> | { bad: { option: string; value: string } } {
  const out = new Map<keyof Timers, number | 'default'>();
  for (const opt of TIMER_OPTIONS) {
    const raw = i.options.getString(opt);
    if (raw === null) continue;
    const secs = raw.trim().toLowerCase() === 'default' ? 'default' : parseDuration(raw);
    if (secs === null || (secs !== 'default' && (secs < 5 || secs > 30 * 86_400)))
      return { bad: { option: opt, value: raw.slice(0, 20) } };
    for (const key of TIMER_KEYS[opt]) out.set(key, secs);
  }
  return out;
}

export const TIMER_KEYS: Record<TimerOption, (keyof Timers)[]> = {
  night: ['night0', 'night'],
  speech: ['speech'],
  discussion: ['discussion'],
  accusation: ['accusation'],
  vote: ['vote'],
  last_words: ['lastWords'],
  shootout: ['shootout'],
};
