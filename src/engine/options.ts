// Option overrides come from outside (slash options, scenario files, the database): validate them.
import { z } from 'zod';
import { RULESETS } from './rulesets';
import type { GameOptions, OptionOverrides, Pace, RulesetId } from './types';

const seconds = z
  .number()
  .int()
  .min(1)
  .max(30 * 24 * 3600);

export const timersSchema = z
  .object({
    night0: seconds,
    night: seconds,
    speech: seconds,
    discussion: seconds,
    accusation: seconds,
    vote: seconds,
    shootout: seconds,
    lastWords: seconds,
    postGame: seconds,
  })
  .partial()
  .strict();

export const optionOverridesSchema = z
  .object({
    prostituteKnowsMafia: z.boolean(),
    shotDeciderWithoutDon: z.enum(['lowest-seat', 'highest-seat']),
    askDon: z.boolean(),
    freezeRepeatLimit: z.number().int().min(0).max(100),
    healRepeatLimit: z.number().int().min(0).max(100),
    tellFrozen: z.boolean(),
    commissionerAnswer: z.enum(['at-resolution', 'at-once']),
    dayOpener: z.enum(['day-number', 'after-previous-first']),
    selfNomination: z.boolean(),
    day1SingleCandidateVote: z.boolean(),
    selfVote: z.boolean(),
    nonVoter: z.enum(['last-candidate', 'abstain']),
    minVotesToLeave: z.number().int().min(0).max(20),
    foulVotes: z.boolean(),
    tieAgain: z.enum(['nobody', 'all-leave-vote']),
    noTieBreakAtAlive: z.number().int().min(0).max(20),
    donTake: z.boolean(),
    mafiaTalk: z.enum(['night-0', 'every-night']),
    emptyRoundsDraw: z.number().int().min(0).max(100),
    rightCandidate: z.boolean(),
    ratingTies: z.enum(['share-skip', 'share-dense']),
    timers: timersSchema,
  })
  .partial()
  .strict();

/** The rule set's defaults with the overrides applied (overrides must already be validated). */
export function resolveOptions(ruleset: RulesetId, pace: Pace, overrides: OptionOverrides = {}): GameOptions {
  const def = RULESETS[ruleset];
  const { timers, ...rest } = overrides;
  return { ...def.defaults, ...rest, timers: { ...def.timers[pace], ...timers } };
}

/** Names of every option, for documentation and error messages. */
export const OPTION_NAMES = Object.keys(optionOverridesSchema.shape) as (keyof GameOptions)[];
