/**
 * Where secrets live: the OS keychain in the app, an in-memory store in tests. Every
 * secret of Ledgerdesk (API key secrets, bearer tokens, listener Basic secrets, the cache's
 * data key) goes through this interface and nowhere else; a value leaves this layer only
 * inside an Authorization header or the cache's cipher.
 *
 * `account` names the entry inside the service `Ledgerdesk`, for example
 * `profile:<profileId>`, `listener:<listenerId>` or `cache:data-key`.
 */
export interface SecretStore {
  /** The stored secret, or null when there is none. */
  get(account: string): Promise<string | null>;
  /** Set or replace. */
  set(account: string, secret: string): Promise<void>;
  /** Remove; true when something was removed. */
  delete(account: string): Promise<boolean>;
  /** Whether a secret is set, without reading it out. */
  has(account: string): Promise<boolean>;
}

/** A SecretStore held in memory: for tests, and never used by the app itself. */
export class InMemorySecretStore implements SecretStore {
  readonly #secrets = new Map<string, string>();

  get(account: string): Promise<string | null> {
    return Promise.resolve(this.#secrets.get(account) ?? null);
  }

  set(account: string, secret: string): Promise<void> {
    this.#secrets.set(account, secret);
    return Promise.resolve();
  }

  delete(account: string): Promise<boolean> {
    return Promise.resolve(this.#secrets.delete(account));
  }

  has(account: string): Promise<boolean> {
    return Promise.resolve(this.#secrets.has(account));
  }
}
