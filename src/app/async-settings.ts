// The server settings of asynchronous play (issue 10), spread into the one settings schema of
// src/app/settings.ts. Each has its default; a game keeps the values it was created with.
import { z } from 'zod';
import { validTimeZone } from './quiet-hours';

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM, 00:00-23:59');

export const quietHoursSchema = z
  .object({
    start: hhmm,
    end: hhmm,
    tz: z.string().min(1).max(64).refine(validTimeZone, 'an IANA time zone such as Europe/Kyiv'),
  })
  .refine((q) => q.start !== q.end, 'start and end must differ');

export const asyncSettingsShape = {
  /** A stage's start pings (in its message) the players it waits for; never at night (N-13). */
  pings: z.enum(['on', 'off']).default('on'),
  /** DM reminders before a deadline: `auto` = async halfway and one hour before, live none. */
  reminders: z.enum(['auto', 'off', 'halfway', 'hour', 'both']).default('auto'),
  /** Quiet hours in the server's time zone (async: deadlines move to their end, no reminders). */
  quietHours: quietHoursSchema.nullable().default(null),
  /** The host is told privately after this many owed actions in a row a player let pass (0: never). */
  absentAfter: z.number().int().min(0).max(10).default(2),
  /** The first volunteer of a substitute call takes the seat at once (else the host picks). */
  autoSubstitute: z.boolean().default(false),
  /** At a deadline the stage ends with the rule set's defaults (D-5, P-3); off: it waits for the host, who is told who is missing. */
  autoEnd: z.boolean().default(true),
  /** The spectators' thread is told every role at the start (off: public facts only; a dead player could pass it on). */
  spectatorRoles: z.boolean().default(false),
};
