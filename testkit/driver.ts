// Plays scenario steps through Discord as users would: buttons, menus, DMs and host commands.
// A step counts as refused when the user cannot find the control or the bot says no.
import type { ScenarioStep } from '../src/scenario/parse';
import type { InteractionResult, StoredMessage } from './fake-discord';
import type { SlashOptionValue } from './fake-discord/interactions';
import { allComponents } from './fake-discord';
import type { World } from './world';

export type StepOutcome = 'ok' | 'refused';

const refusal = (m: StoredMessage | undefined): boolean => (m?.content ?? '').trimStart().startsWith('⛔');

/**
 * Accepted: the bot answered by updating the message the click came from (callback 7, or 6 then
 * an edit), or with a private confirmation. Refusals are private: a reply, or a follow-up after
 * the click was acknowledged (a click acknowledged before its work, issue 22).
 */
const ok = (r: InteractionResult | undefined): boolean => {
  if (!r) return false;
  if (r.followups().some(refusal)) return false;
  if (r.type === 7 || r.type === 6) return true;
  return (r.content ?? r.message?.content ?? '').trimStart().startsWith('✅');
};

/** The private message a click opened: its reply, or its first follow-up when it was acknowledged first. */
const opened = (r: InteractionResult): StoredMessage | null =>
  r.type === 6 || r.type === 7 ? (r.followups().find((m) => m.ephemeralFor) ?? null) : (r.message ?? null);

export class Driver {
  gameId = 0;
  /** Seat -> user, when the deal is not in join order (learned from the role cards). */
  seats = new Map<number, string>();
  /** Users who act from the channel's private panel ("My actions") even when their DMs work. */
  readonly panelUsers = new Set<string>();
  constructor(readonly w: World) {}

  /** Until the click's work is done and its answer given (a deferred one comes after the work). */
  async answered(r: InteractionResult): Promise<void> {
    if (r.type === 6) await this.w.bot.idle();
    else await r.settled();
  }

  userOf(seat: number): string {
    return this.seats.get(seat) ?? this.w.users[seat - 1]!.id;
  }

  /** Reads every player's role card (DM) as the player would: role and seat. */
  learnSeats(): Map<number, { userId: string; role: string }> {
    const out = new Map<number, { userId: string; role: string }>();
    for (const u of this.w.users) {
      const card = this.w.fake.dms(u.id).find((m) => / — seat \d+$/.test(m.embeds[0]?.title ?? ''));
      const m = / ?(.+) — seat (\d+)$/.exec(card?.embeds[0]?.title ?? '');
      if (!m) throw new Error(`no role card for ${u.username}`);
      out.set(Number(m[2]), { userId: u.id, role: m[1]!.toLowerCase() });
      this.seats.set(Number(m[2]), u.id);
    }
    return out;
  }

  async slash(
    userId: string,
    name: string,
    sub: string,
    options: Record<string, SlashOptionValue> = {},
    group?: string,
  ): Promise<InteractionResult> {
    const r = await this.w.fake.slash(userId, this.w.channel.id, name, { sub, options, ...(group ? { group } : {}) });
    await r.settled();
    await this.w.bot.idle();
    return r;
  }

  async createAndStart(
    ruleset: string,
    pace = 'live',
    extra: Record<string, string | number | boolean> = {},
  ): Promise<void> {
    const r = await this.slash(this.w.host.id, 'mafia', 'create', { ruleset, pace, ...extra });
    const m = /#(\d+)/.exec(r.content ?? ''); // Game #12 (Гру #12, Игра #12)
    if (!m) throw new Error(`create failed: ${r.content}`);
    this.gameId = Number(m[1]);
    const lobby = this.lobbyMessage();
    for (const u of this.w.users) {
      const j = await this.w.fake.click(u.id, lobby, `v1:l:${this.gameId}:join`);
      if (!ok(j)) throw new Error(`join failed: ${j.content}`);
    }
    await this.w.bot.idle();
    const s = await this.w.fake.click(this.w.host.id, this.lobbyMessage(), `v1:l:${this.gameId}:start`);
    await s.settled();
    await this.w.bot.idle();
  }

  lobbyMessageOrNull(): StoredMessage | null {
    return (
      this.w.fake
        .publicMessages(this.w.channel.id)
        .find((x) => allComponents(x).some((c) => c.custom_id === `v1:l:${this.gameId}:join`)) ?? null
    );
  }

  tableMessageOrNull(): StoredMessage | null {
    return this.publicWith((id) => id === `v1:p:${this.gameId}:actions`)?.message ?? null;
  }

  lobbyMessage(): StoredMessage {
    const m = this.w.fake
      .publicMessages(this.w.channel.id)
      .find((x) => allComponents(x).some((c) => c.custom_id === `v1:l:${this.gameId}:join`));
    if (!m) throw new Error('no lobby message');
    return m;
  }

  /** The newest public message with an enabled component whose id matches. */
  publicWith(pred: (id: string) => boolean): { message: StoredMessage; id: string } | null {
    const msgs = this.w.fake.publicMessages(this.w.channel.id);
    for (let i = msgs.length - 1; i >= 0; i--) {
      const c = allComponents(msgs[i]!).find((x) => x.custom_id && !x.disabled && pred(x.custom_id));
      if (c) return { message: msgs[i]!, id: c.custom_id! };
    }
    return null;
  }

  /** The newest DM with an enabled component whose id matches. */
  dmWith(userId: string, pred: (id: string) => boolean): { message: StoredMessage; id: string } | null {
    const msgs = this.w.fake.dms(userId);
    for (let i = msgs.length - 1; i >= 0; i--) {
      const c = allComponents(msgs[i]!).find((x) => x.custom_id && !x.disabled && pred(x.custom_id));
      if (c) return { message: msgs[i]!, id: c.custom_id! };
    }
    return null;
  }

  tableMessage(): StoredMessage {
    const m = this.publicWith((id) => id === `v1:p:${this.gameId}:actions`);
    if (!m) throw new Error('no table');
    return m.message;
  }

  /** The "My actions" panel (ephemeral), for players acting from the channel. */
  async panel(userId: string): Promise<StoredMessage | null> {
    const r = await this.w.fake.click(userId, this.tableMessage(), `v1:p:${this.gameId}:actions`);
    await this.answered(r);
    return opened(r);
  }

  private verbMatch(verb: string, arg?: string) {
    return (id: string) => {
      const parts = id.split(':');
      return (
        parts[0] === 'v1' &&
        parts[1] === 'a' &&
        parts[2] === String(this.gameId) &&
        parts[4] === verb &&
        (arg === undefined || parts[5] === arg)
      );
    };
  }

  private async pickAndSelect(
    userId: string,
    where: { message: StoredMessage; id: string } | null,
    values: string[],
    click = false,
  ): Promise<StepOutcome> {
    if (!where) return 'refused';
    const r = click
      ? await this.w.fake.click(userId, where.message, where.id)
      : await this.w.fake.select(userId, where.message, where.id, values);
    await this.answered(r);
    await this.w.bot.idle();
    return ok(r) ? 'ok' : 'refused';
  }

  /** A private action: from the player's DM prompt, else from the "My actions" panel. */
  private async privateAct(userId: string, verb: string, values: string[], click = false): Promise<StepOutcome> {
    const match = this.verbMatch(verb);
    let where = this.panelUsers.has(userId) ? null : this.dmWith(userId, match);
    if (!where) {
      const p = await this.panel(userId);
      const c = p ? allComponents(p).find((x) => x.custom_id && !x.disabled && match(x.custom_id)) : undefined;
      where = p && c ? { message: p, id: c.custom_id! } : null;
    }
    if (!where) return 'refused';
    const option = allComponents(where.message).find((c) => c.custom_id === where!.id);
    if (!click && option?.options && values.some((v) => !option.options!.some((o) => o.value === v))) return 'refused';
    return this.pickAndSelect(userId, where, values, click);
  }

  /** Opens an ephemeral menu from a public button (nominate, best move, take) and picks. */
  private async menuAct(userId: string, verb: string, values: string[]): Promise<StepOutcome> {
    const where = this.publicWith(this.verbMatch('menu', verb));
    if (!where) return 'refused';
    const r = await this.w.fake.click(userId, where.message, where.id);
    await this.answered(r);
    const menu = opened(r);
    const c = menu ? allComponents(menu).find((x) => x.custom_id && this.verbMatch(verb)(x.custom_id)) : undefined;
    if (!menu || !c) return 'refused';
    if (values.some((v) => !c.options?.some((o) => o.value === v))) return 'refused';
    // A menu takes only as many picks as it allows (a user cannot pick four in a 2..3 menu).
    if (values.length < (c.min_values ?? 1) || values.length > (c.max_values ?? 1)) return 'refused';
    return this.pickAndSelect(userId, { message: menu, id: c.custom_id! }, values);
  }

  async step(step: ScenarioStep): Promise<StepOutcome> {
    if (step.type === 'timeout') return this.host('skip', {});
    if (step.type === 'host') {
      const opts: Record<string, string | number> = {};
      if (step.target !== undefined) opts.seat = step.target;
      if (step.count !== undefined) opts.count = step.count;
      if (step.points !== undefined) opts.points = step.points;
      if (step.winner !== undefined) opts.winner = step.winner;
      return this.host(step.verb, opts);
    }
    const u = this.userOf(step.seat);
    const target = step.target === undefined ? [] : [String(step.target)];
    switch (step.verb) {
      case 'pass': {
        const where = this.publicWith(this.verbMatch('pass'));
        return this.pickAndSelect(u, where, [], true);
      }
      case 'nominate': {
        // In a live turn the speaker nominates from his turn's own message; in an open window
        // through the Nominate button's private menu.
        const inline = this.publicWith(this.verbMatch('nominate'));
        if (inline && !this.publicWith(this.verbMatch('menu', 'nominate'))) {
          const option = allComponents(inline.message).find((c) => c.custom_id === inline.id);
          if (target.some((v) => !option?.options?.some((o) => o.value === v))) return 'refused';
          return this.pickAndSelect(u, inline, target);
        }
        return this.menuAct(u, 'nominate', target);
      }
      case 'guess':
        return this.menuAct(u, 'guess', (step.targets ?? []).map(String));
      case 'take':
        return this.menuAct(u, 'take', target);
      case 'vote':
        return this.pickAndSelect(u, this.publicWith(this.verbMatch('vote', String(step.target))), [], true);
      case 'voteAll':
        return this.pickAndSelect(u, this.publicWith(this.verbMatch('voteAll', step.choice ? 'y' : 'n')), [], true);
      case 'best':
        return this.pickAndSelect(u, this.publicWith(this.verbMatch('best')), target);
      case 'check':
        return this.privateAct(u, step.note ? 'checkNote' : 'check', target);
      case 'askDon':
      case 'skip':
        return this.privateAct(u, step.verb, [], true);
      default:
        return this.privateAct(u, step.verb, target);
    }
  }

  async host(sub: string, options: Record<string, string | number>): Promise<StepOutcome> {
    const r = await this.slash(this.w.host.id, 'host', sub, options);
    return /^(Done|Готово)\.?$/.test((r.content ?? '').trim()) ? 'ok' : 'refused'; // en, uk/ru
  }
}

/** A message's text as a reader sees it: its content and every embed's title, description, footer and fields. */
export const messageText = (m: StoredMessage | undefined): string =>
  [
    m?.content ?? '',
    ...(m?.embeds ?? []).flatMap((e) => [
      e.title ?? '',
      e.description ?? '',
      e.footer?.text ?? '',
      ...(e.fields ?? []).flatMap((f) => [f.name, f.value]),
    ]),
  ].join('\n');
