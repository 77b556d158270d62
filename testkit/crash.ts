// Fault injection for tests: the bot "dies" right after a commit at one of these points (or
// `sent`: right after Discord accepted a post, before it is recorded; `followup`: the same for a
// post a click delivered as its interaction's follow-up) — nothing more is sent, nothing more is
// written, exactly as if the process had been killed there.
import type { CommitPoint } from '../src/app/game-service';
import type { BotConfig } from '../src/discord/bot';

export type CrashPoint = CommitPoint | 'sent' | 'followup';

/** BotConfig.instrument that halts the bot at `points` (with `sent` / `followup`: after `afterSends` posts, default 1). */
export function crashAt(points: readonly CrashPoint[], afterSends = 1): NonNullable<BotConfig['instrument']> {
  return ({ service, deliverer, halt }) => {
    service.use({ committed: (point) => void (points.includes(point) && halt()) });
    let sends = 0;
    let followups = 0;
    deliverer.watchSends((how) => {
      if (points.includes('sent') && ++sends >= afterSends) halt();
      if (points.includes('followup') && how === 'followup' && ++followups >= afterSends) halt();
    });
  };
}
