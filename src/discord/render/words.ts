// The words the renderers share: a role's, a team's and a rule set's name, a deadline, a duration,
// a refusal's text (from its code), a seat's label.
import type { RefusalCode, Role, Seat, Team } from '../../engine/types';
import { hasKey, t, type Locale, type MessageKey } from '../../i18n';
import { relTime, userOf, type GameCtx } from './common';

export function roleName(loc: Locale, role: Role): string {
  return t(loc, `role.${role}` as MessageKey);
}

export function teamName(loc: Locale, team: Team): string {
  return t(loc, `team.${team}` as MessageKey);
}

export function rulesetName(loc: Locale, ruleset: string): string {
  return t(loc, `ruleset.${ruleset}` as MessageKey);
}

/** "ends in 5 minutes (12 March 14:05)": relative and absolute, so a player reading later knows. */
export function untilText(loc: Locale, deadline: number | null, long = true): string {
  return deadline === null ? '' : ` ${t(loc, 'stage.until', { time: relTime(deadline, long) })}`;
}

/** A duration in words: "1 h 30 min", "45 s" (units as each language writes them). */
export function durationText(loc: Locale, seconds: number): string {
  const units: [number, Record<Locale, string>][] = [
    [86_400, { en: 'd', uk: 'д', ru: 'д' }],
    [3_600, { en: 'h', uk: 'год', ru: 'ч' }],
    [60, { en: 'min', uk: 'хв', ru: 'мин' }],
    [1, { en: 's', uk: 'с', ru: 'с' }],
  ];
  const parts: string[] = [];
  let left = Math.max(0, Math.round(seconds));
  for (const [size, name] of units) {
    if (left >= size) {
      parts.push(`${Math.floor(left / size)} ${name[loc]}`);
      left %= size;
    }
  }
  return parts.length > 0 ? parts.slice(0, 2).join(' ') : `0 ${units[3]![1][loc]}`;
}

/** The text for a refusal code, in the user's language. */
export function refusalText(loc: Locale, code: RefusalCode): string {
  // Every code has its text (i18n/en.ts checks it); a code from outside that is none is shown generically.
  const key = `refusal.${code}` as const;
  return hasKey(key) ? t(loc, key) : t(loc, 'refusal.generic');
}

/** A seat as a button or menu label: "#5 Alice" (mentions do not render there). */
export function seatLabel(ctx: GameCtx, seat: Seat): string {
  const u = userOf(ctx, seat);
  const name = u ? ctx.names.get(u) : undefined;
  return `#${seat}${name ? ` ${name}` : ''}`;
}

/**
 * A score as each language writes it (issue 21): a decimal comma in Ukrainian and Russian, a true
 * minus sign, an explicit plus where a change is shown (`signed`): "4,5", "−1", "+0,5".
 */
export function scoreText(loc: Locale, n: number, signed = false): string {
  const abs = Math.abs(n);
  const body = Number.isInteger(abs) ? String(abs) : String(Math.round(abs * 100) / 100);
  const local = loc === 'en' ? body : body.replace('.', ',');
  const sign = n < 0 ? '−' : signed && n > 0 ? '+' : '';
  return `${sign}${local}`;
}
