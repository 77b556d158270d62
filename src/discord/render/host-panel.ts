// The host panel (G-7): an ephemeral view for a host who does not play — every seat's role, this
// stage's pending actions (who has acted, at night too), fouls, candidates, the deadline, and
// buttons for the common overrides. It is only ever an interaction reply to the host: nothing of
// it is written to the outbox or to a public message (N-13).
import { ButtonStyle } from 'discord-api-types/v10';
import type { APIEmbed } from 'discord-api-types/v10';
import { actorsNow, prompts } from '../../engine/view';
import type { NightActs, Pick, Seat } from '../../engine/types';
import { t, type Locale, type MessageKey } from '../../i18n';
import { button, row, userOf, type GameCtx, type Payload } from './common';
import { durationText, roleName } from './words';
import { stageLine } from './game';

const HOST_COLOR = 0x5865f2;

const tag = (seat: Seat) => `#${seat}`;

/** Night actions so far, in words (only for the host's eyes). */
function nightLines(loc: Locale, acts: NightActs): string[] {
  const out: string[] = [];
  const pick = (p: Pick | undefined, key: MessageKey) => {
    if (p === undefined) return;
    out.push(
      p === 'skip'
        ? `${t(loc, key, { target: '' }).trim()} — ${t(loc, 'panel.act.skip')}`
        : t(loc, key, { target: tag(p) }),
    );
  };
  acts.shots.forEach((target, i) => {
    if (target !== 0) out.push(`${tag(i + 1)}: ${t(loc, 'panel.act.shoot', { target: tag(target) })}`);
  });
  pick(acts.donCheck, 'panel.act.donCheck');
  pick(acts.sheriffCheck, 'panel.act.sheriffCheck');
  if (acts.askDon === 'asked') out.push(t(loc, 'panel.act.askDon'));
  if (acts.commissioner !== undefined) {
    if (acts.commissioner === 'skip') pick('skip', 'panel.act.commissioner');
    else
      out.push(
        `${t(loc, 'panel.act.commissioner', { target: tag(acts.commissioner.target) })}${acts.commissioner.note ? t(loc, 'panel.act.note') : ''}`,
      );
  }
  pick(acts.heal, 'panel.act.heal');
  pick(acts.freeze, 'panel.act.freeze');
  pick(acts.maniac, 'panel.act.maniac');
  return out;
}

const field = (name: string, value: string): NonNullable<APIEmbed['fields']>[number] => ({
  name,
  value: value.slice(0, 1024) || '—',
});

/** `shown` is the stage's end as players see it (later than the engine's if its message was seen late). */
export function hostPanel(ctx: GameCtx, loc: Locale, shown: number | null): Payload {
  const s = ctx.state!;
  const g = ctx.game;
  // The stage line shows the end; while paused, the time left (kept for the resume).
  const now = !s.paused
    ? ''
    : s.paused.remaining === null
      ? t(loc, 'panel.pausedUntimed')
      : t(loc, 'panel.paused', { left: durationText(loc, s.paused.remaining / 1000) });
  const seats = s.players.map((p) => {
    const u = userOf(ctx, p.seat);
    const left = s.out.find((o) => o.seat === p.seat);
    return `${p.alive ? '🟢' : '💀'} **#${p.seat}** ${u ? `<@${u}>` : ''} — ${roleName(loc, p.role)}${p.fouls > 0 ? ` ⚠️${p.fouls}` : ''}${left ? ` (${t(loc, `left.${left.by}` as MessageKey, { when: t(loc, left.at.phase === 'night' ? 'clock.night' : 'clock.day', { n: left.at.n }) })})` : ''}`;
  });
  const fields = [field(t(loc, 'panel.seats'), seats.join('\n'))];
  const st = s.stage;
  const waiting = actorsNow(s).filter((seat) => prompts(s, seat).length > 0);
  if (st.kind !== 'over')
    fields.push(
      field(t(loc, 'panel.waiting'), waiting.length > 0 ? waiting.map(tag).join(', ') : t(loc, 'panel.nobody')),
    );
  if (st.kind === 'night') {
    const lines = nightLines(loc, st.acts);
    fields.push(field(t(loc, 'panel.night'), lines.length > 0 ? lines.join('\n') : t(loc, 'panel.nightNone')));
  }
  const noms = s.day?.nominations ?? [];
  if (st.kind === 'vote' || st.kind === 'voteAll' || st.kind === 'shootout')
    fields.push(field(t(loc, 'panel.candidates'), st.candidates.map(tag).join(', ')));
  else if (noms.length > 0 && s.clock.phase === 'day')
    fields.push(field(t(loc, 'panel.candidates'), noms.map((nm) => `${tag(nm.target)} ← ${tag(nm.by)}`).join(', ')));
  if (st.kind === 'vote' || st.kind === 'voteAll') {
    const votes = st.ballots
      .map((b, i) =>
        b === 0 ? null : st.kind === 'vote' ? `${tag(i + 1)}→${tag(b)}` : `${tag(i + 1)}: ${b > 0 ? '✅' : '❌'}`,
      )
      .filter((x): x is string => x !== null);
    fields.push(field(t(loc, 'panel.ballots'), votes.length > 0 ? votes.join(' ') : t(loc, 'panel.noVotes')));
  }
  const embed: APIEmbed = {
    title: t(loc, 'panel.title', { id: g.id }),
    description: [stageLine(ctx, loc, shown), now].filter(Boolean).join('\n'),
    color: HOST_COLOR,
    fields,
    footer: { text: t(loc, 'panel.footer') },
  };
  const seq = s.seq;
  const id = (op: 'refresh' | 'pause' | 'resume' | 'skip' | 'undo' | 'more' | 'less' | 'log') => ({
    kind: 'host' as const,
    game: g.id,
    seq,
    op,
  });
  const over = st.kind === 'over';
  const timed = s.paused ? s.paused.remaining !== null : s.deadline !== null;
  const components = over
    ? [row(button(id('refresh'), t(loc, 'button.refresh')), button({ ...id('log'), page: 0 }, t(loc, 'button.log')))]
    : [
        row(
          button(id('refresh'), t(loc, 'button.refresh')),
          s.paused
            ? button(id('resume'), t(loc, 'button.resume'), ButtonStyle.Success)
            : button(id('pause'), t(loc, 'button.pause'), ButtonStyle.Primary),
          button(id('skip'), t(loc, 'button.hostSkip'), ButtonStyle.Danger),
          button(id('undo'), t(loc, 'button.undo')),
        ),
        row(
          button(id('more'), t(loc, 'button.more'), ButtonStyle.Secondary, !timed),
          button(id('less'), t(loc, 'button.less'), ButtonStyle.Secondary, !timed),
          button({ ...id('log'), page: 0 }, t(loc, 'button.log')),
        ),
      ];
  return { embeds: [embed], components, allowed_mentions: { parse: [] } };
}
