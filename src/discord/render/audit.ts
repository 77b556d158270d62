// One entry of a game's audit log in words: when, who, what, why (/host log, the host panel).
import { hasKey, t, type Locale, type MessageKey } from '../../i18n';
import { durationText } from './words';

/** One audit entry in words: when, who, what, why. */
export function auditText(
  loc: Locale,
  r: { at: number; actorId: string; action: string; detail: string; reason: string | null },
  secretsOk = true,
): string {
  let d: Record<string, unknown> = {};
  try {
    d = JSON.parse(r.detail) as Record<string, unknown>;
  } catch {
    // an unreadable detail is shown without parameters
  }
  const who =
    r.actorId.startsWith('host:') || r.actorId.startsWith('user:')
      ? `<@${r.actorId.slice(5)}>`
      : r.actorId === 'timer'
        ? t(loc, 'audit.timer')
        : t(loc, 'audit.system');
  const seconds = typeof d.seconds === 'number' ? d.seconds : 0;
  const what =
    typeof d.what === 'string' && hasKey(`action.${d.what}`)
      ? t(loc, `action.${d.what}` as MessageKey)
      : typeof d.what === 'string'
        ? d.what
        : '';
  const undoneSeat = typeof d.seat === 'number' ? `#${d.seat}` : '';
  const undoneTarget = typeof d.target === 'number' ? ` → #${d.target}` : '';
  const params = {
    seat: typeof d.target === 'number' ? `#${d.target}` : typeof d.seat === 'number' ? `#${d.seat}` : '',
    count: typeof d.count === 'number' ? d.count : 1,
    winner:
      typeof d.winner === 'string' && hasKey(`winner.${d.winner}`) ? t(loc, `winner.${d.winner}` as MessageKey) : '',
    points: typeof d.points === 'number' ? d.points : '',
    from: typeof d.from === 'string' ? `<@${d.from}>` : '',
    to: typeof d.to === 'string' ? `<@${d.to}>` : '',
    delta: `${seconds < 0 ? '−' : '+'}${durationText(loc, Math.abs(seconds))}`,
    undone: typeof d.undone === 'number' ? d.undone : '?',
    what: secretsOk ? [what, `${undoneSeat}${undoneTarget}`].filter(Boolean).join(' ') : '…',
  };
  const key = `audit.${r.action}`;
  const text = hasKey(key) ? t(loc, key as MessageKey, params) : r.action;
  return `<t:${Math.floor(r.at / 1000)}:f> ${who}: ${text}${r.reason ? ` — ${t(loc, 'audit.reason', { reason: r.reason })}` : ''}`;
}
