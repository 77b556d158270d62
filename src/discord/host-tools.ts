// The host's toolkit in Discord (issue 11): which game a host command is about, who may host it,
// the new commands (pause, resume, extend, revive, undo, annul, transfer, panel), the audit log in
// words with pages, and the host panel's buttons. Every refusal is an ephemeral answer to the one
// who asked; nothing here posts to a channel (what players must see goes through the outbox).
import {
  ButtonStyle,
  MessageFlags,
  PermissionFlagsBits,
  type ChatInputCommandInteraction,
  type Interaction,
} from 'discord.js';
import type { ActorId, DispatchResult, GameService } from '../app/game-service';
import { hostRight, mayAnnul, playsIn, PLAYING_HOST, playingHostMay, type HostDeed, type Member } from '../app/hosts';
import { readSettings } from '../app/settings';
import type { GameRow, Store } from '../db/store';
import { MAX_EXTEND_SECONDS } from '../engine/apply';
import type { Action, RefusalCode } from '../engine/types';
import { t, type Locale } from '../i18n';
import type { Contexts } from './context';
import type { HostSubcommand } from './commands/host-subcommands';
import type { CustomId } from './custom-id';
import { button, row, type Payload } from './render/common';
import { refusalText } from './render/words';
import { hostPanel } from './render/host-panel';
import { refuse, say, toReply, type Component, type Replyable } from './reply';
import { auditText } from './render/audit';
import { parseSignedDuration } from './duration';

/** Subcommands this module answers (the others are commands/host.ts's). */
export const TOOLKIT_SUBS = [
  'pause',
  'resume',
  'extend',
  'revive',
  'undo',
  'annul',
  'transfer',
  'panel',
  'log',
] as const satisfies readonly HostSubcommand[];

export type ToolkitSubcommand = (typeof TOOLKIT_SUBS)[number];

export const isToolkitSubcommand = (sub: string): sub is ToolkitSubcommand =>
  (TOOLKIT_SUBS as readonly string[]).includes(sub);

/** Subcommands that may name a finished game (the channel's latest when none is running). */
export const FINISHED_OK: readonly HostSubcommand[] = ['log', 'annul'];

/** The deed of each host-panel button (app/hosts.ts `playingHostMay`). */
const PANEL_DEED = {
  pause: 'pause',
  resume: 'resume',
  skip: 'skip',
  more: 'extend',
  less: 'extend',
  undo: 'undo',
  refresh: 'panel',
  log: 'log',
} as const satisfies Record<Extract<CustomId, { kind: 'host' }>['op'], HostDeed>;

/** Audit lines per page of /host log. */
/** Audit lines per page of /host log (at most; fewer when they are long). */
export const LOG_PAGE = 12;

/** Discord's limit on a message's content. */
export const CONTENT_LIMIT = 2000;

/**
 * Cuts a text into pieces of at most `max` characters, at a space or line break where one is in
 * the second half of a piece (never inside a surrogate pair); nothing is left out.
 */
export function splitText(text: string, max: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = max;
    const space = Math.max(rest.lastIndexOf(' ', max), rest.lastIndexOf('\n', max));
    if (space >= max / 2) cut = space;
    else if (/[\uD800-\uDBFF]/.test(rest.charAt(cut - 1))) cut--;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^[ \n]/, '');
  }
  out.push(rest);
  return out;
}

/**
 * The log's lines in pages: at most `perPage` lines and `budget` characters (lines joined by line
 * breaks) on a page, every line whole on one page if it fits one, a longer one split over pages.
 * Pages are filled from the first line, so a page's number keeps its lines as the log grows.
 */
export function pageLines(lines: readonly string[], budget: number, perPage = LOG_PAGE): string[][] {
  const pages: string[][] = [];
  let page: string[] = [];
  let used = 0;
  for (const line of lines) {
    for (const piece of splitText(line, budget)) {
      const cost = piece.length + (page.length > 0 ? 1 : 0);
      if (page.length > 0 && (page.length >= perPage || used + cost > budget)) {
        pages.push(page);
        page = [];
        used = 0;
      }
      used += piece.length + (page.length > 0 ? 1 : 0);
      page.push(piece);
    }
  }
  if (page.length > 0) pages.push(page);
  return pages;
}

/** The member behind an interaction, as the host rule needs him (roles from the payload). */
export function memberOf(i: Interaction): Member {
  const m = i.member as { roles?: unknown } | null;
  let roles: string[] = [];
  if (m && Array.isArray(m.roles)) roles = m.roles as string[];
  else if (m && typeof m.roles === 'object' && m.roles !== null) {
    const r = m.roles as { cache?: Map<string, unknown> };
    const raw = (m as { _roles?: unknown })._roles;
    roles = [...(r.cache?.keys() ?? []), ...(Array.isArray(raw) ? (raw as string[]) : [])];
  }
  return { userId: i.user.id, manageGuild: i.memberPermissions?.has(PermissionFlagsBits.ManageGuild) === true, roles };
}

export class HostTools {
  constructor(
    private readonly service: GameService,
    private readonly store: Store,
    private readonly contexts: Contexts,
  ) {}

  /** G-7: the creator (or whoever it was handed to), Manage Server, or the server's host role. */
  async isHost(i: Interaction, game: GameRow): Promise<boolean> {
    return hostRight(memberOf(i), game, (await readSettings(this.store, game.guildId)).hostRole) !== null;
  }

  /**
   * Whether this user sits or sat at the game's table (the seats' current holders, those
   * substituted out, the open lobby): then he sees only what his seat may see.
   */
  plays(game: GameRow, userId: string): Promise<boolean> {
    return playsIn(this.store, game, userId);
  }

  /**
   * Fair hosting: the refusal of `deed` to a host who plays in the game (app/hosts.ts
   * `playingHostMay`), or null. Every host entry point asks this after `isHost`.
   */
  async fairRefusal(i: Interaction, game: GameRow, deed: HostDeed): Promise<RefusalCode | null> {
    const v = await this.fairCheck(i, game, deed);
    return 'code' in v ? v.code : null;
  }

  /**
   * The same, and for a host who plays the stage the answer was given for: his action then
   * carries it (`seq`), so that a stage that moves on meanwhile (a night begins while his skip
   * waits in the game's queue) refuses it as stale.
   */
  async fairCheck(i: Interaction, game: GameRow, deed: HostDeed): Promise<{ code: RefusalCode } | { seq?: number }> {
    const fresh = (await this.store.getGame(game.id)) ?? game;
    if (!(await this.plays(fresh, i.user.id))) return {};
    const state = fresh.status === 'lobby' ? null : await this.service.state(game.id);
    const v = playingHostMay(deed, { status: fresh.status, stage: state?.stage.kind ?? null });
    if (!v.ok) return { code: v.code };
    return state && PLAYING_HOST[deed] === 'talk' ? { seq: state.seq } : {};
  }

  /** The game a host command is about: `game:` (of this server), else the channel's game; or a refusal code. */
  async resolve(i: ChatInputCommandInteraction, sub: string): Promise<GameRow | RefusalCode> {
    const id = i.options.getInteger('game');
    if (id !== null) {
      const g = await this.store.getGame(id);
      return g && g.guildId === i.guildId ? g : 'game/other-server';
    }
    const active = (await this.store.activeGamesInChannel(i.channelId))[0];
    if (active) return active;
    const finishedOk = (FINISHED_OK as readonly string[]).includes(sub);
    if (finishedOk) return (await this.store.latestGameInChannel(i.channelId)) ?? 'game/none-here';
    return 'game/none-here';
  }

  private refuse(i: Replyable, loc: Locale, code: RefusalCode): Promise<void> {
    return refuse(i, refusalText(loc, code));
  }

  private answer(i: Replyable, loc: Locale, r: { ok: true } | { ok: false; code: RefusalCode }): Promise<void> {
    return r.ok ? say(i, t(loc, 'host.done')) : this.refuse(i, loc, r.code);
  }

  /**
   * A toolkit subcommand, after the caller checked that the user hosts `game`. Returns false
   * when `sub` is not one of this module's.
   */
  async command(
    i: ChatInputCommandInteraction,
    loc: Locale,
    sub: string,
    game: GameRow,
    actor: ActorId,
    reason: string | null,
    at: { seq?: number } = {},
  ): Promise<boolean> {
    if (!isToolkitSubcommand(sub)) return false;
    const why = reason ? { reason } : {};
    switch (sub) {
      case 'log':
        await this.log(i, loc, game, 0, false);
        return true;
      case 'annul': {
        // Who may annul and how long after the end (app/hosts.ts ANNUL_WINDOW).
        const settings = await readSettings(this.store, game.guildId);
        const ended = game.finishedAt ?? (game.status === 'over' || game.status === 'archived' ? game.updatedAt : null);
        const may = mayAnnul(
          memberOf(i),
          { hostId: game.hostId, ended },
          settings.hostRole,
          await this.plays(game, i.user.id),
          this.service.now(),
        );
        if (!may.ok) await this.refuse(i, loc, may.code);
        else await this.answer(i, loc, await this.service.annul(game.id, actor, reason));
        return true;
      }
      case 'transfer': {
        const user = i.options.getUser('member', true);
        if (user.bot) await this.refuse(i, loc, 'transfer/bot');
        else await this.answer(i, loc, await this.service.transfer(game.id, user.id, actor, reason));
        return true;
      }
    }
    if (game.status === 'lobby') {
      await this.refuse(i, loc, 'game/not-started');
      return true;
    }
    switch (sub) {
      case 'panel':
        await this.panel(i, loc, game);
        return true;
      case 'undo':
        await this.answer(i, loc, await this.service.undo(game.id, actor, reason));
        return true;
      case 'pause':
        await this.answer(i, loc, await this.service.dispatch(game.id, { kind: 'host-pause', ...why }, actor, reason));
        return true;
      case 'resume':
        await this.answer(i, loc, await this.service.dispatch(game.id, { kind: 'host-resume', ...why }, actor, reason));
        return true;
      case 'extend': {
        const raw = i.options.getString('duration', true);
        const seconds = parseSignedDuration(raw);
        if (seconds === null || seconds === 0 || Math.abs(seconds) > MAX_EXTEND_SECONDS)
          await this.refuse(i, loc, 'extend/bad-duration');
        else
          await this.answer(
            i,
            loc,
            await this.service.dispatch(game.id, { kind: 'host-extend', seconds, ...why, ...at }, actor, reason),
          );
        return true;
      }
      case 'revive': {
        const seat = i.options.getInteger('seat', true);
        await this.answer(
          i,
          loc,
          await this.service.dispatch(game.id, { kind: 'host-revive', target: seat, ...why }, actor, reason),
        );
        return true;
      }
      default: {
        const unhandled: never = sub; // a new toolkit subcommand needs its case here
        return unhandled;
      }
    }
  }

  /** The host panel, only to a host who does not play (he would see what his seat may not). */
  private async panel(i: Replyable, loc: Locale, game: GameRow): Promise<void> {
    const unfair = await this.fairRefusal(i, game, 'panel');
    if (unfair) return this.refuse(i, loc, unfair);
    const payload = await this.panelPayload(game, loc);
    if (!payload) return this.refuse(i, loc, 'game/not-started');
    await i.reply({ ...toReply(payload), flags: MessageFlags.Ephemeral });
  }

  private async panelPayload(game: GameRow, loc: Locale): Promise<Payload | null> {
    const ctx = await this.contexts.fromRow((await this.store.getGame(game.id)) ?? game);
    const s = ctx.state;
    if (!s) return null;
    const d = await this.contexts.deadline(game.id);
    const shown = s.deadline === null ? null : d && d.stageSeq === s.seq ? Math.max(d.dueAt, s.deadline) : s.deadline;
    return hostPanel(ctx, loc, shown);
  }

  /** A click on the host panel or on a page of the log: the clicking user must host the game. */
  async component(i: Component, loc: Locale, game: GameRow, id: Extract<CustomId, { kind: 'host' }>): Promise<void> {
    if (!i.inGuild() || i.guildId !== game.guildId) return this.refuse(i, loc, 'input/forged');
    if (!(await this.isHost(i, game))) return this.refuse(i, loc, 'host/not-host');
    if (id.op === 'log') {
      // The panel's button opens the log; the log's own buttons turn its pages.
      if (id.page === undefined) return this.log(i, loc, game, 0, false);
      return this.log(i, loc, game, id.page, true);
    }
    // The panel shows the night; each button is also a deed of its own (a panel left open before
    // its user took a seat, or a forged click, is refused here).
    for (const deed of ['panel', PANEL_DEED[id.op]] as const) {
      const unfair = await this.fairRefusal(i, game, deed);
      if (unfair) return this.refuse(i, loc, unfair);
    }
    const actor = `host:${i.user.id}` as const;
    const state = await this.service.state(game.id);
    if (id.op !== 'refresh') {
      if (!state || (game.status !== 'running' && game.status !== 'post-game'))
        return this.refuse(i, loc, 'game/not-running');
      // An override is for the stage the panel showed; a panel left open may be out of date.
      if (id.seq !== state.seq) return this.refuse(i, loc, 'stage/stale');
      let r: DispatchResult;
      const seq = state.seq;
      const act = (a: Action) => this.service.dispatch(game.id, a, actor, null);
      switch (id.op) {
        case 'pause':
          r = await act({ kind: 'host-pause', seq });
          break;
        case 'resume':
          r = await act({ kind: 'host-resume', seq });
          break;
        case 'skip':
          r = await act({ kind: 'host-skip', seq });
          break;
        case 'more':
          r = await act({ kind: 'host-extend', seconds: 60, seq });
          break;
        case 'less':
          r = await act({ kind: 'host-extend', seconds: -30, seq });
          break;
        case 'undo':
          r = await this.service.undo(game.id, actor, null);
          break;
      }
      if (!r.ok) return this.refuse(i, loc, r.code);
    }
    const fresh = (await this.store.getGame(game.id)) ?? game;
    const payload = await this.panelPayload(fresh, loc);
    if (!payload) return this.refuse(i, loc, 'game/not-started');
    await i.update(toReply(payload));
  }

  /** /host log: the audit trail in words (who, when, what, why), a page at a time. */
  async log(i: Replyable, loc: Locale, game: GameRow, page: number, update: boolean): Promise<void> {
    const rows = await this.store.auditLog(game.id);
    const fresh = (await this.store.getGame(game.id)) ?? game;
    // While the game runs, a host who plays is not told what a taken-back night action was.
    const secretsOk =
      !(await this.plays(fresh, i.user.id)) || ['over', 'archived', 'cancelled', 'expired'].includes(fresh.status);
    const lines = rows.map((r) => auditText(loc, r, secretsOk));
    const head = [
      t(loc, 'host.logTitle', { id: game.id }),
      ...(fresh.annulledAt !== null ? [t(loc, 'host.logAnnulled')] : []),
    ];
    const footOf = (page: number, pages: number) => `-# ${t(loc, 'host.logPage', { page, pages })}`;
    // Room for the lines: the page less its title and the widest footer (page numbers up to 4 digits,
    // as the buttons carry them), each with its line break. Nothing is cut off: a page holds fewer
    // lines when they are long, and a line longer than a page goes on over the next.
    const room = CONTENT_LIMIT - head.join('\n').length - footOf(9999, 9999).length - 2;
    const paged = lines.length === 0 ? [[t(loc, 'host.logEmpty')]] : pageLines(lines, room);
    const pages = paged.length;
    const p = Math.min(Math.max(0, page), pages - 1);
    const foot = pages > 1 ? [footOf(p + 1, pages)] : [];
    const content = [...head, ...paged[p]!, ...foot].join('\n');
    const components =
      pages > 1
        ? [
            row(
              button(
                { kind: 'host', game: game.id, seq: 0, op: 'log', page: Math.max(0, p - 1) },
                t(loc, 'button.prev'),
                ButtonStyle.Secondary,
                p === 0,
              ),
              button(
                { kind: 'host', game: game.id, seq: 1, op: 'log', page: Math.min(pages - 1, p + 1) },
                t(loc, 'button.next'),
                ButtonStyle.Secondary,
                p === pages - 1,
              ),
            ),
          ]
        : [];
    const payload = { content, components, allowedMentions: { parse: [] as [] } };
    if (update && !i.isChatInputCommand()) await (i as Component).update(payload);
    else if (i.deferred || i.replied) await i.followUp({ ...payload, flags: MessageFlags.Ephemeral });
    else await i.reply({ ...payload, flags: MessageFlags.Ephemeral });
  }
}
