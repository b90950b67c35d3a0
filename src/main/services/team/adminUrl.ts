/**
 * The administrator's PostgreSQL URL of `ledger team init`, read by Ledgerdesk itself (issue 35,
 * T3): host, port, database and user are taken from it and given to the driver one by one, with
 * TLS verify-full against the team CA (`--ca`). node-postgres lets a connection string's query
 * override an explicit TLS setting (`?sslmode=no-verify` turned the CA check off, `?ssl=0` or
 * `?sslmode=disable` turned TLS off, `?host=` sent the admin session elsewhere than the invites
 * name), so the URL never reaches the driver, and a query parameter that touches TLS or the host
 * is refused with what to do instead. Others are refused too: none is needed, and one this code
 * does not know might be read by a later driver.
 */
import { TeamProblem } from './teamProblem.ts';

export interface AdminTarget {
  host: string;
  port: number;
  database: string;
  user: string;
  /** The password the URL carries ('' when none: it comes from a file, PGPASSWORD or a prompt). */
  password: string;
}

/** What libpq and node-postgres read from a URL's query to choose TLS or the host. */
const TLS_OR_HOST = new Set([
  'ssl',
  'sslmode',
  'sslcert',
  'sslkey',
  'sslrootcert',
  'sslcrl',
  'sslcrldir',
  'sslpassword',
  'sslcompression',
  'sslsni',
  'sslnegotiation',
  'ssl_min_protocol_version',
  'ssl_max_protocol_version',
  'requiressl',
  'requirepeer',
  'gssencmode',
  'krbsrvname',
  'uselibpqcompat',
  'host',
  'hostaddr',
  'port',
  'dbname',
  'user',
  'service',
  'servicefile',
  'target_session_attrs',
  'load_balance_hosts',
  'channel_binding',
  'options',
  'passfile',
  'password',
  'replication',
]);

export function adminTargetOf(url: string): AdminTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TeamProblem('invalid', 'The PostgreSQL URL is not a URL (postgres://user@host:port/database).');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw new TeamProblem('invalid', 'The PostgreSQL URL must start with postgres://.');
  const names = [...new Set([...parsed.searchParams.keys()].map((name) => name.toLowerCase()))];
  const touching = names.filter((name) => TLS_OR_HOST.has(name));
  if (touching.length > 0)
    throw new TeamProblem(
      'invalid',
      `The PostgreSQL URL sets ${touching.map((name) => `"${name}"`).join(', ')}, which would decide how (or where) team init connects: remove ${touching.length === 1 ? 'it' : 'them'}. Team init always connects with TLS to the URL's host, and trusts only the CA given with --ca (verify-full).`,
    );
  if (names.length > 0)
    throw new TeamProblem(
      'invalid',
      `The PostgreSQL URL has query parameters (${names.map((name) => `"${name}"`).join(', ')}) team init does not take: give only postgres://user@host:port/database.`,
    );
  if (parsed.hash !== '') throw new TeamProblem('invalid', 'The PostgreSQL URL must not end with a #fragment.');
  const host = decodeURIComponent(parsed.hostname).replace(/^\[|\]$/g, '');
  if (host === '' || /[/,\s%]/.test(host))
    throw new TeamProblem(
      'invalid',
      'The PostgreSQL URL must name one host by name or address (not a socket folder, not a list of hosts).',
    );
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (database === '' || database.includes('/'))
    throw new TeamProblem('invalid', 'The PostgreSQL URL must name a database: postgres://user@host:port/database.');
  const user = decodeURIComponent(parsed.username);
  if (user === '')
    throw new TeamProblem(
      'invalid',
      'The PostgreSQL URL must name the administrator: postgres://user@host:port/database.',
    );
  const port = parsed.port === '' ? 5432 : Number(parsed.port);
  return { host, port, database, user, password: decodeURIComponent(parsed.password) };
}
