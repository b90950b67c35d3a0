/**
 * The one connection to the team's PostgreSQL, kept open while the app runs and opened again
 * after a failure: TLS verify-full against the team's CA (the certificate must be signed by it
 * and name the host), SCRAM login, bounded connect and query times so a down or slow server
 * fails fast and the app keeps working offline.
 */
import pg from 'pg';
import { describeServer, type TeamServer } from './teamConfig.ts';
import { teamProblemOf } from './teamProblem.ts';

export interface TeamConnectionOptions {
  server: TeamServer;
  caPem: string;
  login: string;
  password: () => Promise<string>;
  connectTimeoutMs?: number;
  queryTimeoutMs?: number;
}

export type Queryable = Pick<pg.ClientBase, 'query'>;

export function teamClientConfig(options: TeamConnectionOptions, password: string): pg.ClientConfig {
  return {
    host: options.server.host,
    port: options.server.port,
    database: options.server.database,
    user: options.login,
    password,
    // verify-full: the chain up to the team CA, and the host name (or IP) in the certificate.
    ssl: { ca: options.caPem, rejectUnauthorized: true },
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    query_timeout: options.queryTimeoutMs ?? 60_000,
    keepAlive: true,
    application_name: 'ledgerdesk',
  };
}

export class TeamConnection {
  readonly #options: TeamConnectionOptions;
  #client: pg.Client | null = null;
  #connecting: Promise<pg.Client> | null = null;
  /** The end of the last `with` queued: callers take the one connection in turn. */
  #turn: Promise<unknown> = Promise.resolve();

  constructor(options: TeamConnectionOptions) {
    this.#options = options;
  }

  get serverName(): string {
    return describeServer(this.#options.server);
  }

  /** The open connection, opened if needed; failures are TeamProblems. */
  async client(): Promise<pg.Client> {
    if (this.#client !== null) return this.#client;
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = null;
    });
    return this.#connecting;
  }

  /**
   * Runs `use` on the connection, one caller at a time: a window's members list must not land
   * inside a push's transaction on the same connection. A failure that may have broken the
   * connection drops it for the next call.
   */
  with<Result>(use: (client: pg.Client) => Promise<Result>): Promise<Result> {
    const run = this.#turn.then(
      () => this.#use(use),
      () => this.#use(use),
    );
    this.#turn = run.catch(() => undefined);
    return run;
  }

  async #use<Result>(use: (client: pg.Client) => Promise<Result>): Promise<Result> {
    const client = await this.client();
    try {
      return await use(client);
    } catch (error) {
      const problem = teamProblemOf(error, this.serverName);
      if (problem.kind === 'unreachable') await this.close();
      throw problem;
    }
  }

  async close(): Promise<void> {
    const client = this.#client;
    this.#client = null;
    if (client !== null) await client.end().catch(() => undefined);
  }

  async #connect(): Promise<pg.Client> {
    const client = new pg.Client(teamClientConfig(this.#options, await this.#options.password()));
    // An idle connection that breaks must not crash the app: forget it, reconnect on next use.
    client.on('error', () => {
      if (this.#client === client) this.#client = null;
    });
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw teamProblemOf(error, this.serverName);
    }
    this.#client = client;
    return client;
  }
}
