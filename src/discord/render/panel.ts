// What one seat sees in private: the role card, the night or day panel with its prompts (a DM, or
// the private panel of a player without DMs), and the confirmation of what he just did.
import { ButtonStyle } from 'discord-api-types/v10';
import { declinable } from '../../engine/night';
import { seatView, type PromptKind } from '../../engine/view';
import { RULESETS } from '../../engine/rulesets';
import type { Action, ActionKind, GameEvent, PlayerActionKind, Seat } from '../../engine/types';
import { t, type Locale, type MessageKey } from '../../i18n';
import { button, buttonRows, mentions, relTime, row, seatSelect, seatTag, type GameCtx, type Payload } from './common';
import { DARK, RED, stageLine } from './game';
import { roleName, rulesetName, seatLabel, teamName } from './words';

/** The role card (private): role, team, what it does, and (G-4) who the other black players are. */
export function roleCard(ctx: GameCtx, seat: Seat, loc: Locale): Payload {
  const s = ctx.state!;
  const v = seatView(s, seat);
  const def = RULESETS[s.ruleset];
  const descKey = (
    v.role === 'don'
      ? def.shotRule === 'unanimous'
        ? 'roleDesc.don.unanimous'
        : 'roleDesc.don.decides'
      : v.role === 'mafia'
        ? def.shotRule === 'unanimous'
          ? 'roleDesc.mafia.unanimous'
          : 'roleDesc.mafia.decides'
        : `roleDesc.${v.role}`
  ) as MessageKey;
  // Issue 21: the card says all the role does in this game's options (N-6's "is it the Don?", D-8's
  // take) and how its team wins (E-1 or E-2).
  const lines = [t(loc, descKey)];
  if (v.role === 'sheriff' && s.options.askDon) lines.push(t(loc, 'roleDesc.sheriff.askDon'));
  if (v.role === 'don' && s.options.donTake) lines.push(t(loc, 'roleDesc.don.take'));
  lines.push(t(loc, `card.win.${def.win}.${v.team}` as MessageKey));
  if (v.team === 'black') {
    if (v.knownBlack.length > 0)
      lines.push(
        t(loc, 'card.mates', {
          mates: v.knownBlack.map((k) => `${seatTag(ctx, k.seat)} — ${roleName(loc, k.role)}`).join(', '),
        }),
      );
    else if (v.role === 'prostitute') lines.push(t(loc, 'card.prostituteAlone'));
  }
  if (v.checks.length > 0) {
    lines.push(`\n**${t(loc, 'card.checks')}**`);
    for (const c of v.checks) lines.push(checkLine(ctx, loc, c));
  }
  if (!v.alive) lines.push(`\n${t(loc, 'card.left')}`);
  return {
    embeds: [
      {
        title: t(loc, 'card.title', { role: roleName(loc, v.role), seat }),
        description: lines.join('\n'),
        color: v.team === 'black' ? DARK : RED,
        footer: {
          text: t(loc, 'card.footer', {
            id: ctx.game.id,
            team: teamName(loc, v.team),
            ruleset: rulesetName(loc, s.ruleset),
          }),
        },
      },
    ],
    allowed_mentions: mentions(),
  };
}

export function checkLine(
  ctx: GameCtx,
  loc: Locale,
  c: { target: Seat; at: { phase: string; n: number }; answer: string; kind: string },
): string {
  return t(loc, 'check.line', {
    night: c.at.n,
    target: seatTag(ctx, c.target),
    answer: t(loc, `answer.${c.answer.replace(' ', '-')}` as MessageKey),
  });
}

/**
 * N-4..N-6: every answer this seat has had tonight, in the order it came (the Sheriff's "black",
 * then "you asked whether #6 is the Don" and its answer): a panel shows them all, so a later answer
 * never replaces an earlier one. `note` (the latest confirmation with its answers) comes last.
 */
function tonightsAnswers(ctx: GameCtx, loc: Locale, seat: Seat, night: number, note: string | null | undefined) {
  const s = ctx.state!;
  const mine = (note ?? '').split('\n').filter(Boolean);
  const earlier = s.checks
    .filter((c) => c.seat === seat && c.at.phase === 'night' && c.at.n === night)
    .map((c) => `🔎 ${checkLine(ctx, loc, c)}`)
    .filter((l) => !mine.includes(l));
  return [...earlier, ...mine];
}

/** Where each prompt shows in a player's panel (every player action has a place). */
export const PROMPT_ORDER: { readonly [K in PromptKind]: number } = {
  shoot: 0,
  check: 1,
  askDon: 2,
  heal: 3,
  freeze: 4,
  kill: 5,
  nominate: 6,
  vote: 7,
  voteAll: 8,
  take: 9,
  guess: 10,
  best: 11,
  pass: 12,
  skip: 13,
};

/** The private confirmation of each player action (a check with the note has its own). */
export const OK_KEYS = {
  pass: 'ok.pass',
  nominate: 'ok.nominate',
  vote: 'ok.vote',
  voteAll: 'ok.voteAll',
  shoot: 'ok.shoot',
  check: 'ok.check',
  askDon: 'ok.askDon',
  heal: 'ok.heal',
  freeze: 'ok.freeze',
  kill: 'ok.kill',
  skip: 'ok.skip',
  take: 'ok.take',
  guess: 'ok.guess',
  best: 'ok.best',
} as const satisfies Record<PlayerActionKind, MessageKey>;

/** What "skip" declines for this seat tonight, said plainly. */
function skipLabel(ctx: GameCtx, seat: Seat, loc: Locale): string {
  const s = ctx.state!;
  if (s.stage.kind !== 'night') return t(loc, 'button.skip');
  const d = declinable(s, s.stage.acts, seat) ?? {};
  if ('askDon' in d) return t(loc, 'button.skip.askDon');
  if ('donCheck' in d || 'sheriffCheck' in d || 'commissioner' in d) return t(loc, 'button.skip.check');
  if ('heal' in d) return t(loc, 'button.skip.heal');
  if ('freeze' in d) return t(loc, 'button.skip.freeze');
  if ('maniac' in d) return t(loc, 'button.skip.kill');
  return t(loc, 'button.skip');
}

/**
 * What a seat may do now, as a private panel (DM or ephemeral): a menu or button per prompt.
 * `note` is a line shown above (a confirmation or a check answer).
 */
export function panelPayload(ctx: GameCtx, seat: Seat, loc: Locale, note?: string | null): Payload {
  const s = ctx.state!;
  const g = ctx.game.id;
  const seq = s.seq;
  const v = seatView(s, seat);
  const prompts = [...v.prompts].sort((a, b) => PROMPT_ORDER[a.kind] - PROMPT_ORDER[b.kind]);
  const rows: NonNullable<Payload['components']> = [];
  const buttons = [];
  for (const p of prompts) {
    switch (p.kind) {
      case 'shoot':
        rows.push(
          row(seatSelect(ctx, { kind: 'act', game: g, seq, verb: 'shoot' }, t(loc, 'prompt.shoot'), p.targets)),
        );
        break;
      case 'check':
        rows.push(
          row(seatSelect(ctx, { kind: 'act', game: g, seq, verb: 'check' }, t(loc, `prompt.check.${p.as}`), p.targets)),
        );
        if (p.note)
          rows.push(
            row(
              seatSelect(ctx, { kind: 'act', game: g, seq, verb: 'checkNote' }, t(loc, 'prompt.checkNote'), p.targets),
            ),
          );
        break;
      case 'heal':
      case 'freeze':
      case 'kill':
      case 'take':
      case 'best':
      case 'nominate':
        rows.push(
          row(seatSelect(ctx, { kind: 'act', game: g, seq, verb: p.kind }, t(loc, `prompt.${p.kind}`), p.targets)),
        );
        break;
      case 'guess':
        rows.push(
          row(seatSelect(ctx, { kind: 'act', game: g, seq, verb: 'guess' }, t(loc, 'prompt.guess'), p.targets, [2, 3])),
        );
        break;
      case 'vote':
        for (const c of p.targets)
          buttons.push(
            button({ kind: 'act', game: g, seq, verb: 'vote', arg: c }, seatLabel(ctx, c), ButtonStyle.Primary),
          );
        break;
      case 'voteAll':
        buttons.push(
          button(
            { kind: 'act', game: g, seq, verb: 'voteAll', arg: 'y' },
            t(loc, 'button.allLeaveYes'),
            ButtonStyle.Danger,
          ),
        );
        buttons.push(
          button(
            { kind: 'act', game: g, seq, verb: 'voteAll', arg: 'n' },
            t(loc, 'button.allLeaveNo'),
            ButtonStyle.Success,
          ),
        );
        break;
      case 'askDon':
        buttons.push(
          button(
            { kind: 'act', game: g, seq, verb: 'askDon' },
            t(loc, 'button.askDon', { seat: p.target }),
            ButtonStyle.Primary,
          ),
        );
        break;
      case 'pass':
        buttons.push(
          button(
            { kind: 'act', game: g, seq, verb: 'pass' },
            t(loc, s.stage.kind === 'window' ? 'button.done' : 'button.thanks'),
            ButtonStyle.Success,
          ),
        );
        break;
      case 'skip':
        buttons.push(
          button({ kind: 'act', game: g, seq, verb: 'skip' }, skipLabel(ctx, seat, loc), ButtonStyle.Secondary),
        );
        break;
      default: {
        const unhandled: never = p; // a new player action needs its control here
        void unhandled;
      }
    }
  }
  for (const r of buttonRows(buttons) ?? []) rows.push(r);
  const head =
    s.clock.phase === 'night' && s.stage.kind === 'night'
      ? // Nothing left to do tonight: no countdown (it would read "ended 30 s ago" after the night,
        // and this version, with no controls, is not edited again).
        prompts.length === 0
        ? t(loc, 'prompt.nightHeadDone', { n: s.clock.n })
        : t(loc, 'prompt.nightHead', { n: s.clock.n, time: relTime(s.deadline, s.pace === 'async') })
      : stageLine(ctx, loc);
  const body =
    prompts.length === 0
      ? t(loc, s.stage.kind === 'night' && v.alive ? 'prompt.doneTonight' : 'prompt.nothing')
      : [...nightRules(ctx, loc, seat, prompts), t(loc, 'prompt.choose')].join('\n');
  const said = s.clock.phase === 'night' ? tonightsAnswers(ctx, loc, seat, s.clock.n, note) : [note ?? ''];
  return {
    content: [...said, `**${t(loc, 'prompt.title', { id: g, seat })}** — ${head}`, body].filter(Boolean).join('\n'),
    components: rows.slice(0, 5),
    allowed_mentions: mentions(),
  };
}

/**
 * What tonight's choices may target and how they count, one line each, said before the choice
 * (the menus already leave out the seats a rule forbids).
 */
function nightRules(ctx: GameCtx, loc: Locale, seat: Seat, prompts: readonly { kind: PromptKind }[]): string[] {
  const s = ctx.state!;
  if (s.stage.kind !== 'night') return [];
  const role = s.players[seat - 1]!.role;
  const out: string[] = [];
  for (const p of prompts) {
    if (p.kind === 'shoot') {
      // N-3: the shot lands only when every black player picks the same seat. N-4: the Don decides.
      if (RULESETS[s.ruleset].shotRule === 'unanimous') out.push(t(loc, 'rule.shoot.unanimous'));
      else if (role === 'mafia' || role === 'don') out.push(t(loc, 'rule.shoot.donDecides'));
    } else if (p.kind === 'heal')
      out.push(t(loc, 'rule.heal')); // N-8
    else if (p.kind === 'freeze')
      out.push(t(loc, 'rule.freeze')); // N-7
    else if (p.kind === 'check' && 'note' in p && p.note) out.push(t(loc, 'rule.note')); // N-11
  }
  return out.map((l) => `▸ ${l}`);
}

/** A night panel once its night is over: what was done, no controls. */
export function closedPanel(
  ctx: GameCtx,
  loc: Locale,
  seat: Seat,
  night: { clock: { n: number } },
  note: string | null,
): Payload {
  const said = tonightsAnswers(ctx, loc, seat, night.clock.n, note);
  return {
    content: [
      ...said,
      `**${t(loc, 'prompt.title', { id: ctx.game.id, seat })}** — ${t(loc, 'prompt.nightOver', { n: night.clock.n })}`,
    ]
      .filter(Boolean)
      .join('\n'),
    components: [],
    allowed_mentions: mentions(),
  };
}

/** The private confirmation of an accepted action, with a check's answer when there is one. */
export function confirmation(
  ctx: GameCtx,
  loc: Locale,
  seat: Seat,
  action: Action,
  events: readonly GameEvent[],
): string {
  const answers = events.filter((e) => e.to.kind === 'seat' && e.to.seat === seat && e.body.type === 'check-result');
  const lines = answers.map((e) => (e.body.type === 'check-result' ? `🔎 ${checkLine(ctx, loc, e.body)}` : ''));
  const asked =
    action.kind === 'askDon'
      ? answers.find((e) => e.body.type === 'check-result' && e.body.kind === 'askDon')
      : undefined;
  const target =
    'target' in action
      ? seatTag(ctx, action.target)
      : asked?.body.type === 'check-result'
        ? seatTag(ctx, asked.body.target)
        : '';
  const targets = 'targets' in action ? action.targets.map((x) => `#${x}`).join(', ') : '';
  const choice = action.kind === 'voteAll' ? t(loc, action.choice ? 'button.allLeaveYes' : 'button.allLeaveNo') : '';
  const okKeys: Partial<Record<ActionKind, MessageKey>> = OK_KEYS;
  const key = action.kind === 'check' && action.note ? 'ok.checkNote' : okKeys[action.kind]!;
  return [`✅ ${t(loc, key, { target, targets, choice })}`, ...lines].join('\n');
}
