/**
 * TEST ONLY: a SecretStore in a JSON file inside a test's temp folder, so a child process
 * killed with `kill -9` and its successor see the same secrets where no Secret Service runs.
 * The app never uses this; it exists only under tests/.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { SecretStore } from '../../../../src/main/services/credentials/secretStore.ts';

export class JsonFileSecretStore implements SecretStore {
  readonly #file: string;

  constructor(file: string) {
    this.#file = file;
  }

  get(account: string): Promise<string | null> {
    return Promise.resolve(this.#read()[account] ?? null);
  }

  set(account: string, secret: string): Promise<void> {
    const all = this.#read();
    all[account] = secret;
    writeFileSync(this.#file, JSON.stringify(all), { mode: 0o600 });
    return Promise.resolve();
  }

  delete(account: string): Promise<boolean> {
    const all = this.#read();
    const had = account in all;
    const { [account]: _removed, ...rest } = all;
    writeFileSync(this.#file, JSON.stringify(rest), { mode: 0o600 });
    return Promise.resolve(had);
  }

  has(account: string): Promise<boolean> {
    return Promise.resolve(account in this.#read());
  }

  #read(): Record<string, string> {
    return existsSync(this.#file) ? (JSON.parse(readFileSync(this.#file, 'utf8')) as Record<string, string>) : {};
  }
}
