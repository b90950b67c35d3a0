/**
 * The SecretStore of the app: the OS keychain through @napi-rs/keyring, service
 * `Ledgerdesk`, one entry per account (`profile:<id>`, `listener:<id>`, `cache:data-key:<id>`).
 * A keychain failure is a KeychainUnavailable error that carries the status to show; the
 * secret's value is never part of an error.
 */
import { AsyncEntry } from '@napi-rs/keyring';
import {
  describeKeychainFailure,
  KEYCHAIN_SERVICE,
  keyringEntryOptions,
  type KeychainStatus,
} from './keychainStatus.ts';
import type { SecretStore } from './secretStore.ts';
import type { ContractAnswer } from '../../../shared/ipc/contractAnswer.ts';

export class KeychainUnavailable extends Error {
  readonly status: Extract<KeychainStatus, { available: false }>;
  constructor(status: Extract<KeychainStatus, { available: false }>) {
    super(`${status.message} ${status.remedy}`);
    this.name = 'KeychainUnavailable';
    this.status = status;
  }

  get answer(): ContractAnswer {
    return { code: 'keychain_unavailable', action: this.status.remedy };
  }
}

export class KeyringSecretStore implements SecretStore {
  readonly service: string;

  constructor(service: string = KEYCHAIN_SERVICE) {
    this.service = service;
  }

  async get(account: string): Promise<string | null> {
    return this.#with(account, (entry) => entry.getPassword());
  }

  async set(account: string, secret: string): Promise<void> {
    if (secret === '') throw new Error('A secret cannot be empty.');
    await this.#with(account, (entry) => entry.setPassword(secret));
  }

  async delete(account: string): Promise<boolean> {
    return this.#with(account, (entry) => entry.deleteCredential());
  }

  async has(account: string): Promise<boolean> {
    return (await this.get(account)) !== null;
  }

  async #with<Result>(account: string, use: (entry: AsyncEntry) => Promise<Result>): Promise<Result> {
    try {
      // The constructor itself fails on Linux when no Secret Service can be reached.
      return await use(new AsyncEntry(this.service, account, keyringEntryOptions()));
    } catch (error) {
      throw new KeychainUnavailable(describeKeychainFailure(error));
    }
  }
}
