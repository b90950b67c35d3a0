/**
 * What every bank-facing handler file shares: the services they are wired to, the one way
 * to reach them (with the reason when they could not open), and the small adapters more than
 * one domain uses. Each `<domain>Handlers.ts` answers for one domain of the contract.
 */
import type { LedgerServices } from '../services/ledgerServices.ts';
import type { Credentials } from '../services/credentials/credentials.ts';
import type { KeychainStatus } from '../services/credentials/keychainStatus.ts';
import type { EventPublisher } from './eventPublisher.ts';
import { IpcFailure } from './serviceErrors.ts';

interface AppIdentity {
  name: string;
  version: string;
  platform: string;
  dataFolder: string;
}

export interface LedgerHandlerServices {
  /** Null when the services could not open (the reason is `ledgerProblem`). */
  ledger: LedgerServices | null;
  ledgerProblem: string | null;
  /**
   * The keychain's view of the record's key, for the record's backups: there even when the
   * services did not open (a damaged record). None: the open services' own.
   */
  recordCredentials?: () => Credentials;
  app: AppIdentity;
  sandboxUrl(): string | null;
  keychain(): Promise<KeychainStatus>;
  activeProfile: { get(): string | null; set(profileId: string): void };
  /** Asks where to save (main's own dialog); null when cancelled. */
  chooseSavePath(defaultName: string): Promise<string | null>;
  /** Opens a URL in the browser after the shell's check; false when refused. */
  openLink: (url: string) => boolean;
  publisher?: EventPublisher;
  /** Adds a secret to those the router searches every reply for (main's memory only). */
  rememberSecret?: (secret: string) => void;
  now?: () => Date;
}

/** The running services, or `not_available` saying why they are not running. */
export function ledgerOf(services: Pick<LedgerHandlerServices, 'ledger' | 'ledgerProblem'>): LedgerServices {
  if (services.ledger === null) {
    throw new IpcFailure(
      'not_available',
      services.ledgerProblem ?? 'The offline cache and bank services are not running.',
      { action: 'Check the keychain status in Settings, then restart Ledgerdesk.' },
    );
  }
  return services.ledger;
}

/** The clock handlers stamp with (injected in tests). */
export function clockOf(services: Pick<LedgerHandlerServices, 'now'>): () => Date {
  return services.now ?? (() => new Date());
}

/** Records a successful user action in the audit log, under the profile's current name. */
export function recordAction(ledger: LedgerServices, profileId: string, action: string, target: string): void {
  const profile = ledger.profiles.find(profileId);
  ledger.cache.audit.record({ profileId: profile.id, profileName: profile.name, action, target, result: 'ok' });
}

/** A search of only spaces is no search. */
export function searchOf(search: string | undefined): { search?: string } {
  return search === undefined || search.trim() === '' ? {} : { search: search.trim() };
}

export function direction(sortDirection: 'asc' | 'desc' | undefined): 'newest' | 'oldest' {
  return sortDirection === 'asc' ? 'oldest' : 'newest';
}

export function notSupported(field: string, what: string): never {
  throw new IpcFailure('not_available', `${what} is not available yet.`, { field });
}
