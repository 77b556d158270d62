// Replays every game's log from its deal and compares with the stored state (issue: db:verify).
import { isDeepStrictEqual } from 'node:util';
import { createGame } from '../engine/apply';
import { replay } from '../engine/replay';
import type { GameState } from '../engine/types';
import { storeReader, type GameReader } from '../db/game-reader';
import type { Store } from '../db/store';

export interface VerifyReport {
  games: number;
  checked: number;
  /** Lobbies and cancelled lobbies have no deal yet. */
  skipped: number;
  actions: number;
  mismatches: { gameId: number; problem: string }[];
}

/** A SQLite database's games, through its Store. */
export function verifyStore(store: Store): Promise<VerifyReport> {
  return verifyGames(storeReader(store));
}

/**
 * Replays the games of a database (SQLite or PostgreSQL, src/db/game-reader.ts): every game, or
 * only `ids` (those that exist).
 */
export async function verifyGames(reader: GameReader, ids?: readonly number[]): Promise<VerifyReport> {
  const report: VerifyReport = { games: 0, checked: 0, skipped: 0, actions: 0, mismatches: [] };
  for (const id of ids ?? (await reader.allGameIds())) {
    const game = await reader.getGame(id);
    if (!game) continue;
    report.games++;
    const raw = await reader.rawState(id);
    if (!game.deal || !raw || game.startedAt === null) {
      report.skipped++;
      continue;
    }
    report.checked++;
    const problem = (p: string) => report.mismatches.push({ gameId: id, problem: p });
    let state: GameState;
    try {
      state = createGame(game.ruleset, { roles: game.deal }, game.options, game.pace, { now: game.startedAt });
    } catch (e) {
      problem(`cannot create the game from its deal: ${(e as Error).message}`);
      continue;
    }
    const log = await reader.log(id);
    report.actions += log.length;
    const broken = log.findIndex((e, i) => e.seq !== i + 1);
    if (broken >= 0) {
      problem(`log sequence broken at ${broken + 1} (found ${log[broken]!.seq})`);
      continue;
    }
    // Undo entries (G-7) are replayed as the log says: without the entries they took back.
    const r = replay(state, log);
    if (!r.ok) {
      const entry = log.find((e) => e.seq === r.seq);
      problem(`action ${r.seq} (${entry?.action.kind}) is refused on replay: ${r.code}`);
      continue;
    }
    state = r.state;
    if (game.moves !== log.length) problem(`moves ${game.moves} but ${log.length} actions in the log`);
    const stored = JSON.parse(raw) as GameState;
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(state)), stored)) {
      problem(`replayed state differs from the stored state (stored moves ${stored.moves}, replayed ${state.moves})`);
      continue;
    }
    const deadline = await reader.deadlineOf(id);
    const live = game.status === 'running' || game.status === 'post-game';
    if (live && state.deadline !== null && (deadline?.stageSeq !== state.seq || deadline.dueAt !== state.deadline)) {
      problem(
        `stored deadline ${JSON.stringify(deadline)} does not match the state (seq ${state.seq}, due ${state.deadline})`,
      );
    }
  }
  return report;
}
