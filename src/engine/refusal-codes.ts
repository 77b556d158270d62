// Every refusal code, `area/reason`: the complete list, here once so that it exists at run time
// too. A refusal is a code, never text; the shell shows `refusal.<code>` from the catalogs, and
// i18n/en.ts must have that key for every code (uk.ts and ru.ts have every key of en.ts), so a
// code without its text in any language does not compile. Grouped by the lowest layer that gives
// it: the engine's own codes are a type of their own (the engine gives no other); the service and
// the shell may give any code of the layers below theirs.
export const REFUSALS = {
  /** The engine: apply.ts, action-shape.ts, replay.ts. */
  engine: [
    'action/bad-field', 'action/extra-field', 'action/missing-field', 'action/not-an-object',
    'action/unknown-kind', 'askDon/not-now', 'askDon/not-your-role', 'best/already-voted',
    'best/host-decides', 'best/not-now', 'best/players-decide', 'best/self', 'bonus/already-given',
    'bonus/bad-points', 'bonus/not-in-ruleset', 'bonus/not-now', 'check/already', 'check/no-note',
    'check/not-your-role', 'check/note-used', 'check/self', 'end/bad-winner', 'extend/bad-duration',
    'extend/no-timer', 'foul/bad-count', 'freeze/already', 'freeze/not-your-role',
    'freeze/three-in-a-row', 'game/over', 'game/paused', 'game/post-game', 'guess/count',
    'guess/duplicate', 'guess/not-allowed', 'heal/already', 'heal/not-your-role',
    'heal/three-in-a-row', 'kill/already', 'kill/not-your-role', 'kill/self', 'night/acquaintance',
    'night/not-at-table', 'night/not-now', 'nominate/already-candidate',
    'nominate/already-nominated', 'nominate/may-not-speak', 'nominate/not-now',
    'nominate/not-your-turn', 'nominate/self', 'pass/already', 'pass/may-not-speak',
    'pass/not-your-turn', 'pause/already', 'resume/not-paused', 'revive/at-table',
    'revive/not-by-host', 'seat/unknown', 'shoot/already', 'shoot/not-your-role',
    'skip/nothing-to-skip', 'stage/stale', 'take/not-allowed', 'target/not-at-table',
    'timeout/early', 'timeout/stale', 'undo/answer-given', 'undo/foul', 'undo/left-table',
    'undo/log-broken', 'undo/needs-log', 'undo/nothing', 'undo/stage-closed', 'undo/unknown-entry',
    'vote/already-voted', 'vote/no-vote-right', 'vote/not-a-candidate', 'vote/not-at-table',
    'vote/not-now', 'vote/self', 'voteAll/not-now',
  ],
  /** The service (app/game-service.ts). */
  service: [
    'annul/already', 'annul/not-finished', 'game/finished', 'game/not-running', 'game/unknown',
    'lobby/closed', 'service/closed', 'storage/failed', 'substitute/already-playing',
    'transfer/same-host',
  ],
  /** The Discord shell (src/discord), including the texts it shows by key with parameters. */
  shell: [
    'action/not-now', 'create/busy', 'create/options', 'create/pace', 'create/ruleset',
    'create/ruleset-needed', 'create/timer', 'game/none-here', 'game/not-started',
    'game/other-server', 'host/not-host', 'host/playing-host', 'host/playing-host-night',
    'input/bad-choice', 'input/forged', 'input/guild-only', 'input/unknown', 'lobby/already-joined',
    'lobby/full', 'lobby/not-full', 'lobby/not-joined', 'lobby/unchanged', 'player/not-playing',
    'settings/channel', 'settings/invalid', 'settings/permission', 'settings/quiet',
    'settings/timer', 'spectators/living', 'spectators/none', 'subcall/already', 'subcall/closed',
    'subcall/not-running', 'subcall/not-volunteer', 'subcall/open', 'subcall/playing',
    'subcall/watched', 'substitute/bot', 'tournament/already-joined', 'tournament/channel-busy',
    'tournament/channel-failed', 'tournament/channel-forbidden', 'tournament/channel-kind',
    'tournament/closed', 'tournament/drawn', 'tournament/final-exists', 'tournament/full',
    'tournament/missing', 'tournament/name', 'tournament/no-channel', 'tournament/no-table',
    'tournament/none', 'tournament/not-at-table', 'tournament/not-drawn', 'tournament/not-host',
    'tournament/not-joined', 'tournament/not-now', 'tournament/not-registered', 'tournament/over',
    'tournament/permission', 'tournament/qualifying', 'tournament/ruleset',
    'tournament/sub-at-table', 'tournament/sub-busy', 'tournament/sub-pair',
    'tournament/table-finished', 'tournament/table-playing', 'tournament/too-few', 'transfer/bot',
  ],
} as const;

export type EngineRefusalCode = (typeof REFUSALS.engine)[number];
export type RefusalCode = (typeof REFUSALS)[keyof typeof REFUSALS][number];

/** All codes, in the order above. */
export const REFUSAL_CODES: readonly RefusalCode[] = [...REFUSALS.engine, ...REFUSALS.service, ...REFUSALS.shell];

const known: ReadonlySet<string> = new Set(REFUSAL_CODES);

/** Whether a string from outside (a stored result, a test) is a refusal code. */
export function isRefusalCode(s: string): s is RefusalCode {
  return known.has(s);
}
