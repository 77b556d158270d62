// The lobby's buttons: Join, Leave, Cancel, Start and "Start anyway" (players whose DMs are closed
// play through the channel's private buttons). The answer to a click is the lobby itself.
import { MessageFlags } from 'discord.js';
import { joinRefusal } from '../../app/conduct';
import type { Dealer } from '../../app/dealer';
import type { GameService } from '../../app/game-service';
import type { GameRow } from '../../db/store';
import type { Deliverer, DeliveryLogger } from '../../delivery/deliverer';
import { RULESETS } from '../../engine/rulesets';
import { t, type Locale } from '../../i18n';
import type { ClickAnswers } from '../click-answers';
import { dmCheckPayload, unreachablePlayers } from '../dm-check';
import { conductRefusalText } from '../conduct';
import { uiOf } from '../context';
import type { LobbyOp } from '../custom-id';
import type { HostTools } from '../host-tools';
import { refusalText } from '../render/words';
import { refuse, type Component } from '../reply';

export class LobbyButtons {
  /** Lobbies whose host pressed Start and whose deal is on its way (the DM checks). */
  private readonly starting = new Set<number>();

  constructor(
    private readonly service: GameService,
    private readonly deliverer: Deliverer,
    private readonly tools: HostTools,
    private readonly answers: ClickAnswers,
    private readonly log: DeliveryLogger,
    private readonly dealer: Dealer,
  ) {}

  async click(i: Component, loc: Locale, game: GameRow, op: LobbyOp): Promise<void> {
    if (!i.inGuild()) return refuse(i, t(loc, 'refusal.input/forged'));
    switch (op) {
      case 'join':
        return this.join(i, loc, game);
      case 'leave': {
        const userId = i.user.id;
        const r = await this.service.updateLobby(game.id, (l) =>
          l.members.includes(userId)
            ? {
                ...l,
                members: l.members.filter((m) => m !== userId),
                fallback: (l.fallback ?? []).filter((m) => m !== userId),
                unreachable: (l.unreachable ?? []).filter((m) => m !== userId),
              }
            : 'lobby/not-joined',
        );
        if (!r.ok) return this.answers.refuseShowing(i, game.id, 'lobby', refusalText(loc, r.code));
        return void (await this.answers.showSlot(i, game.id, 'lobby'));
      }
      case 'cancel': {
        if (!(await this.tools.isHost(i, game))) return refuse(i, t(loc, 'refusal.host/not-host'));
        // Fair hosting: a host who plays may cancel the lobby, not a started game (a forged click).
        const unfair = await this.tools.fairRefusal(i, game, 'cancel');
        if (unfair) return refuse(i, refusalText(loc, unfair));
        const r = await this.service.cancel(game.id, `host:${i.user.id}`, null);
        if (!r.ok) return refuse(i, refusalText(loc, r.code));
        return void (await this.answers.showSlot(i, game.id, 'lobby'));
      }
      case 'start':
      case 'fallback':
        return this.start(i, loc, game, op);
    }
  }

  private async join(i: Component, loc: Locale, game: GameRow): Promise<void> {
    const need = RULESETS[game.ruleset].players;
    const userId = i.user.id;
    const member = i.member && 'displayName' in i.member ? i.member.displayName : null;
    const name = (member ?? i.user.displayName ?? i.user.username).slice(0, 60);
    // Issue 24: a member the server banned joins no game, one paused no rated game; he alone is told
    // why and until when (the lobby shows nothing of it).
    if (!game.lobby.members.includes(userId)) {
      const barred = await joinRefusal(this.service.store, game.guildId, userId, game.rated, this.service.now());
      if (barred) return this.answers.refuseShowing(i, game.id, 'lobby', conductRefusalText(loc, barred));
    }
    const r = await this.service.updateLobby(game.id, (l) => {
      if (l.members.includes(userId)) return 'lobby/already-joined';
      if (l.members.length >= need) return 'lobby/full';
      return {
        ...l,
        members: [...l.members, userId],
        names: { ...l.names, [userId]: name },
        locales: { ...l.locales, [userId]: i.locale },
      };
    });
    // The lobby itself shows who joined (and that Start is ready): no reply to read.
    if (!r.ok) return this.answers.refuseShowing(i, game.id, 'lobby', refusalText(loc, r.code));
    // His DMs are checked now, while the lobby fills, not all at once when the host starts:
    // Start then deals at once, and a player whose DMs are closed is named in the lobby early.
    void this.checkDmOnJoin(r.game, userId, uiOf(game).locale ?? loc);
    return void (await this.answers.showSlot(i, game.id, 'lobby'));
  }

  private async start(i: Component, loc: Locale, game: GameRow, op: 'start' | 'fallback'): Promise<void> {
    const need = RULESETS[game.ruleset].players;
    if (!(await this.tools.isHost(i, game))) return refuse(i, t(loc, 'refusal.host/not-host'));
    if (game.status !== 'lobby') return refuse(i, refusalText(loc, 'lobby/closed'));
    const count = game.lobby.members.length;
    if (count !== need) return refuse(i, t(loc, 'refusal.lobby/not-full', { count, need }));
    // Pressed again while the first press checks the players' DMs: nothing more to do.
    if (this.starting.has(game.id)) return i.deferUpdate().then(() => undefined);
    // The answer to Start is the lobby itself (free to update); the host is told in private only
    // what he must act on.
    await i.deferUpdate();
    this.starting.add(game.id);
    try {
      const ctxLoc = uiOf(game).locale ?? loc;
      // Before dealing: can the bot DM every player? Checked concurrently; the host may let those it
      // cannot reach play through the channel's ephemeral buttons.
      const fallback = new Set(
        op === 'fallback' ? [...(game.lobby.fallback ?? []), ...(game.lobby.unreachable ?? [])] : [],
      );
      const unreachable = await unreachablePlayers(
        this.deliverer,
        game,
        game.lobby.members.filter((u) => !fallback.has(u)),
        ctxLoc,
        this.service.now(),
      );
      if (unreachable.length > 0 && op === 'start') {
        await this.service.updateLobby(game.id, (l) => ({ ...l, unreachable }));
        await this.answers.editSlot(i, game.id, 'lobby');
        const users = unreachable.map((u) => `<@${u}>`).join(', ');
        const content = t(loc, 'lobby.unreachableHost', { users });
        await i.followUp({ content, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
        return;
      }
      const fb = [...new Set([...fallback, ...unreachable])];
      await this.service.updateLobby(game.id, (l) => ({ ...l, fallback: fb, unreachable: [] }));
      const deal = this.dealer(game.lobby.members, game.ruleset);
      const r = await this.service.start(game.id, deal.seats, deal.roles);
      const flush = r.ok ? await this.answers.claimPosts(i) : null;
      try {
        if (r.ok) await this.answers.editSlot(i, game.id, 'lobby');
        else await i.followUp({ content: refusalText(loc, r.code), flags: MessageFlags.Ephemeral });
      } finally {
        await flush?.();
      }
    } finally {
      this.starting.delete(game.id);
    }
  }

  /** A player's DM check when he joins, while the lobby fills (one the bot cannot reach is named in it). */
  private async checkDmOnJoin(game: GameRow, userId: string, fallbackLoc: Locale): Promise<void> {
    try {
      const ok = await this.deliverer.probeDm(userId, dmCheckPayload(game, userId, fallbackLoc));
      if (ok) return;
      await this.service.updateLobby(game.id, (l) =>
        l.members.includes(userId) && !(l.unreachable ?? []).includes(userId)
          ? { ...l, unreachable: [...(l.unreachable ?? []), userId] }
          : 'lobby/unchanged',
      );
    } catch (e) {
      this.log.warn(`lobby ${game.id}: DM check of ${userId} failed (${(e as Error).message})`);
    }
  }
}
