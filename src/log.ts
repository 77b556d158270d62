// Structured logs: one JSON object per line (pino), with a level, a time and, on every line that
// concerns a game, the game's id and its server's (guild) id. The rest of the bot logs through
// small interfaces (`warn(msg)`, `error(msg, e)`, see DeliveryLogger); this is what stands behind
// them. A message that names a game ("game 12: ...", "lobby 12 ...") goes through that game's
// child logger, so its line carries `gameId` and `guildId` without every caller passing them.
// LOG_FORMAT=pretty prints the same lines for a person at a terminal (no extra dependency).
import { pino, type DestinationStream, type Logger as Pino } from 'pino';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
export type LogFormat = 'json' | 'pretty';

/** Fields a line may carry besides its message (`gameId`, `guildId`, counts...). */
export type LogFields = Record<string, unknown>;

/** The guild of a game (a log line's `guildId`): at once, or when storage answers. */
export type GuildOf = (gameId: number) => string | null | Promise<string | null>;

export interface Log {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, e?: unknown, fields?: LogFields): void;
  /** A logger whose every line carries `fields` (pino's child logger). */
  child(fields: LogFields): Log;
  /** A logger for one game: its lines carry `gameId` and, once known, `guildId`. */
  game(gameId: number): Log;
  /** How a game's server is found (set by the bot once its database is open). */
  setGuildOf(guildOf: GuildOf): void;
}

export interface LogOptions {
  level?: LogLevel;
  format?: LogFormat;
  /** Where lines go (default: stdout). Tests pass a collector. */
  destination?: { write(line: string): unknown };
  /** Strings that must never appear in a line (the bot token): replaced by `[redacted]`. */
  secrets?: readonly string[];
}

/** The message names a game: "game 12", "lobby 12" (the bot's messages say it so). */
const GAME_IN_MESSAGE = /\b(?:game|lobby) (\d+)\b/;

/** The default format: pretty at a terminal, JSON lines otherwise (a container, a file, a pipe). */
export function defaultLogFormat(stdoutIsTty = Boolean(process.stdout.isTTY)): LogFormat {
  return stdoutIsTty ? 'pretty' : 'json';
}

/** A line for a person: `12:03:04 WARN game=12 guild=345 message {other fields}` and a stack below. */
export function prettyLine(json: string): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const { level, time, msg, gameId, guildId, err, pid: _pid, hostname: _host, ...rest } = o;
  const t = typeof time === 'string' ? time.slice(11, 19) : '';
  const where = [gameId !== undefined ? `game=${String(gameId)}` : '', guildId ? `guild=${String(guildId)}` : '']
    .filter(Boolean)
    .join(' ');
  const extra = Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : '';
  const e = err as { message?: string; stack?: string } | string | undefined;
  const below = e === undefined ? '' : `\n    ${typeof e === 'string' ? e : (e.stack ?? e.message ?? '')}`;
  return `${t} ${String(level).toUpperCase().padEnd(5)} ${where ? `${where} ` : ''}${String(msg ?? '')}${extra}${below}\n`;
}

/** The lines' way out: secrets scrubbed, then JSON as it is or the pretty form. */
function sink(o: LogOptions): DestinationStream {
  const out = o.destination ?? process.stdout;
  const secrets = (o.secrets ?? []).filter((s) => s.length >= 8);
  const pretty = o.format === 'pretty';
  return {
    write(line: string) {
      let l = line;
      for (const s of secrets) if (l.includes(s)) l = l.replaceAll(s, '[redacted]');
      out.write(pretty ? prettyLine(l) : l);
    },
  };
}

function errorFields(e: unknown): LogFields {
  if (e === undefined || e === null || e === '') return {};
  if (e instanceof Error) return { err: e };
  return { err: String(e) };
}

/** The bot's logger (pino underneath). */
export function createLog(o: LogOptions = {}): Log {
  const root = pino(
    {
      level: o.level ?? 'info',
      base: undefined, // no pid and hostname: the container or the supervisor knows them
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: pino.stdSerializers.err },
      // A token or an authorization header passed in fields is never written.
      redact: { paths: ['token', '*.token', 'authorization', '*.authorization', 'headers.authorization'] },
    },
    sink(o),
  );
  let guildOf: GuildOf = () => null;
  // A game's guild never changes: looked up once (a bounded cache). Storage answers later
  // (asynchronously): the lines written before it has answered go out without the guild.
  const guilds = new Map<number, string | null>();
  const remember = (gameId: number, g: string | null) => {
    if (guilds.size > 10_000) guilds.clear();
    if (g !== null) guilds.set(gameId, g);
  };
  const asking = new Set<number>();
  const guildFor = (gameId: number): string | null => {
    if (guilds.has(gameId)) return guilds.get(gameId)!;
    let g: string | null | Promise<string | null> = null;
    try {
      g = guildOf(gameId);
    } catch {
      // the database may be closed (shutting down): the line goes out without the guild
    }
    if (g instanceof Promise) {
      if (!asking.has(gameId)) {
        asking.add(gameId);
        g.then(
          (v) => remember(gameId, v),
          () => undefined,
        ).finally(() => asking.delete(gameId));
      }
      return null;
    }
    remember(gameId, g);
    return g;
  };
  const gameFields = (gameId: number): LogFields => {
    const guildId = guildFor(gameId);
    return guildId ? { guildId, gameId } : { gameId };
  };

  const wrap = (p: Pino, bound: boolean): Log => {
    // The logger for a line: the game's child when the message names a game and nothing is bound.
    const pick = (msg: string, fields?: LogFields): Pino => {
      if (bound || (fields && 'gameId' in fields)) return p;
      const m = GAME_IN_MESSAGE.exec(msg);
      return m ? p.child(gameFields(Number(m[1]))) : p;
    };
    const withGuild = (fields?: LogFields): LogFields => {
      if (!fields) return {};
      if (typeof fields.gameId === 'number' && fields.guildId === undefined) {
        const g = guildFor(fields.gameId);
        if (g) return { guildId: g, ...fields };
      }
      return fields;
    };
    return {
      debug: (msg, fields) => pick(msg, fields).debug(withGuild(fields), msg),
      info: (msg, fields) => pick(msg, fields).info(withGuild(fields), msg),
      warn: (msg, fields) => pick(msg, fields).warn(withGuild(fields), msg),
      error: (msg, e, fields) => pick(msg, fields).error({ ...withGuild(fields), ...errorFields(e) }, msg),
      child: (fields) => wrap(p.child(withGuild(fields)), bound || 'gameId' in fields),
      game: (gameId) => wrap(p.child(gameFields(gameId)), true),
      setGuildOf: (fn) => {
        guildOf = fn;
        guilds.clear();
      },
    };
  };
  return wrap(root, false);
}

/** A logger that writes nothing (tests, tools). */
export function silentLog(): Log {
  const none: Log = {
    debug: () => {},
    info: () => {},
    warn: () => {},
    error: () => {},
    child: () => none,
    game: () => none,
    setGuildOf: () => {},
  };
  return none;
}
