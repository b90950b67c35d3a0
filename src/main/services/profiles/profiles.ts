/**
 * The profiles: list, add, change, remove. The embedded sandbox profile is created on first
 * use and cannot be removed, so the app always has somewhere to point. Secrets are not
 * handled here: removing a profile's secret is the caller's job (see ledgerServices.ts),
 * because only the credentials layer touches the keychain.
 */
import type { WriteConfirmer } from '../writes/writeConfirmer.ts';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { parseOrThrow, parseWith } from '../../../shared/bank/index.ts';
import {
  EMBEDDED_SANDBOX_PROFILE_ID,
  newRemoteProfile,
  profile as profileSchema,
  profileChanges,
  type NewRemoteProfile,
  type Profile,
  type ProfileChanges,
  screeningThreshold,
} from './profile.ts';
import type { ProfileStorage } from './profileStorage.ts';
import { exportDisclosure, type DisclosureClass } from '../../../shared/personalData/exportDisclosure.ts';
import type { ContractAnswer } from '../../../shared/ipc/contractAnswer.ts';

const STORAGE_KEY = 'profiles';

export class ProfileNotFound extends Error {
  constructor(nameOrId: string) {
    super(`There is no profile named ${nameOrId}; see the list of profiles.`);
    this.name = 'ProfileNotFound';
  }

  get answer(): ContractAnswer {
    return { code: 'not_found', field: 'profileId' };
  }
}

export class ProfileRefused extends Error {
  /** The input field the refusal is about, when there is one (a taken name: `name`). */
  readonly field?: string;
  constructor(message: string, field?: string) {
    super(message);
    this.name = 'ProfileRefused';
    if (field !== undefined) this.field = field;
  }

  get answer(): ContractAnswer {
    return { code: 'conflict', ...(this.field === undefined ? {} : { field: this.field }) };
  }
}

/** A write against a production profile that the caller did not explicitly confirm. */
export class ProductionWriteNotConfirmed extends Error {
  readonly profileName: string;
  constructor(profileName: string, action: string) {
    super(`Profile ${profileName} is a production profile: confirm "${action}" explicitly to send it.`);
    this.name = 'ProductionWriteNotConfirmed';
    this.profileName = profileName;
  }

  get answer(): ContractAnswer {
    return {
      code: 'confirmation_required',
      field: 'confirmProduction',
      action: 'Confirm that you mean to change the Production bank, then send it again.',
    };
  }
}

/** Every write against a production profile needs `confirmed: true` from the caller. */
export function requireWriteConfirmation(profile: Profile, action: string, confirmed: boolean | undefined): void {
  if (profile.production && confirmed !== true) throw new ProductionWriteNotConfirmed(profile.name, action);
}

/**
 * The caller's flag first (the window asked), then, when main has a WriteConfirmer, the user's
 * own answer to main's question (review I1): a renderer's flag alone never sends to Production.
 */
export async function confirmProductionWrite(
  profile: Profile,
  action: string,
  target: string | null,
  confirmed: boolean | undefined,
  confirmer: WriteConfirmer | null,
): Promise<void> {
  requireWriteConfirmation(profile, action, confirmed);
  if (!profile.production || confirmer === null) return;
  if (!(await confirmer.confirm({ profileName: profile.name, action, target }))) {
    throw new ProductionWriteNotConfirmed(profile.name, action);
  }
}

export class Profiles {
  readonly #storage: ProfileStorage;
  readonly #now: () => Date;

  constructor(storage: ProfileStorage, now: () => Date = () => new Date()) {
    this.#storage = storage;
    this.#now = now;
  }

  /** Every profile, the embedded sandbox first (created here on first use). */
  list(): Profile[] {
    const stored = this.#read();
    if (stored.some((entry) => entry.id === EMBEDDED_SANDBOX_PROFILE_ID)) return stored;
    const moment = this.#now().toISOString();
    const embedded: Profile = {
      id: EMBEDDED_SANDBOX_PROFILE_ID,
      name: 'Local sandbox',
      kind: 'embedded-sandbox',
      baseUrl: null,
      authScheme: 'basic',
      keyId: null,
      production: false,
      createdAt: moment,
      updatedAt: moment,
    };
    const all = [embedded, ...stored];
    this.#write(all);
    return all;
  }

  /** By id, or by name (case-insensitive). */
  find(nameOrId: string): Profile {
    const wanted = nameOrId.toLowerCase();
    const found =
      this.list().find((entry) => entry.id === nameOrId) ??
      this.list().find((entry) => entry.name.toLowerCase() === wanted);
    if (found === undefined) throw new ProfileNotFound(nameOrId);
    return found;
  }

  addRemote(input: NewRemoteProfile): Profile {
    const valid = parseOrThrow(newRemoteProfile, input, 'New profile');
    const all = this.list();
    this.#refuseTakenName(all, valid.name);
    const moment = this.#now().toISOString();
    const added: Profile = {
      id: `prof_${randomUUID()}`,
      name: valid.name,
      kind: 'remote',
      baseUrl: valid.baseUrl.replace(/\/+$/, ''),
      authScheme: valid.authScheme,
      keyId: valid.keyId ?? null,
      production: valid.production,
      createdAt: moment,
      updatedAt: moment,
      ...(valid.network === undefined ? {} : { network: valid.network }),
    };
    this.#write([...all, added]);
    return added;
  }

  update(nameOrId: string, changes: ProfileChanges): Profile {
    const valid = parseOrThrow(profileChanges, changes, 'Profile changes');
    const current = this.find(nameOrId);
    if (current.kind === 'embedded-sandbox' && (valid.baseUrl !== undefined || valid.keyId !== undefined)) {
      throw new ProfileRefused(
        'The embedded sandbox chooses its own address and key; only its name and its lean shapes can change.',
      );
    }
    if (current.kind === 'embedded-sandbox' && valid.network !== undefined) {
      throw new ProfileRefused(
        'The embedded sandbox is a process of this app on this machine: it is always reached directly, with no proxy or CA bundle.',
      );
    }
    if (current.kind !== 'embedded-sandbox' && valid.lean !== undefined) {
      throw new ProfileRefused(`Only the embedded sandbox answers lean; ${current.name} is a real bank.`);
    }
    if (current.authScheme === 'bearer' && valid.keyId !== undefined) {
      throw new ProfileRefused(`Profile ${current.name} uses a Bearer token and has no key id.`);
    }
    const all = this.list();
    if (valid.name !== undefined && valid.name.toLowerCase() !== current.name.toLowerCase()) {
      this.#refuseTakenName(all, valid.name);
    }
    const updated: Profile = {
      ...current,
      ...(valid.name === undefined ? {} : { name: valid.name }),
      ...(valid.baseUrl === undefined ? {} : { baseUrl: valid.baseUrl.replace(/\/+$/, '') }),
      ...(valid.keyId === undefined ? {} : { keyId: valid.keyId }),
      ...(valid.production === undefined ? {} : { production: valid.production }),
      ...(valid.lean === undefined ? {} : { lean: valid.lean }),
      ...(valid.network === undefined ? {} : { network: valid.network }),
      updatedAt: this.#now().toISOString(),
    };
    this.#write(all.map((entry) => (entry.id === current.id ? updated : entry)));
    return updated;
  }

  /**
   * Records that the profile's secret was dropped and why (null: a new secret was entered,
   * nothing is missing any more). Only the credentials flow calls this.
   */
  setSecretDropped(nameOrId: string, reason: string | null): Profile {
    const current = this.find(nameOrId);
    const { secretDropped: _previous, ...rest } = current;
    const updated: Profile = reason === null ? rest : { ...rest, secretDropped: reason };
    this.#write(this.list().map((entry) => (entry.id === current.id ? updated : entry)));
    return updated;
  }

  /** What the profile's exports and reports may print unmasked (empty: nothing, the default). */
  setExportUnmasked(nameOrId: string, classes: readonly DisclosureClass[]): Profile {
    const valid = parseOrThrow(exportDisclosure, classes, 'Fields shown unmasked in exports');
    const current = this.find(nameOrId);
    const { exportUnmasked: _previous, ...rest } = current;
    const updated: Profile = {
      ...rest,
      ...(valid.length === 0 ? {} : { exportUnmasked: valid }),
      updatedAt: this.#now().toISOString(),
    };
    this.#write(this.list().map((entry) => (entry.id === current.id ? updated : entry)));
    return updated;
  }

  /** The profile's screening threshold (null: back to the default). */
  setScreeningThreshold(nameOrId: string, threshold: number | null): Profile {
    const valid = threshold === null ? null : parseOrThrow(screeningThreshold, threshold, 'Screening threshold');
    const current = this.find(nameOrId);
    const { screeningThreshold: _previous, ...rest } = current;
    const updated: Profile = {
      ...rest,
      ...(valid === null ? {} : { screeningThreshold: valid }),
      updatedAt: this.#now().toISOString(),
    };
    this.#write(this.list().map((entry) => (entry.id === current.id ? updated : entry)));
    return updated;
  }

  remove(nameOrId: string): Profile {
    const current = this.find(nameOrId);
    if (current.kind === 'embedded-sandbox') {
      throw new ProfileRefused('The embedded sandbox profile is the default and cannot be removed.');
    }
    this.#write(this.list().filter((entry) => entry.id !== current.id));
    return current;
  }

  #refuseTakenName(all: readonly Profile[], name: string): void {
    if (all.some((entry) => entry.name.toLowerCase() === name.toLowerCase())) {
      throw new ProfileRefused(`A profile named ${name} already exists.`, 'name');
    }
  }

  #read(): Profile[] {
    const stored = this.#storage.get(STORAGE_KEY);
    if (stored === undefined) return [];
    const parsed = parseWith(z.array(profileSchema), stored);
    if (!parsed.ok) {
      throw new ProfileRefused(`The stored profiles are damaged (${parsed.problems.join('; ')}); fix or remove them.`);
    }
    return parsed.value;
  }

  #write(all: readonly Profile[]): void {
    this.#storage.set(STORAGE_KEY, all);
  }
}
