// Quiet hours in a server's time zone (issue 10), with the Intl API: what local time an instant is
// in a zone (daylight saving included, from the runtime's time-zone data), whether it falls in the
// quiet hours, and when they end. Pure: no clock, the instant is an argument.

export interface QuietHours {
  /** Local "HH:MM" the quiet hours begin (inclusive) and end (exclusive); may wrap midnight. */
  readonly start: string;
  readonly end: string;
  /** An IANA time zone, e.g. Europe/Kyiv. */
  readonly tz: string;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function format(tz: string): Intl.DateTimeFormat {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formats.set(tz, f);
  }
  return f;
}

export function validTimeZone(tz: string): boolean {
  try {
    format(tz);
    return true;
  } catch {
    return false;
  }
}

function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
}

/** Minutes since local midnight in `tz` at the instant `ms`. */
export function localMinutes(ms: number, tz: string): number {
  let h = 0;
  let m = 0;
  for (const p of format(tz).formatToParts(new Date(ms))) {
    if (p.type === 'hour') h = Number(p.value) % 24;
    else if (p.type === 'minute') m = Number(p.value);
  }
  return h * 60 + m;
}

function inside(min: number, q: QuietHours): boolean {
  const s = minutesOf(q.start);
  const e = minutesOf(q.end);
  return s < e ? min >= s && min < e : min >= s || min < e;
}

/** Whether the instant falls inside the quiet hours. */
export function inQuietHours(ms: number, q: QuietHours): boolean {
  return inside(localMinutes(ms, q.tz), q);
}

/**
 * The first instant at or after `ms` that is not in the quiet hours: `ms` itself when it is not in
 * them, else the local end time (on the right day, whatever daylight saving did in between).
 */
export function quietHoursEnd(ms: number, q: QuietHours): number {
  if (!inQuietHours(ms, q)) return ms;
  const e = minutesOf(q.end);
  const start = Math.floor(ms / 60_000) * 60_000;
  // A first guess by wall-clock minutes, then corrected by what the zone says (a DST change in the
  // night moves the local end by an hour against the naive sum).
  let at = start + ((((e - localMinutes(start, q.tz)) % 1440) + 1440) % 1440) * 60_000;
  for (let k = 0; k < 3 && localMinutes(at, q.tz) !== e; k++) {
    let d = e - localMinutes(at, q.tz);
    if (d > 720) d -= 1440;
    if (d < -720) d += 1440;
    at += d * 60_000;
  }
  // The end time does not exist that day (a spring-forward gap): the first minute after the quiet hours.
  while (inQuietHours(at, q) || at < ms) at += 60_000;
  return at;
}
