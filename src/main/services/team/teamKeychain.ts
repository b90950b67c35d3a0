/**
 * What team mode keeps in the OS keychain (through the project's SecretStore), per workspace:
 * the login's password, the officer's Ed25519 and X25519 private keys, and the anchor (the last
 * head of the team's history this laptop verified). Nothing of these is ever written to a file.
 */
import type { KeyObject } from 'node:crypto';
import type { SecretStore } from '../credentials/secretStore.ts';
import { privateKeyOfText, privateKeyText, rawPublicKey } from './crypto/officerKeys.ts';
import { TeamProblem } from './teamProblem.ts';
import { createPublicKey } from 'node:crypto';

export interface TeamAnchor {
  seq: number;
  hash: string;
}

export interface StoredOfficerKeys {
  signPrivate: KeyObject;
  signPublic: Buffer;
  boxPrivate: KeyObject;
  boxPublic: Buffer;
}

export class TeamKeychain {
  readonly #store: SecretStore;
  readonly #workspace: string;

  constructor(store: SecretStore, workspace: string) {
    this.#store = store;
    this.#workspace = workspace;
  }

  #account(what: string): string {
    return `team:${this.#workspace}:${what}`;
  }

  async password(): Promise<string> {
    const password = await this.#store.get(this.#account('login'));
    if (password === null)
      throw new TeamProblem(
        'not-joined',
        `The keychain holds no team login for ${this.#workspace}: join the team again with an invite.`,
      );
    return password;
  }

  setPassword(password: string): Promise<void> {
    return this.#store.set(this.#account('login'), password);
  }

  async saveKeys(keys: { signPrivate: KeyObject; boxPrivate: KeyObject }): Promise<void> {
    await this.#store.set(this.#account('sign'), privateKeyText(keys.signPrivate));
    await this.#store.set(this.#account('box'), privateKeyText(keys.boxPrivate));
  }

  async keys(): Promise<StoredOfficerKeys> {
    const sign = await this.#store.get(this.#account('sign'));
    const box = await this.#store.get(this.#account('box'));
    if (sign === null || box === null)
      throw new TeamProblem(
        'not-joined',
        `The keychain holds no team keys for ${this.#workspace}: this laptop cannot sign or open team notes.`,
      );
    const signPrivate = privateKeyOfText(sign);
    const boxPrivate = privateKeyOfText(box);
    return {
      signPrivate,
      signPublic: rawPublicKey(createPublicKey(signPrivate)),
      boxPrivate,
      boxPublic: rawPublicKey(createPublicKey(boxPrivate)),
    };
  }

  async anchor(): Promise<TeamAnchor | null> {
    const text = await this.#store.get(this.#account('anchor'));
    if (text === null) return null;
    try {
      const value = JSON.parse(text) as { v?: unknown; seq?: unknown; hash?: unknown };
      if (
        value.v === 1 &&
        Number.isSafeInteger(value.seq) &&
        typeof value.hash === 'string' &&
        /^[0-9a-f]{64}$/.test(value.hash)
      )
        return { seq: value.seq as number, hash: value.hash };
    } catch {
      // Unreadable: reported below as an anchor that is not one this version wrote.
    }
    throw new TeamProblem(
      'tampered',
      `The team anchor in the keychain for ${this.#workspace} is not one Ledgerdesk wrote.`,
    );
  }

  /** Moves the anchor forward only: an older head never replaces a newer one. */
  async advanceAnchor(anchor: TeamAnchor): Promise<void> {
    const current = await this.anchor();
    if (current !== null && current.seq >= anchor.seq) return;
    await this.#store.set(this.#account('anchor'), JSON.stringify({ v: 1, seq: anchor.seq, hash: anchor.hash }));
  }

  async forget(): Promise<void> {
    for (const what of ['login', 'sign', 'box', 'anchor']) await this.#store.delete(this.#account(what));
  }
}
