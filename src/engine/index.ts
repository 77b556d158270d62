// The engine's public surface: pure functions over one JSON value (GameState).
export { acquaintance, apply, createGame, currentSpeaker } from './apply';
export { optionOverridesSchema, OPTION_NAMES, resolveOptions, timersSchema } from './options';
export { dealProblem, RULESETS, RULESET_IDS, rolePool, teamOf, type RulesetDef } from './rulesets';
export { clockLabel, positionLabel } from './state';
export {
  hostPrompts,
  mafiaView,
  prompts,
  publicView,
  roleRevealed,
  seatView,
  type HostPrompt,
  type MafiaView,
  type Prompt,
  type PromptKind,
  type PublicView,
  type SeatView,
} from './view';
export type * from './types';
