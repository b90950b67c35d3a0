/**
 * What team mode keeps in the OS keychain (through the project's SecretStore), per workspace,
 * officer and data folder: the login's password, the officer's Ed25519 and X25519 private keys,
 * and the anchor (the last head of the team's history this laptop verified). Nothing of these is
 * ever written to a file.
 *
 * Entries are named by the data folder and the login as well as the workspace (issue 38): two
 * officers of one team on one machine (two data folders, one keychain) keep their keys apart.
 * Builds before that named them by the workspace alone, so the second officer to join on a
 * machine overwrote the first one's keys; such entries are moved to the new names the first time
 * they are read, once they are known to be this officer's (their signing key is the one this
 * laptop's history gives its login), and a laptop whose entries another officer overwrote is told
 * so, instead of being sent to a server that would refuse its login.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { resolve } from 'node:path';
import type { SecretStore } from '../credentials/secretStore.ts';
import { fingerprint, privateKeyOfText, privateKeyText, rawPublicKey } from './crypto/officerKeys.ts';
import { TeamProblem } from './teamProblem.ts';

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

const WHATS = ['login', 'sign', 'box', 'anchor'] as const;
type What = (typeof WHATS)[number];

export interface TeamKeychainOwner {
  workspace: string;
  login: string;
  dataFolder: string;
  /**
   * This officer's signing key as the laptop's verified history (or its pins) give it, or null
   * when it holds none yet: what tells this officer's entries of an earlier build from another's.
   */
  expectedSignKey?: () => Buffer | null;
}

export class TeamKeychain {
  readonly #store: SecretStore;
  readonly #owner: TeamKeychainOwner;
  #moved: Promise<void> | null = null;

  constructor(store: SecretStore, owner: TeamKeychainOwner) {
    this.#store = store;
    this.#owner = { ...owner, dataFolder: resolve(owner.dataFolder) };
  }

  #account(what: What): string {
    const { workspace, login, dataFolder } = this.#owner;
    return `team:${workspace}:${login}@${dataFolder}:${what}`;
  }

  /** The name entries had before issue 38 (the workspace alone). */
  #legacyAccount(what: What): string {
    return `team:${this.#owner.workspace}:${what}`;
  }

  async #get(what: What): Promise<string | null> {
    await this.#moveLegacyEntries();
    return this.#store.get(this.#account(what));
  }

  async #set(what: What, value: string): Promise<void> {
    await this.#moveLegacyEntries();
    await this.#store.set(this.#account(what), value);
  }

  /** Moves an earlier build's entries to this officer's names, once, if they are this officer's. */
  #moveLegacyEntries(): Promise<void> {
    this.#moved ??= this.#move();
    return this.#moved;
  }

  async #move(): Promise<void> {
    if (await this.#store.has(this.#account('sign'))) return;
    const sign = await this.#store.get(this.#legacyAccount('sign'));
    if (sign === null) return;
    const expected = this.#owner.expectedSignKey?.() ?? null;
    const theirs = rawPublicKey(createPublicKey(privateKeyOfText(sign)));
    if (expected !== null && !theirs.equals(expected))
      throw new TeamProblem(
        'not-joined',
        `The keychain's team keys for ${this.#owner.workspace} are not ${this.#owner.login}'s: another officer who joined on this computer with an earlier Ledgerdesk overwrote them (their signing key is ${fingerprint(theirs)}, ${this.#owner.login}'s is ${fingerprint(expected)}). This data folder (${this.#owner.dataFolder}) cannot sign or log in as ${this.#owner.login} any more: ask a lead to remove ${this.#owner.login} and invite them again. Nothing of the team's record is lost; this laptop's actions not yet pushed stay in its outbox.`,
      );
    for (const what of WHATS) {
      const value = await this.#store.get(this.#legacyAccount(what));
      if (value !== null) await this.#store.set(this.#account(what), value);
    }
    // Read back before the old names go: a keychain that did not keep them loses nothing.
    for (const what of WHATS) {
      const old = await this.#store.get(this.#legacyAccount(what));
      if (old !== null && (await this.#store.get(this.#account(what))) !== old) return;
    }
    for (const what of WHATS) await this.#store.delete(this.#legacyAccount(what));
  }

  async password(): Promise<string> {
    const password = await this.#get('login');
    if (password === null)
      throw new TeamProblem(
        'not-joined',
        `The keychain holds no team login for ${this.#owner.login} in ${this.#owner.workspace} (data folder ${this.#owner.dataFolder}): join the team again with an invite.`,
      );
    return password;
  }

  setPassword(password: string): Promise<void> {
    return this.#set('login', password);
  }

  async saveKeys(keys: { signPrivate: KeyObject; boxPrivate: KeyObject }): Promise<void> {
    await this.#set('sign', privateKeyText(keys.signPrivate));
    await this.#set('box', privateKeyText(keys.boxPrivate));
  }

  async keys(): Promise<StoredOfficerKeys> {
    const sign = await this.#get('sign');
    const box = await this.#get('box');
    if (sign === null || box === null)
      throw new TeamProblem(
        'not-joined',
        `The keychain holds no team keys for ${this.#owner.login} in ${this.#owner.workspace} (data folder ${this.#owner.dataFolder}): this laptop cannot sign or open team notes.`,
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
    const text = await this.#get('anchor');
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
      `The team anchor in the keychain for ${this.#owner.workspace} is not one Ledgerdesk wrote.`,
    );
  }

  /** Moves the anchor forward only: an older head never replaces a newer one. */
  async advanceAnchor(anchor: TeamAnchor): Promise<void> {
    const current = await this.anchor();
    if (current !== null && current.seq >= anchor.seq) return;
    await this.#set('anchor', JSON.stringify({ v: 1, seq: anchor.seq, hash: anchor.hash }));
  }

  async forget(): Promise<void> {
    for (const what of WHATS) await this.#store.delete(this.#account(what));
  }
}
