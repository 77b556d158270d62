// A PostgreSQL URL checked and shown without its password (issue 23). No imports: the
// configuration (src/config.ts) checks DATABASE_URL with it before anything is opened.

/** Whether a text names a PostgreSQL database rather than a file. */
export function looksLikePostgresUrl(text: string): boolean {
  return /^postgres(ql)?:/i.test(text);
}

/**
 * What is wrong with a `postgres://user[:password]@host[:port]/database[?…]` URL (the scheme, a
 * host, a database name, no spaces or control characters), or the URL when nothing is. The reason
 * never echoes the text back: it may hold a password.
 */
export function checkPostgresUrl(text: string): URL | { problem: string } {
  const bad = (problem: string) => ({ problem });
  if (text.length > 2000) return bad('longer than 2,000 characters');
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(text)) return bad('it holds spaces or control characters');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return bad('it cannot be parsed');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') return bad(`the scheme is ${url.protocol}`);
  if (!url.hostname && !url.searchParams.get('host')) return bad('no host');
  let db: string;
  try {
    db = decodeURIComponent(url.pathname.replace(/^\//, ''));
  } catch {
    return bad('the database name is not valid percent-encoding');
  }
  if (!db) return bad('no database name after the host');
  if (db.includes('/')) return bad('the database name holds a "/"');
  if (url.port && !(Number(url.port) >= 1 && Number(url.port) <= 65535)) return bad('the port is not 1-65535');
  return url;
}

/** The one-line explanation of a URL's problem. */
export function postgresUrlMessage(problem: string): string {
  return `not a PostgreSQL URL (${problem}); expected postgres://user:password@host:5432/database`;
}

/** The URL as it may be printed: the password replaced by `***`. */
export function redactUrl(url: URL): string {
  if (!url.password) return url.toString();
  const u = new URL(url.toString());
  u.password = '***';
  return u.toString();
}
