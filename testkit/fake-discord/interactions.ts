/**
 * Interactions: building INTERACTION_CREATE payloads for simulated users (slash commands,
 * buttons, selects, modal submits) and handling the bot's callback / followup / @original routes.
 */
import { randomBytes } from 'node:crypto';
import { Errors, Perm } from './util.js';
import { ChannelTypes, MessageFlag, type ChannelRec, type MessageBody, type State } from './state.js';
import type { Gateway } from './gateway.js';
import type { CommandOptionDef, FakeAttachment, FakeComponent, RegisteredCommand, StoredMessage } from './types.js';

export const InteractionType = {
  Ping: 1,
  ApplicationCommand: 2,
  MessageComponent: 3,
  Autocomplete: 4,
  ModalSubmit: 5,
} as const;
export const CallbackType = {
  Pong: 1,
  ChannelMessageWithSource: 4,
  DeferredChannelMessageWithSource: 5,
  DeferredMessageUpdate: 6,
  UpdateMessage: 7,
  AutocompleteResult: 8,
  Modal: 9,
} as const;

export type SlashOptionValue = string | number | boolean | { type: number; value: string | number | boolean };

export interface SlashOptions {
  /** sub-command name */
  sub?: string;
  /** sub-command group name */
  group?: string;
  options?: Record<string, SlashOptionValue>;
  /** interaction locale (default: the user's locale) */
  locale?: string;
  /** ms to wait for the bot's callback (default: FakeDiscord `interactionTimeout`) */
  timeout?: number;
}

export interface ActOptions {
  locale?: string;
  timeout?: number;
  /** Send even if the message has no such (enabled) component: a forged or stale custom id. */
  forge?: boolean;
}

interface Pending {
  resolve: (r: InteractionResult) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

export interface InteractionRec {
  id: string;
  token: string;
  type: number;
  label: string;
  userId: string;
  guildId: string | null;
  channelId: string;
  sourceMessage?: StoredMessage;
  createdAt: number;
  callbackType: number | null;
  ephemeral: boolean;
  original: StoredMessage | null;
  /** type 5 reply still showing "thinking…" */
  loading: boolean;
  settled: boolean;
  followups: StoredMessage[];
  modal?: ModalData;
  respondedAt?: number;
  pending?: Pending;
  /** woken on settle / followup */
  listeners: Set<() => void>;
  result: InteractionResult;
}

export interface ModalData {
  custom_id: string;
  title: string;
  components: FakeComponent[];
  [key: string]: unknown;
}

/** What `slash/click/select/submitModal` resolve with (after the bot's interaction callback). */
export class InteractionResult {
  constructor(
    private readonly rec: InteractionRec,
    private readonly defaultTimeout: number,
  ) {}
  get id(): string {
    return this.rec.id;
  }
  get token(): string {
    return this.rec.token;
  }
  /** human-readable description, e.g. `button "vote:3" by alice` */
  get label(): string {
    return this.rec.label;
  }
  /** interaction callback type: 4 reply, 5 deferred reply, 6 deferred update, 7 update, 9 modal */
  get type(): number {
    return this.rec.callbackType ?? 0;
  }
  get deferred(): boolean {
    return (
      this.type === CallbackType.DeferredChannelMessageWithSource || this.type === CallbackType.DeferredMessageUpdate
    );
  }
  get ephemeral(): boolean {
    return this.rec.ephemeral;
  }
  /**
   * The message this interaction's `@original` refers to (live object, current content):
   * the reply (4/5) or the component message (6/7). Undefined for modals.
   */
  get message(): StoredMessage | undefined {
    return this.rec.original ?? undefined;
  }
  get content(): string | undefined {
    return this.rec.original?.content;
  }
  /** the modal shown (callback type 9) */
  get modal(): ModalData | undefined {
    return this.rec.modal;
  }
  /** ms between dispatch and the callback */
  get respondedInMs(): number {
    return (this.rec.respondedAt ?? Date.now()) - this.rec.createdAt;
  }
  /** true once the reply is final (non-deferred reply, or the deferred reply was edited / followed up) */
  get isSettled(): boolean {
    return this.rec.settled;
  }
  followups(): StoredMessage[] {
    return this.rec.followups.slice();
  }
  /** Resolves once the deferred reply was edited (or immediately for non-deferred replies). */
  settled(opts: { timeout?: number } = {}): Promise<this> {
    return this.waitUntil(
      () => this.rec.settled,
      opts.timeout,
      () => `${this.rec.label}: deferred response (callback type ${this.type}) was never completed`,
    ).then(() => this);
  }
  /** Resolves with the followup at `index` (0 = first) once the bot sent it. */
  followup(index = 0, opts: { timeout?: number } = {}): Promise<StoredMessage> {
    return this.waitUntil(
      () => this.rec.followups.length > index,
      opts.timeout,
      () => `${this.rec.label}: followup #${index} never arrived (got ${this.rec.followups.length})`,
    ).then(() => this.rec.followups[index]!);
  }

  private waitUntil(cond: () => boolean, timeout: number | undefined, describe: () => string): Promise<void> {
    if (cond()) return Promise.resolve();
    const ms = timeout ?? this.defaultTimeout;
    return new Promise((resolve, reject) => {
      const listener = (): void => {
        if (!cond()) return;
        clearTimeout(timer);
        this.rec.listeners.delete(listener);
        resolve();
      };
      const timer = setTimeout(() => {
        this.rec.listeners.delete(listener);
        reject(new Error(`${describe()} within ${ms}ms`));
      }, ms);
      this.rec.listeners.add(listener);
    });
  }
}

const DM_APP_PERMISSIONS = (
  Perm.ViewChannel |
  Perm.SendMessages |
  Perm.EmbedLinks |
  Perm.AttachFiles |
  Perm.ReadMessageHistory |
  Perm.AddReactions |
  Perm.UseExternalEmojis
).toString();

export class Interactions {
  readonly byId = new Map<string, InteractionRec>();
  readonly byToken = new Map<string, InteractionRec>();
  private readonly commandIds = new Map<string, string>();
  /** counters for load tests */
  readonly stats = { dispatched: 0, acknowledged: 0, timedOut: 0, late: 0 };
  private sinceSweep = 0;

  constructor(
    private readonly state: State,
    private readonly gateway: Gateway,
    readonly opts: { timeout: number; deadlineMs?: number; ttlMs: number },
  ) {}

  /** Forget interactions older than the token lifetime (Map order = creation order, so O(expired)). */
  private sweep(): void {
    const cutoff = Date.now() - this.opts.ttlMs;
    for (const [id, rec] of this.byId) {
      if (rec.createdAt >= cutoff) break;
      if (rec.pending) continue;
      this.byId.delete(id);
      this.byToken.delete(rec.token);
    }
  }

  // ------------------------------------------------------------------------------------------
  // acting as users
  // ------------------------------------------------------------------------------------------

  slash(userId: string, channelId: string, name: string, o: SlashOptions = {}): Promise<InteractionResult> {
    const user = this.state.requireUser(userId);
    const ch = this.resolveChannel(userId, channelId);
    if (ch.guildId) this.assertUserCan(ch, userId, Perm.ViewChannel | Perm.UseApplicationCommands, `/${name}`);
    const cmd = this.findCommand(name, ch.guildId);
    const resolved: Resolved = {};
    let defs = cmd?.options;
    let leafOptions: unknown[];
    const topOptions: unknown[] = [];
    if (o.group) {
      const g = defs?.find((d) => d.name === o.group && d.type === 2);
      defs = g?.options;
      const s = defs?.find((d) => d.name === o.sub && d.type === 1);
      defs = s?.options;
      leafOptions = this.buildOptions(o.options ?? {}, () => defs, ch, resolved);
      topOptions.push({ type: 2, name: o.group, options: [{ type: 1, name: o.sub, options: leafOptions }] });
    } else if (o.sub) {
      const s = defs?.find((d) => d.name === o.sub && d.type === 1);
      defs = s?.options;
      leafOptions = this.buildOptions(o.options ?? {}, () => defs, ch, resolved);
      topOptions.push({ type: 1, name: o.sub, options: leafOptions });
    } else {
      topOptions.push(...this.buildOptions(o.options ?? {}, () => defs, ch, resolved));
    }
    const data: Record<string, unknown> = {
      id: cmd?.id ?? this.syntheticCommandId(name),
      name,
      type: 1,
      options: topOptions,
    };
    if (cmd?.guild_id) data.guild_id = cmd.guild_id;
    if (Object.keys(resolved).length) data.resolved = resolved;
    const label = `slash /${[name, o.group, o.sub].filter(Boolean).join(' ')} by ${user.api.username}`;
    return this.dispatch(InteractionType.ApplicationCommand, userId, ch, data, label, o);
  }

  click(userId: string, message: StoredMessage, customId: string, o: ActOptions = {}): Promise<InteractionResult> {
    const { ch, comp, user } = this.prepareComponent(userId, message, customId, 'click', o.forge);
    if (comp.type !== 2)
      throw new Error(`fake.click: component "${customId}" is not a button (type ${comp.type}); use fake.select`);
    if (comp.style === 5 || comp.style === 6)
      throw new Error(`fake.click: component "${customId}" is a link/premium button`);
    const data = { custom_id: customId, component_type: 2 };
    return this.dispatch(
      InteractionType.MessageComponent,
      userId,
      ch,
      data,
      `button "${customId}" by ${user.api.username}`,
      o,
      message,
    );
  }

  select(
    userId: string,
    message: StoredMessage,
    customId: string,
    values: string[],
    o: ActOptions = {},
  ): Promise<InteractionResult> {
    const { ch, comp: found, user } = this.prepareComponent(userId, message, customId, 'select', o.forge);
    // A forged select: any values at all, as a hostile client could send.
    const comp = o.forge
      ? ({
          type: 3,
          custom_id: customId,
          min_values: 0,
          max_values: 25,
          options: values.map((value) => ({ label: value, value })),
        } as FakeComponent)
      : found;
    if (comp.type === 2) throw new Error(`fake.select: component "${customId}" is a button; use fake.click`);
    const min = comp.min_values ?? 1;
    const max = comp.max_values ?? 1;
    if (values.length < min || values.length > max) {
      throw new Error(`fake.select: "${customId}" needs ${min}..${max} values, got ${values.length}`);
    }
    const data: Record<string, unknown> = { custom_id: customId, component_type: comp.type, values };
    if (comp.type === 3) {
      const allowed = new Set((comp.options ?? []).map((x) => x.value));
      const bad = values.filter((v) => !allowed.has(v));
      if (bad.length)
        throw new Error(
          `fake.select: "${customId}" has no option(s) ${bad.join(', ')} (options: ${[...allowed].join(', ')})`,
        );
    } else {
      const resolved: Resolved = {};
      for (const v of values)
        this.resolveEntity(comp.type === 5 ? 6 : comp.type === 6 ? 8 : comp.type === 8 ? 7 : 9, v, ch, resolved);
      data.resolved = resolved;
    }
    return this.dispatch(
      InteractionType.MessageComponent,
      userId,
      ch,
      data,
      `select "${customId}" [${values.join(',')}] by ${user.api.username}`,
      o,
      message,
    );
  }

  submitModal(
    userId: string,
    from: InteractionResult,
    fields: Record<string, string | string[]>,
    o: ActOptions = {},
  ): Promise<InteractionResult> {
    const src = this.byId.get(from.id);
    if (!src?.modal) throw new Error(`fake.submitModal: ${from.label} did not show a modal`);
    if (src.userId !== userId) throw new Error('fake.submitModal: only the user who opened the modal can submit it');
    const user = this.state.requireUser(userId);
    const ch = this.state.requireChannel(src.channelId);
    const mapInput = (c: FakeComponent): Record<string, unknown> => {
      const v = fields[c.custom_id ?? ''];
      if (v === undefined && c.required !== false && c.type === 4)
        throw new Error(`fake.submitModal: required field "${c.custom_id}" missing`);
      if (c.type === 4) {
        const value = Array.isArray(v) ? v.join('') : (v ?? '');
        const minLen = typeof c.min_length === 'number' ? c.min_length : 0;
        const maxLen = typeof c.max_length === 'number' ? c.max_length : 4000;
        if (value.length && (value.length < minLen || value.length > maxLen))
          throw new Error(`fake.submitModal: "${c.custom_id}" length must be ${minLen}..${maxLen}`);
        return { type: 4, id: c.id, custom_id: c.custom_id, value };
      }
      return {
        type: c.type,
        id: c.id,
        custom_id: c.custom_id,
        values: Array.isArray(v) ? v : v === undefined ? [] : [v],
      };
    };
    const components = src.modal.components.map((top) => {
      if (top.type === 1) return { type: 1, id: top.id, components: (top.components ?? []).map(mapInput) };
      if (top.type === 18 && top.component && typeof top.component === 'object') {
        return { type: 18, id: top.id, component: mapInput(top.component as FakeComponent) };
      }
      return { type: top.type, id: top.id };
    });
    const data = { custom_id: src.modal.custom_id, components };
    return this.dispatch(
      InteractionType.ModalSubmit,
      userId,
      ch,
      data,
      `modal "${src.modal.custom_id}" by ${user.api.username}`,
      o,
      src.sourceMessage,
    );
  }

  // ------------------------------------------------------------------------------------------

  private resolveChannel(userId: string, channelId: string): ChannelRec {
    if (channelId === 'dm') return this.state.dmChannelFor(userId);
    const ch = this.state.channels.get(channelId);
    if (!ch) throw new Error(`fake: unknown channel ${channelId}`);
    if (ch.type === ChannelTypes.DM && ch.recipientId !== userId)
      throw new Error(`fake: channel ${channelId} is another user's DM`);
    return ch;
  }

  private assertUserCan(ch: ChannelRec, userId: string, bits: bigint, what: string): void {
    const g = this.state.guilds.get(ch.guildId!);
    if (!g?.members.has(userId))
      throw new Error(`fake: user ${userId} is not a member of guild ${ch.guildId} (${what})`);
    const p = this.state.channelPermissions(ch, userId);
    if ((p & bits) !== bits)
      throw new Error(
        `fake: user ${this.state.users.get(userId)?.api.username} lacks permissions in #${ch.name} for ${what}`,
      );
  }

  private prepareComponent(userId: string, message: StoredMessage, customId: string, what: string, forge = false) {
    const user = this.state.requireUser(userId);
    const current = this.state.messages.get(message.id);
    if (!current) throw new Error(`fake.${what}: message ${message.id} does not exist (deleted?)`);
    if (current.ephemeralFor && current.ephemeralFor !== userId) {
      throw new Error(`fake.${what}: message ${message.id} is ephemeral for another user`);
    }
    const ch = this.state.requireChannel(current.channel_id);
    if (ch.type === ChannelTypes.DM && ch.recipientId !== userId)
      throw new Error(`fake.${what}: message ${message.id} is in another user's DM`);
    if (ch.guildId) this.assertUserCan(ch, userId, Perm.ViewChannel | Perm.ReadMessageHistory, `${what} "${customId}"`);
    const comp =
      findComponent(current, (c) => c.custom_id === customId) ??
      (forge ? ({ type: 2, custom_id: customId } as FakeComponent) : undefined);
    if (!comp) {
      const ids = allComponents(current)
        .map((c) => c.custom_id)
        .filter(Boolean);
      throw new Error(
        `fake.${what}: message ${message.id} has no component "${customId}" (has: ${ids.join(', ') || 'none'})`,
      );
    }
    if (comp.disabled && !forge) throw new Error(`fake.${what}: component "${customId}" is disabled`);
    return { ch, comp, user, message: current };
  }

  private dispatch(
    type: number,
    userId: string,
    ch: ChannelRec,
    data: unknown,
    label: string,
    o: ActOptions,
    sourceMessage?: StoredMessage,
  ): Promise<InteractionResult> {
    const user = this.state.requireUser(userId);
    const id = this.state.ids.next();
    const token = `fake.${id}.${randomBytes(6).toString('hex')}`;
    const payload: Record<string, unknown> = {
      id,
      application_id: this.state.applicationId,
      token,
      version: 1,
      type,
      data,
      locale: o.locale ?? user.locale,
      entitlements: [],
      attachment_size_limit: 10 * 1024 * 1024,
      channel_id: ch.id,
    };
    if (ch.guildId) {
      const g = this.state.requireGuild(ch.guildId);
      const m = g.members.get(userId)!;
      payload.guild_id = g.id;
      payload.guild_locale = g.locale;
      payload.guild = { id: g.id, locale: g.locale, features: [] };
      payload.member = {
        ...this.state.memberToApi(g, m),
        permissions: this.state.channelPermissions(ch, userId).toString(),
      };
      payload.app_permissions = this.state.botPermissions(ch).toString();
      payload.authorizing_integration_owners = { '0': g.id };
      payload.context = 0;
      payload.channel = this.state.channelToApi(ch, true);
    } else {
      payload.user = user.api;
      payload.app_permissions = DM_APP_PERMISSIONS;
      payload.authorizing_integration_owners = { '0': '0' };
      payload.context = 1;
      payload.channel = { id: ch.id, type: 1, last_message_id: ch.lastMessageId, flags: 0, recipients: [user.api] };
    }
    if (sourceMessage) payload.message = this.state.messages.get(sourceMessage.id) ?? sourceMessage;

    const rec: InteractionRec = {
      id,
      token,
      type,
      label,
      userId,
      guildId: ch.guildId,
      channelId: ch.id,
      sourceMessage,
      createdAt: Date.now(),
      callbackType: null,
      ephemeral: false,
      original: null,
      loading: false,
      settled: false,
      followups: [],
      listeners: new Set(),
      result: undefined as unknown as InteractionResult,
    };
    const timeout = o.timeout ?? this.opts.timeout;
    rec.result = new InteractionResult(rec, timeout);
    return new Promise<InteractionResult>((resolve, reject) => {
      const n = this.gateway.dispatch('INTERACTION_CREATE', payload, { guildId: ch.guildId });
      if (n === 0) {
        reject(new Error(`fake: cannot dispatch ${label}: no bot gateway session is connected`));
        return;
      }
      if (++this.sinceSweep >= 500) {
        this.sinceSweep = 0;
        this.sweep();
      }
      this.byId.set(id, rec);
      this.byToken.set(token, rec);
      this.stats.dispatched++;
      const timer = setTimeout(() => {
        rec.pending = undefined;
        this.stats.timedOut++;
        reject(new Error(`fake: bot did not answer ${label} (interaction ${id}) within ${timeout}ms`));
      }, timeout);
      rec.pending = { resolve, reject, timer };
    });
  }

  private findCommand(name: string, guildId: string | null): RegisteredCommand | undefined {
    if (guildId) {
      for (const c of this.state.guildCommands.get(guildId)?.values() ?? [])
        if (c.name === name && c.type === 1) return c;
    }
    for (const c of this.state.globalCommands.values()) if (c.name === name && c.type === 1) return c;
    return undefined;
  }

  private syntheticCommandId(name: string): string {
    let id = this.commandIds.get(name);
    if (!id) {
      id = this.state.ids.next();
      this.commandIds.set(name, id);
    }
    return id;
  }

  private buildOptions(
    values: Record<string, SlashOptionValue>,
    defs: () => CommandOptionDef[] | undefined,
    ch: ChannelRec,
    resolved: Resolved,
  ): unknown[] {
    const out: unknown[] = [];
    for (const [name, raw] of Object.entries(values)) {
      const def = defs()?.find((d) => d.name === name);
      let type: number;
      let value: string | number | boolean;
      if (typeof raw === 'object') {
        type = raw.type;
        value = raw.value;
      } else {
        value = raw;
        type =
          def?.type ?? (typeof raw === 'boolean' ? 5 : typeof raw === 'number' ? (Number.isInteger(raw) ? 4 : 10) : 3);
      }
      if (type >= 6 && type <= 9) {
        value = String(value);
        this.resolveEntity(type, value, ch, resolved);
      }
      out.push({ type, name, value });
    }
    return out;
  }

  private resolveEntity(type: number, id: string, ch: ChannelRec, resolved: Resolved): void {
    const g = ch.guildId ? this.state.guilds.get(ch.guildId) : undefined;
    const asUser = (): boolean => {
      const u = this.state.users.get(id);
      if (!u) return false;
      (resolved.users ??= {})[id] = u.api;
      const m = g?.members.get(id);
      if (g && m) {
        (resolved.members ??= {})[id] = {
          ...this.state.memberToApi(g, m, false),
          permissions: this.state.channelPermissions(ch, id).toString(),
        };
      }
      return true;
    };
    const asRole = (): boolean => {
      const r = g?.roles.get(id);
      if (!r) return false;
      (resolved.roles ??= {})[id] = this.state.roleToApi(r);
      return true;
    };
    if (type === 6 && !asUser()) throw new Error(`fake: unknown user ${id}`);
    if (type === 8 && !asRole()) throw new Error(`fake: unknown role ${id}`);
    if (type === 9 && !asUser() && !asRole()) throw new Error(`fake: unknown user/role ${id}`);
    if (type === 7) {
      const c = this.state.channels.get(id);
      if (!c) throw new Error(`fake: unknown channel ${id}`);
      (resolved.channels ??= {})[id] = {
        ...this.state.channelToApi(c, true),
        permissions: this.state.botPermissions(c).toString(),
      };
    }
  }

  // ------------------------------------------------------------------------------------------
  // bot side (REST)
  // ------------------------------------------------------------------------------------------

  private interactionMeta(rec: InteractionRec): Partial<StoredMessage> {
    const user = this.state.users.get(rec.userId)!.api;
    const meta: NonNullable<StoredMessage['interaction_metadata']> = {
      id: rec.id,
      type: rec.type,
      user,
      authorizing_integration_owners: rec.guildId ? { '0': rec.guildId } : { '0': '0' },
    };
    if (rec.sourceMessage) meta.interacted_message_id = rec.sourceMessage.id;
    return {
      interaction_metadata: meta,
      webhook_id: this.state.applicationId,
      application_id: this.state.applicationId,
    };
  }

  private channelOf(rec: InteractionRec): ChannelRec {
    const ch = this.state.channels.get(rec.channelId);
    if (!ch) throw Errors.unknownChannel();
    return ch;
  }

  private wake(rec: InteractionRec): void {
    for (const l of [...rec.listeners]) l();
    this.state.notify();
  }

  private settle(rec: InteractionRec): void {
    rec.loading = false;
    if (!rec.settled) {
      rec.settled = true;
    }
    this.wake(rec);
  }

  /** POST /interactions/:id/:token/callback */
  callback(
    id: string,
    token: string,
    body: { type?: number; data?: Record<string, unknown> },
    withResponse: boolean,
    files: FakeAttachment[],
  ): unknown {
    const rec = this.byId.get(id);
    if (!rec || rec.token !== token) throw Errors.unknownInteraction();
    if (
      this.opts.deadlineMs !== undefined &&
      rec.callbackType === null &&
      Date.now() - rec.createdAt > this.opts.deadlineMs
    ) {
      this.stats.late++;
      throw Errors.unknownInteraction();
    }
    if (rec.callbackType !== null) throw Errors.alreadyAcknowledged();
    const type = Number(body?.type);
    const data = (body?.data ?? {}) as MessageBody;
    const isComponentish =
      rec.type === InteractionType.MessageComponent ||
      (rec.type === InteractionType.ModalSubmit && !!rec.sourceMessage);
    let message: StoredMessage | undefined;
    switch (type) {
      case CallbackType.ChannelMessageWithSource: {
        const ephemeral = (Number(data.flags ?? 0) & MessageFlag.Ephemeral) !== 0;
        message = this.state.createMessage(this.channelOf(rec), data, {
          ephemeralFor: ephemeral ? rec.userId : undefined,
          interactionId: rec.id,
          type: rec.type === InteractionType.ApplicationCommand ? 20 : 0,
          files,
          extra: this.interactionMeta(rec),
        });
        rec.ephemeral = ephemeral;
        rec.original = message;
        rec.settled = true;
        break;
      }
      case CallbackType.DeferredChannelMessageWithSource: {
        const ephemeral = (Number(data.flags ?? 0) & MessageFlag.Ephemeral) !== 0;
        message = this.state.createMessage(
          this.channelOf(rec),
          { flags: MessageFlag.Loading },
          {
            ephemeralFor: ephemeral ? rec.userId : undefined,
            interactionId: rec.id,
            type: rec.type === InteractionType.ApplicationCommand ? 20 : 0,
            extra: this.interactionMeta(rec),
          },
        );
        rec.ephemeral = ephemeral;
        rec.original = message;
        rec.loading = true;
        break;
      }
      case CallbackType.DeferredMessageUpdate:
      case CallbackType.UpdateMessage: {
        if (!isComponentish) {
          throw Errors.invalidForm(
            'type',
            'INTERACTION_CALLBACK_TYPE_INVALID',
            `Interaction callback type ${type} is only valid for component interactions`,
          );
        }
        const target = this.state.messages.get(rec.sourceMessage!.id);
        if (!target) throw Errors.unknownMessage();
        if (type === CallbackType.UpdateMessage) {
          this.state.editMessage(target, data, files);
          rec.settled = true;
        }
        message = target;
        rec.original = target;
        rec.ephemeral = Boolean(target.ephemeralFor);
        break;
      }
      case CallbackType.AutocompleteResult:
        rec.settled = true;
        break;
      case CallbackType.Modal: {
        if (rec.type === InteractionType.ModalSubmit) {
          throw Errors.invalidForm(
            'type',
            'INTERACTION_CALLBACK_TYPE_INVALID',
            'Cannot respond to a modal submit with a modal',
          );
        }
        const modal = data as unknown as ModalData;
        if (!modal.custom_id || !modal.title || !Array.isArray(modal.components) || modal.components.length === 0) {
          throw Errors.invalidForm('data', 'BASE_TYPE_REQUIRED', 'Modal requires custom_id, title and components');
        }
        rec.modal = modal;
        rec.settled = true;
        break;
      }
      default:
        throw Errors.invalidForm('type', 'BASE_TYPE_CHOICES', `Value must be one of (4, 5, 6, 7, 8, 9); got ${type}`);
    }
    rec.callbackType = type;
    rec.respondedAt = Date.now();
    this.stats.acknowledged++;
    if (rec.pending) {
      clearTimeout(rec.pending.timer);
      rec.pending.resolve(rec.result);
      rec.pending = undefined;
    }
    this.wake(rec);
    if (!withResponse) return undefined;
    return {
      interaction: {
        id: rec.id,
        type: rec.type,
        response_message_id: message?.id,
        response_message_loading: rec.loading,
        response_message_ephemeral: rec.ephemeral,
      },
      resource: message && type !== CallbackType.DeferredMessageUpdate ? { type, message } : { type },
    };
  }

  private recForWebhook(appId: string, token: string): InteractionRec {
    const rec = this.byToken.get(token);
    if (!rec || appId !== this.state.applicationId) throw Errors.unknownWebhook();
    return rec;
  }

  /** POST /webhooks/:app/:token — followup */
  followup(appId: string, token: string, body: MessageBody, files: FakeAttachment[]): StoredMessage {
    const rec = this.recForWebhook(appId, token);
    if (rec.callbackType === null) throw Errors.unknownWebhook();
    let msg: StoredMessage;
    if (rec.loading && rec.original && rec.callbackType === CallbackType.DeferredChannelMessageWithSource) {
      // Discord: the first followup after a deferred reply replaces the "thinking…" message
      msg = this.state.editMessage(rec.original, { ...body, flags: undefined }, files);
    } else {
      const ephemeral = (Number(body.flags ?? 0) & MessageFlag.Ephemeral) !== 0;
      msg = this.state.createMessage(this.channelOf(rec), body, {
        ephemeralFor: ephemeral ? rec.userId : undefined,
        interactionId: rec.id,
        files,
        extra: this.interactionMeta(rec),
      });
    }
    rec.followups.push(msg);
    this.settle(rec);
    return msg;
  }

  private webhookMessage(rec: InteractionRec, messageId: string): StoredMessage {
    if (messageId === '@original') {
      if (!rec.original || rec.original.deleted) throw Errors.unknownMessage();
      return rec.original;
    }
    const msg = this.state.messages.get(messageId);
    if (!msg || (msg !== rec.original && !rec.followups.includes(msg))) throw Errors.unknownMessage();
    return msg;
  }

  getMessage(appId: string, token: string, messageId: string): StoredMessage {
    return this.webhookMessage(this.recForWebhook(appId, token), messageId);
  }

  editMessage(
    appId: string,
    token: string,
    messageId: string,
    body: MessageBody,
    files: FakeAttachment[],
  ): StoredMessage {
    const rec = this.recForWebhook(appId, token);
    const msg = this.webhookMessage(rec, messageId);
    this.state.editMessage(msg, body, files);
    if (msg === rec.original) this.settle(rec);
    else this.wake(rec);
    return msg;
  }

  deleteMessage(appId: string, token: string, messageId: string): void {
    const rec = this.recForWebhook(appId, token);
    const msg = this.webhookMessage(rec, messageId);
    this.state.deleteMessage(msg);
    if (msg === rec.original) this.settle(rec);
  }

  /** reject all pending interactions (on stop) */
  rejectAll(reason: string): void {
    for (const rec of this.byId.values()) {
      if (rec.pending) {
        clearTimeout(rec.pending.timer);
        rec.pending.reject(new Error(`${rec.label}: ${reason}`));
        rec.pending = undefined;
      }
    }
  }
}

interface Resolved {
  users?: Record<string, unknown>;
  members?: Record<string, unknown>;
  roles?: Record<string, unknown>;
  channels?: Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------
// component helpers
// ---------------------------------------------------------------------------------------------

/** All interactive/leaf components of a message, depth-first (action rows, containers, sections). */
export function allComponents(message: Pick<StoredMessage, 'components'>): FakeComponent[] {
  const out: FakeComponent[] = [];
  const walk = (list: FakeComponent[] | undefined): void => {
    if (!list) return;
    for (const c of list) {
      out.push(c);
      walk(c.components);
      if (c.accessory) walk([c.accessory]);
    }
  };
  walk(message.components);
  return out;
}

export function findComponent(
  message: Pick<StoredMessage, 'components'>,
  predicate: (c: FakeComponent) => boolean,
): FakeComponent | undefined {
  const stack: FakeComponent[] = [...message.components].reverse();
  while (stack.length) {
    const c = stack.pop()!;
    if (predicate(c)) return c;
    if (c.accessory) stack.push(c.accessory);
    if (c.components) for (let i = c.components.length - 1; i >= 0; i--) stack.push(c.components[i]!);
  }
  return undefined;
}
