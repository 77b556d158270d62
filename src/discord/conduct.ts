// `/mafia conduct …` (issue 24): a member's record (he sees his own, hosts anyone's), and the
// hosts' decisions: bar a member from the server's games or let him play again, pause him from
// rated games or end his pause, the list of those barred and the log of these decisions. Every
// answer is private; the server's log (`server_audit`) keeps each decision with who, when and why.
// Hosts here are the server's: Manage Server or the host role (a game's creator is no host of
// other members' conduct).
import type {
  SlashCommandStringOption,
  SlashCommandSubcommandGroupBuilder,
  SlashCommandUserOption,
} from '@discordjs/builders';
import type { ChatInputCommandInteraction, User } from 'discord.js';
import {
  conductBar,
  currentBans,
  DAY_MS,
  FACT_KINDS,
  hostsServer,
  memberStanding,
  REASON_MAX,
  type ConductRefusal,
  type ConductSettings,
  type FactKind,
} from '../app/conduct';
import { readSettings } from '../app/settings';
import { ConductStore, type ConductFact, type ServerAuditRow } from '../db/conduct-store';
import type { Store } from '../db/store';
import { t, type Locale, type MessageKey } from '../i18n';
import { loc } from './commands/builder';
import { memberOf } from './host-tools';
import { durationText, refusalText } from './render/words';
import { refuse, say } from './reply';

/** How many facts and decisions a record shows (the newest). */
const SHOWN = 15;

const ts = (ms: number, style: 'f' | 'R' | 'D' | 'd') => `<t:${Math.floor(ms / 1000)}:${style}>`;

/** A reason as given, on one line, cut to its limit (empty: none). */
export function cleanReason(raw: string | null): string | null {
  const s = (raw ?? '').replace(/\s+/g, ' ').trim().slice(0, REASON_MAX);
  return s === '' ? null : s;
}

/** The refusal of a join or a seat, with what the member himself may know: the reason, until when. */
export function conductRefusalText(loc: Locale, r: ConductRefusal): string {
  const lines = [refusalText(loc, r.code)];
  if (r.reason) lines.push(t(loc, 'conduct.reasonLine', { reason: r.reason }));
  if (r.until !== undefined)
    lines.push(t(loc, 'conduct.untilLine', { when: `${ts(r.until, 'f')} (${ts(r.until, 'R')})` }));
  lines.push(t(loc, 'conduct.seeRecord'));
  return lines.join('\n');
}

/** "3 absences or 5 fouls" of the thresholds set (null: none is). */
function thresholdsWhat(loc: Locale, s: ConductSettings): string | null {
  const key = { absence: 'absences', foul: 'fouls', removal: 'removals', abandoned: 'abandoned' } as const;
  const parts = FACT_KINDS.filter((k) => s[key[k]] > 0).map((k) =>
    t(loc, `conduct.kind.${k}` as MessageKey, { count: s[key[k]] }),
  );
  return parts.length > 0 && s.pause > 0 ? parts.join(t(loc, 'settings.conductOr')) : null;
}

/** The thresholds as the settings embed shows them. */
export function conductSettingText(loc: Locale, s: ConductSettings): string {
  const what = thresholdsWhat(loc, s);
  if (!what) return t(loc, 'settings.conductOff');
  return t(loc, 'settings.conductValue', {
    what,
    pause: durationText(loc, s.pause * 86_400),
    days: durationText(loc, s.days * 86_400),
  });
}

function factText(loc: Locale, f: ConductFact): string {
  const params = { game: f.gameId ?? '?', count: f.count };
  return `${ts(f.at, 'd')} ${t(loc, `conduct.fact.${f.kind}` as MessageKey, params)}`;
}

function decisionText(loc: Locale, r: ServerAuditRow, showActor: boolean): string {
  const member = `<@${r.userId}>`;
  const params = { member, game: r.gameId ?? '?', until: r.until !== null ? ts(r.until, 'f') : '?' };
  const who = showActor && r.actorId.startsWith('host:') ? ` <@${r.actorId.slice(5)}>:` : '';
  const why = r.reason ? ` — ${t(loc, 'conduct.reasonLine', { reason: r.reason })}` : '';
  return `${ts(r.at, 'd')}${who} ${t(loc, `conduct.log.${r.action}` as MessageKey, params)}${why}`;
}

/** A member's record in words (pure: tested without Discord). `host`: the reader hosts (sees who decided). */
export function recordText(
  loc: Locale,
  userId: string,
  st: Awaited<ReturnType<typeof memberStanding>>,
  now: number,
  host: boolean,
): string {
  const lines = [`**${t(loc, 'conduct.title', { member: `<@${userId}>` })}**`];
  if (st.ban) {
    lines.push(t(loc, 'conduct.banned', { when: ts(st.ban.at, 'D') }));
    if (st.ban.reason) lines.push(t(loc, 'conduct.reasonLine', { reason: st.ban.reason }));
  }
  if (st.pause) {
    lines.push(t(loc, 'conduct.paused', { when: ts(st.pause.until, 'f'), left: ts(st.pause.until, 'R') }));
    const cause = t(loc, `conduct.pausedBy.${st.pause.by}` as MessageKey);
    lines.push(t(loc, 'conduct.cause', { cause: st.pause.reason ? `${cause} — ${st.pause.reason}` : cause }));
  }
  if (!st.ban && !st.pause) lines.push(t(loc, 'conduct.good'));
  // The counts of the server's window (a year when it sets no threshold).
  const what = thresholdsWhat(loc, st.settings);
  const since = what ? now - st.settings.days * DAY_MS : now - 365 * DAY_MS;
  const sums = new Map<FactKind, number>();
  for (const f of st.facts) if (f.at >= since) sums.set(f.kind, (sums.get(f.kind) ?? 0) + f.count);
  const counts = FACT_KINDS.filter((k) => (sums.get(k) ?? 0) > 0).map((k) =>
    t(loc, `conduct.kind.${k}` as MessageKey, { count: sums.get(k)! }),
  );
  const window = what ? t(loc, 'conduct.window', { count: st.settings.days }) : t(loc, 'conduct.year');
  lines.push('', `**${window}:** ${counts.length > 0 ? counts.join(', ') : t(loc, 'conduct.nothing')}`);
  if (what)
    lines.push(
      t(loc, 'conduct.thresholds', {
        what,
        pause: durationText(loc, st.settings.pause * 86_400),
        days: durationText(loc, st.settings.days * 86_400),
      }),
    );
  const facts = [...st.facts].reverse();
  lines.push('', `**${t(loc, 'conduct.facts')}**`);
  if (facts.length === 0) lines.push(t(loc, 'conduct.noFacts'));
  for (const f of facts.slice(0, SHOWN)) lines.push(`- ${factText(loc, f)}`);
  if (facts.length > SHOWN) lines.push(t(loc, 'conduct.more', { count: facts.length - SHOWN }));
  const decisions = st.rows.filter((r) => r.action !== 'absent').reverse();
  if (decisions.length > 0) {
    lines.push('', `**${t(loc, 'conduct.decisions')}**`);
    for (const r of decisions.slice(0, SHOWN)) lines.push(`- ${decisionText(loc, r, host)}`);
    if (decisions.length > SHOWN) lines.push(t(loc, 'conduct.more', { count: decisions.length - SHOWN }));
  }
  return lines.join('\n').slice(0, 2000);
}

export class ConductCommand {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  private get log(): ConductStore {
    return ConductStore.of(this.store.c);
  }

  async run(i: ChatInputCommandInteraction, loc: Locale, sub: string): Promise<void> {
    const guildId = i.guildId!;
    const settings = await readSettings(this.store, guildId);
    const host = hostsServer(memberOf(i), settings.hostRole);
    if (sub === 'record') {
      const user = i.options.getUser('member') ?? i.user;
      if (user.id !== i.user.id && !host) return refuse(i, refusalText(loc, 'conduct/permission'));
      if (user.bot) return refuse(i, refusalText(loc, 'conduct/bot'));
      const now = this.now();
      return say(i, recordText(loc, user.id, await memberStanding(this.store, guildId, user.id, now), now, host));
    }
    if (!host) return refuse(i, refusalText(loc, 'conduct/permission'));
    if (sub === 'bans') return this.bans(i, loc, guildId);
    const user = i.options.getUser('member', true);
    if (user.bot) return refuse(i, refusalText(loc, 'conduct/bot'));
    const reason = cleanReason(i.options.getString('reason'));
    switch (sub) {
      case 'ban':
      case 'unban':
        return this.ban(i, loc, guildId, user, reason, sub);
      case 'pause':
        return this.pause(i, loc, guildId, user, reason, i.options.getInteger('days', true));
      case 'lift':
        return this.lift(i, loc, guildId, user, reason);
      default:
        return refuse(i, t(loc, 'refusal.input/unknown'));
    }
  }

  private async ban(
    i: ChatInputCommandInteraction,
    loc: Locale,
    guildId: string,
    user: User,
    reason: string | null,
    action: 'ban' | 'unban',
  ): Promise<void> {
    // Read and written in one transaction: two hosts at once write one ban.
    const done = await this.store.transaction(async () => {
      const now = this.now();
      const st = await memberStanding(this.store, guildId, user.id, now);
      if (action === 'ban' && st.ban) return 'conduct/already-banned' as const;
      if (action === 'unban' && !st.ban) return 'conduct/not-banned' as const;
      await this.log.add({ guildId, at: now, actorId: `host:${i.user.id}`, action, userId: user.id, reason });
      return null;
    });
    if (done) return refuse(i, refusalText(loc, done));
    await say(i, t(loc, `conduct.done.${action}`, { member: `<@${user.id}>` }));
  }

  private async pause(
    i: ChatInputCommandInteraction,
    loc: Locale,
    guildId: string,
    user: User,
    reason: string | null,
    days: number,
  ): Promise<void> {
    const now = this.now();
    const until = now + Math.min(365, Math.max(1, days)) * DAY_MS;
    await this.log.add({
      guildId,
      at: now,
      actorId: `host:${i.user.id}`,
      action: 'pause',
      userId: user.id,
      until,
      reason,
    });
    await say(
      i,
      t(loc, 'conduct.done.pause', { member: `<@${user.id}>`, when: `${ts(until, 'f')} (${ts(until, 'R')})` }),
    );
  }

  private async lift(
    i: ChatInputCommandInteraction,
    loc: Locale,
    guildId: string,
    user: User,
    reason: string | null,
  ): Promise<void> {
    const done = await this.store.transaction(async () => {
      const now = this.now();
      const st = await memberStanding(this.store, guildId, user.id, now);
      if (conductBar({ ban: null, pause: st.pause }, true) === null) return 'conduct/not-paused' as const;
      await this.log.add({ guildId, at: now, actorId: `host:${i.user.id}`, action: 'lift', userId: user.id, reason });
      return null;
    });
    if (done) return refuse(i, refusalText(loc, done));
    await say(i, t(loc, 'conduct.done.lift', { member: `<@${user.id}>` }));
  }

  private async bans(i: ChatInputCommandInteraction, loc: Locale, guildId: string): Promise<void> {
    const now = this.now();
    const bans = currentBans(await this.log.bansAndUnbans(guildId));
    const log = await this.log.log(guildId, 200);
    const lines = [`**${t(loc, 'conduct.bansTitle')}**`];
    if (bans.length === 0) lines.push(t(loc, 'conduct.noBans'));
    for (const b of bans.slice(0, SHOWN)) {
      const why = b.ban.reason ? ` — ${t(loc, 'conduct.reasonLine', { reason: b.ban.reason })}` : '';
      lines.push(`- ⛔ ${t(loc, 'conduct.banLine', { member: `<@${b.userId}>`, when: ts(b.ban.at, 'D') })}${why}`);
    }
    if (bans.length > SHOWN) lines.push(t(loc, 'conduct.more', { count: bans.length - SHOWN }));
    // A host's pauses still running (the thresholds' own are in each member's record).
    const paused = new Map<string, ServerAuditRow>();
    for (const r of [...log].reverse()) {
      if (r.action === 'pause' && r.until !== null && r.until > now) paused.set(r.userId, r);
      else if (r.action === 'lift') paused.delete(r.userId);
    }
    for (const r of paused.values())
      lines.push(
        `- ⏸️ ${t(loc, 'conduct.pauseLine', { member: `<@${r.userId}>`, when: ts(r.until!, 'f'), left: ts(r.until!, 'R') })}`,
      );
    lines.push('', `**${t(loc, 'conduct.logTitle')}**`);
    if (log.length === 0) lines.push(t(loc, 'conduct.noLog'));
    for (const r of log.slice(0, SHOWN)) lines.push(`- ${decisionText(loc, r, true)}`);
    if (log.length > SHOWN) lines.push('…');
    await say(i, lines.join('\n').slice(0, 2000));
  }
}

/** `/mafia conduct …`'s subcommands. */
export function conductSubcommands(g: SlashCommandSubcommandGroupBuilder) {
  const member = (o: SlashCommandUserOption) => loc(o, 'opt.conductMember').setRequired(true);
  const reason = (required: boolean) => (o: SlashCommandStringOption) =>
    loc(o, 'opt.conductReason').setRequired(required).setMaxLength(REASON_MAX);
  g.addSubcommand((s) => loc(s, 'conduct.record').addUserOption((o) => loc(o, 'opt.member').setRequired(false)));
  g.addSubcommand((s) => loc(s, 'conduct.ban').addUserOption(member).addStringOption(reason(true)));
  g.addSubcommand((s) => loc(s, 'conduct.unban').addUserOption(member).addStringOption(reason(false)));
  g.addSubcommand((s) =>
    loc(s, 'conduct.pause')
      .addUserOption(member)
      .addIntegerOption((o) => loc(o, 'opt.conductDays').setRequired(true).setMinValue(1).setMaxValue(365))
      .addStringOption(reason(true)),
  );
  g.addSubcommand((s) => loc(s, 'conduct.lift').addUserOption(member).addStringOption(reason(false)));
  g.addSubcommand((s) => loc(s, 'conduct.bans'));
  return g;
}
