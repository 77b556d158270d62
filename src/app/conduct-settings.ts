// The server's conduct thresholds (issue 24), a setting of src/app/settings.ts (apart from
// src/app/conduct.ts, which reads the settings).
import { z } from 'zod';

const count = z.number().int().min(0).max(50);

/**
 * The server's thresholds (`/mafia settings conduct`): this many absences, fouls, removals or games
 * left within `days` days pause the member from rated games for `pause` days. 0 turns a threshold off.
 */
export const conductSettingsSchema = z.object({
  days: z.number().int().min(1).max(365),
  absences: count,
  fouls: count,
  removals: count,
  abandoned: count,
  pause: z.number().int().min(0).max(365),
});
export type ConductSettings = z.infer<typeof conductSettingsSchema>;
export const DEFAULT_CONDUCT: ConductSettings = {
  days: 30,
  absences: 0,
  fouls: 0,
  removals: 0,
  abandoned: 0,
  pause: 7,
};
