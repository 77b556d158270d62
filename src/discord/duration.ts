// Durations as players type them, in the letters of all three languages: "90", "90s", "15m",
// "15хв", "15 мин", "12ч", "2 год", "1д", "1h30m", "1 год 30 хв". One reader for every duration
// option (timers of /mafia create, /mafia settings timers, /tournament create; /host extend).

const SECOND = 1;
const MINUTE = 60;
const HOUR = 3_600;
const DAY = 86_400;

/** Unit words and abbreviations by language (lower case; a trailing dot is allowed: "15 хв.", "2 год."). */
const UNIT_WORDS: readonly (readonly [number, string])[] = [
  [SECOND, 's sec secs second seconds'],
  [MINUTE, 'm min mins minute minutes'],
  [HOUR, 'h hr hrs hour hours'],
  [DAY, 'd day days'],
  // uk
  [SECOND, 'с сек секунда секунди секунд секунду'],
  [MINUTE, 'хв хвил хвилина хвилини хвилин хвилину'],
  [HOUR, 'г год година години годин годину'],
  [DAY, 'д дн день дні днів доба доби діб'],
  // ru
  [SECOND, 'с сек секунда секунды секунд секунду'],
  [MINUTE, 'м мин минута минуты минут минуту'],
  [HOUR, 'ч час часа часов'],
  [DAY, 'д дн день дня дней сут сутки суток'],
];

const UNITS: ReadonlyMap<string, number> = new Map(
  UNIT_WORDS.flatMap(([secs, words]) => words.split(' ').map((w) => [w, secs] as const)),
);

/** The seconds one unit word stands for, or undefined (case-insensitive). */
export function unitSeconds(word: string): number | undefined {
  const w = word.toLowerCase().replace(/\.$/, '');
  return UNITS.get(w);
}

/**
 * "90" (seconds), "90s", "15хв", "15 мин", "12Ч", "2 год", "1д", "1h30m", "1 год 30 хв" -> seconds;
 * null when anything in it is not a number with a known unit.
 */
export function parseDuration(raw: string): number | null {
  const s = raw.trim();
  if (/^\d{1,7}$/.test(s)) return Number(s);
  const part = /(\d{1,7})\s*(\p{L}+\.?)\s*/uy;
  let pos = 0;
  let total = 0;
  while (pos < s.length) {
    part.lastIndex = pos;
    const m = part.exec(s);
    if (!m) return null;
    const unit = unitSeconds(m[2]!);
    if (unit === undefined) return null;
    total += Number(m[1]) * unit;
    pos = part.lastIndex;
  }
  return pos > 0 ? total : null;
}

/** "30s", "-1хв", "+2 год", "− 1m" -> seconds (negative to shorten); null when malformed. */
export function parseSignedDuration(raw: string): number | null {
  const m = /^\s*([+\-−]?)\s*(.*)$/su.exec(raw);
  if (!m) return null;
  const n = parseDuration(m[2]!);
  if (n === null) return null;
  return m[1] === '' || m[1] === '+' ? n : -n;
}

/** A number of days as in a /stats period: "30", "30d", "30д", "30 днів", "30 дней"; else null. */
export function parseDays(raw: string): number | null {
  const m = /^\s*(\d{1,9})\s*(\p{L}+\.?)?\s*$/u.exec(raw);
  if (!m) return null;
  if (m[2] !== undefined && unitSeconds(m[2]) !== DAY) return null;
  return Number(m[1]);
}
