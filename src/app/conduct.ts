// Conduct across games (issue 24): a member's record on a server (absences, fouls, removals, games
// left to a substitute), the server's thresholds that pause him from rated games for a while, a
// host's own pause, and the server's list of members who may not join games (bans). The record is
// read from stored rows (src/db/conduct-store.ts); what it means is decided here, in pure functions
// (tested without a database), and asked by every way into a game: a lobby's Join, a substitute
// call's volunteer, a host's /host substitute.
import { ConductStore, type ConductFact, type ServerAuditRow } from '../db/conduct-store';
import type { Store } from '../db/store';
import type { RefusalCode } from '../engine/refusal-codes';
import type { Member } from './hosts';
import { type ConductSettings } from './conduct-settings';
import { readSettings } from './settings';

export { DEFAULT_CONDUCT, type ConductSettings } from './conduct-settings';

export const DAY_MS = 86_400_000;

/** The kinds of facts of a record, in the order they are shown. */
export const FACT_KINDS = ['absence', 'foul', 'removal', 'abandoned'] as const;
export type FactKind = (typeof FACT_KINDS)[number];
const THRESHOLD: { readonly [K in FactKind]: keyof ConductSettings } = {
  absence: 'absences',
  foul: 'fouls',
  removal: 'removals',
  abandoned: 'abandoned',
};

/** Longest reason kept (a ban's, a pause's): the rest is cut. */
export const REASON_MAX = 200;

export interface AutoPause {
  until: number;
  kind: FactKind;
}

/**
 * The pause the thresholds give: for each kind with a threshold, the first moment its facts within
 * `days` days before it reach the threshold starts a pause of `pause` days (a fact counts as its
 * fouls for fouls, 1 otherwise); the latest such end wins. Facts at or before `after` (a host's
 * lift) count no more.
 */
export function autoPause(facts: readonly ConductFact[], s: ConductSettings, after: number | null): AutoPause | null {
  if (s.pause === 0) return null;
  const window = s.days * DAY_MS;
  let best: AutoPause | null = null;
  for (const kind of FACT_KINDS) {
    const need = s[THRESHOLD[kind]];
    if (need === 0) continue;
    const list = facts.filter((f) => f.kind === kind && (after === null || f.at > after)).sort((a, b) => a.at - b.at);
    let from = 0;
    let sum = 0;
    for (const f of list) {
      sum += f.count;
      while (list[from]!.at <= f.at - window) sum -= list[from++]!.count;
      if (sum >= need) {
        const until = f.at + s.pause * DAY_MS;
        if (!best || until > best.until) best = { until, kind };
      }
    }
  }
  return best;
}

export interface Ban {
  at: number;
  actorId: string;
  reason: string | null;
}

export interface Pause {
  until: number;
  /** `manual`: a host's; else the threshold that gave it. */
  by: 'manual' | FactKind;
  reason: string | null;
}

export interface Standing {
  ban: Ban | null;
  pause: Pause | null;
}

/** The member's ban and pause now, from his rows of the server's audit log and his facts. */
export function standing(
  rows: readonly ServerAuditRow[],
  facts: readonly ConductFact[],
  s: ConductSettings,
  now: number,
): Standing {
  let ban: Ban | null = null;
  let manual: Pause | null = null;
  let lift: number | null = null;
  for (const r of rows) {
    if (r.action === 'ban') ban = { at: r.at, actorId: r.actorId, reason: r.reason };
    else if (r.action === 'unban') ban = null;
    else if (r.action === 'pause' && r.until !== null) manual = { until: r.until, by: 'manual', reason: r.reason };
    else if (r.action === 'lift') {
      manual = null;
      lift = r.at;
    }
  }
  const auto = autoPause(facts, s, lift);
  const pauses = [manual, auto && { until: auto.until, by: auto.kind, reason: null }].filter(
    (p): p is Pause => p !== null && p.until > now,
  );
  const pause = pauses.sort((a, b) => b.until - a.until)[0] ?? null;
  return { ban, pause };
}

/** Why the member may not take a place in a game (rated or casual), or null. */
export function conductBar(st: Standing, rated: boolean): 'banned' | 'paused' | null {
  if (st.ban) return 'banned';
  if (rated && st.pause) return 'paused';
  return null;
}

/** Who manages conduct: members with Manage Server or the server's host role. */
export function hostsServer(member: Member, hostRole: string | null): boolean {
  return member.manageGuild || (hostRole !== null && member.roles.includes(hostRole));
}

/** The members banned now, each with his ban, in the order they were banned. */
export function currentBans(rows: readonly ServerAuditRow[]): { userId: string; ban: Ban }[] {
  const bans = new Map<string, Ban>();
  for (const r of rows) {
    if (r.action === 'ban') bans.set(r.userId, { at: r.at, actorId: r.actorId, reason: r.reason });
    else if (r.action === 'unban') bans.delete(r.userId);
  }
  return [...bans].map(([userId, ban]) => ({ userId, ban })).sort((a, b) => a.ban.at - b.ban.at);
}

/** How far back a record reads: the threshold window plus its pause (older facts pause nobody), at least a year. */
export const recordSince = (s: ConductSettings, now: number): number => now - Math.max(365, s.days + s.pause) * DAY_MS;

/** Whether any threshold can pause a member (else his facts pause nobody). */
export const thresholdsOn = (s: ConductSettings): boolean =>
  s.pause > 0 && (s.absences > 0 || s.fouls > 0 || s.removals > 0 || s.abandoned > 0);

/**
 * A member's standing on a server now: his audit rows, his facts, the server's thresholds.
 * `record` false (a join): his facts are read only when a threshold can pause him.
 */
export async function memberStanding(
  store: Store,
  guildId: string,
  userId: string,
  now: number,
  record = true,
): Promise<Standing & { facts: ConductFact[]; rows: ServerAuditRow[]; settings: ConductSettings }> {
  const settings = (await readSettings(store, guildId)).conduct;
  const cs = ConductStore.of(store.c);
  const rows = await cs.member(guildId, userId);
  const facts = record || thresholdsOn(settings) ? await cs.facts(guildId, userId, recordSince(settings, now)) : [];
  return { ...standing(rows, facts, settings, now), facts, rows, settings };
}

export type ConductRefusal = { code: RefusalCode; until?: number; reason?: string | null };

/**
 * Whether the member may take a place in a game of the server: null, or the refusal (for the one
 * refused himself: `conduct/*`; `host` true: the host seating him is told `substitute/*`).
 */
export async function joinRefusal(
  store: Store,
  guildId: string,
  userId: string,
  rated: boolean,
  now: number,
  host = false,
): Promise<ConductRefusal | null> {
  const st = await memberStanding(store, guildId, userId, now, false);
  const bar = conductBar(st, rated);
  if (bar === 'banned') return { code: host ? 'substitute/banned' : 'conduct/banned', reason: st.ban!.reason };
  if (bar === 'paused') return { code: host ? 'substitute/paused' : 'conduct/paused', until: st.pause!.until };
  return null;
}
