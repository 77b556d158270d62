// The timer options of /mafia create, /mafia settings timers and /tournament create: one reader for all.
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

export const TIMER_KEYS: Record<TimerOption, (keyof Timers)[]> = {
  night: ['night0', 'night'],
  speech: ['speech'],
  discussion: ['discussion'],
  accusation: ['accusation'],
  vote: ['vote'],
  last_words: ['lastWords'],
  shootout: ['shootout'],
};
