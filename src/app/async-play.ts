// Asynchronous play (issue 10), its rules: reminders, absences, substitute calls, quiet hours.
import type { GameRow } from '../db/store';
import { parseSettings, type ServerSettings } from './settings';

export function gameSettings(game: GameRow): ServerSettings {
  return parseSettings((game.ui as { settings?: unknown }).settings ?? {});
}
