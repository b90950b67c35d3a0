/**
 * Where profiles are kept: a small key-value store. In the app it is electron-store (the
 * shell passes its instance, whose get/set match this interface); in Node and the command
 * line it is FileProfileStorage, which writes the same `config.json` layout, so the app and
 * `ledger` share one set of profiles.
 */
export interface ProfileStorage {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

/** For tests: a ProfileStorage held in memory. */
export class InMemoryProfileStorage implements ProfileStorage {
  readonly #values = new Map<string, unknown>();

  get(key: string): unknown {
    const value = this.#values.get(key);
    return value === undefined ? undefined : structuredClone(value);
  }

  set(key: string, value: unknown): void {
    this.#values.set(key, structuredClone(value));
  }
}
