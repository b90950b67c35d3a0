/**
 * Handlers of the bank-facing domains, wired to the services (src/main/services): profiles,
 * credentials, the cache reads, the writes, sync, exports, the audit log and the app. Each
 * adapts the contract's input to a service call and the service's answer to the contract's
 * output; the router validates both sides. Where the services do not offer something yet,
 * the handler says so with `not_available` rather than pretending.
 */
import { stat } from 'node:fs/promises';
import type {
  SyncJob as ContractSyncJob,
  SyncKind,
  SyncProgress as ContractProgress,
} from '../../shared/ipc/domains/sync.ts';
import type { Profile as ContractProfile } from '../../shared/ipc/domains/profiles.ts';
import type { CredentialStatus, KeychainStatus as ContractKeychain } from '../../shared/ipc/domains/credentials.ts';
import type { OnlineStatus } from '../../shared/ipc/domains/app.ts';
import type { AuditEntry as ContractAuditEntry } from '../../shared/ipc/domains/audit.ts';
import type { LedgerServices } from '../services/ledgerServices.ts';
import type { Profile as ServiceProfile } from '../services/profiles/profile.ts';
import { EMBEDDED_SANDBOX_PROFILE_ID, profileAttention } from '../services/profiles/profile.ts';
import { maskedBaseUrl, originOf } from '../../shared/profiles/profileFields.ts';
import type { KeychainStatus } from '../services/credentials/keychainStatus.ts';
import type { SyncRequest } from '../services/sync/syncService.ts';
import type { SyncProgress as ServiceProgress } from '../services/sync/syncProgress.ts';
import type { ConnectivityState } from '../services/sync/connectivity.ts';
import type { AuditEntry } from '../services/audit/auditLog.ts';
import type { PendingTransactionSort } from '../services/cache/pendingTransactionsTable.ts';
import type { AccountApplicationSort } from '../services/cache/accountApplicationsTable.ts';
import type { WebhookSendQuery, WebhookSendSort } from '../services/cache/webhookSendsTable.ts';
import type { WebhookSendStatus } from '../../shared/bank/index.ts';
import { notificationRef, type ReviewFilter } from '../../shared/review/reviewTerms.ts';
import { withReviews } from '../services/review/reviewColumn.ts';
import type { EventPublisher } from './eventPublisher.ts';
import { exportRows } from './fileExport.ts';
import type { Handlers } from './handlerTypes.ts';
import { IpcFailure } from './serviceErrors.ts';

export interface AppIdentity {
  name: string;
  version: string;
  platform: string;
  dataFolder: string;
}

export interface LedgerHandlerServices {
  /** Null when the services could not open (the reason is `ledgerProblem`). */
  ledger: LedgerServices | null;
  ledgerProblem: string | null;
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

type LedgerDomains =
  | 'app'
  | 'profiles'
  | 'credentials'
  | 'accounts'
  | 'pendingTransactions'
  | 'accountApplications'
  | 'webhooks'
  | 'webhookSends'
  | 'documents'
  | 'files'
  | 'cardArt'
  | 'sync'
  | 'exports'
  | 'audit'
  | 'cache';

export type LedgerHandlers = Pick<Handlers, LedgerDomains>;

const SYNC_KIND_NAMES: Record<ServiceProgress['kind'], SyncKind> = {
  'pending-transactions': 'pendingTransactions',
  'webhook-sends': 'webhookSends',
  'account-application': 'accountApplication',
  applications: 'applications',
  webhooks: 'webhooks',
};

/** The profile a sync key belongs to: keys are `<kind>/<profileId>/…`. */
function profileOfKey(key: string): string | undefined {
  return key.split('/')[1];
}

export function toContractProgress(progress: ServiceProgress): ContractProgress {
  const profileId = profileOfKey(progress.key);
  return {
    jobId: progress.jobId,
    ...(profileId === undefined ? {} : { profileId }),
    kind: SYNC_KIND_NAMES[progress.kind],
    key: progress.key,
    fetched: progress.fetched,
    written: progress.written,
    pages: progress.pages,
    windowsDone: progress.windowsDone,
    windowsTotal: progress.windowsTotal,
    parallelism: progress.parallelism,
    ratePerSecond: progress.ratePerSecond,
    etaSeconds: progress.etaSeconds,
    state: progress.state,
    ...(progress.error === undefined ? {} : { error: progress.error }),
  };
}

export function toOnlineStatus(profileId: string, state: ConnectivityState, now: Date): OnlineStatus {
  const nextCheck =
    state.nextCheckAt === null ? null : Math.max(0, (Date.parse(state.nextCheckAt) - now.getTime()) / 1000);
  return {
    profileId,
    state: state.status,
    checkedAt: state.since,
    reason: state.reason,
    nextCheckSeconds: nextCheck === null || Number.isNaN(nextCheck) ? null : Math.round(nextCheck),
  };
}

function toSyncRequest(profileId: string, job: ContractSyncJob): SyncRequest {
  switch (job.kind) {
    case 'pendingTransactions':
      return {
        kind: 'pending-transactions',
        profileId,
        accountId: job.accountId,
        ...(job.fromDate === undefined ? {} : { fromDate: job.fromDate }),
        ...(job.toDate === undefined ? {} : { toDate: job.toDate }),
      };
    case 'webhookSends':
      return {
        kind: 'webhook-sends',
        profileId,
        ...(job.webhookId === undefined ? {} : { webhookId: job.webhookId }),
        ...(job.objectId === undefined ? {} : { objectId: job.objectId }),
        ...(job.status === undefined ? {} : { status: job.status }),
      };
    case 'accountApplication':
      return { kind: 'account-application', profileId, applicationId: job.id };
    case 'applications':
      return {
        kind: 'applications',
        profileId,
        ...(job.status === undefined ? {} : { status: job.status }),
        ...(job.fromDate === undefined ? {} : { fromDate: job.fromDate }),
        ...(job.toDate === undefined ? {} : { toDate: job.toDate }),
      };
    case 'webhooks':
      return { kind: 'webhooks', profileId };
  }
}

function notSupported(field: string, what: string): never {
  throw new IpcFailure('not_available', `${what} is not available yet.`, { field });
}

function toAuditEntry(entry: AuditEntry): ContractAuditEntry {
  return {
    id: String(entry.id),
    at: entry.at,
    profileId: entry.profileId,
    profileName: entry.profileName,
    action: entry.action,
    target: entry.target,
    result: entry.result,
    message: entry.detail,
  };
}

function direction(sortDirection: 'asc' | 'desc' | undefined): 'newest' | 'oldest' {
  return sortDirection === 'asc' ? 'oldest' : 'newest';
}

function pendingSort(
  sortBy: 'date' | 'amount' | undefined,
  sortDirection: 'asc' | 'desc' | undefined,
): PendingTransactionSort {
  if (sortBy === 'amount') return sortDirection === 'asc' ? 'smallest' : 'largest';
  return direction(sortDirection);
}

function applicationSort(
  sortBy: 'updated_at' | 'created_at' | 'status' | undefined,
  sortDirection: 'asc' | 'desc' | undefined,
): AccountApplicationSort {
  if (sortBy === 'status') return sortDirection === 'desc' ? 'status-descending' : 'status-ascending';
  if (sortBy === 'updated_at') return sortDirection === 'asc' ? 'updated-oldest' : 'updated-newest';
  return direction(sortDirection);
}

function sendSort(
  sortBy: 'created_at' | 'attempt_number' | undefined,
  sortDirection: 'asc' | 'desc' | undefined,
): WebhookSendSort {
  if (sortBy === 'attempt_number') return sortDirection === 'asc' ? 'lowest-attempt' : 'highest-attempt';
  return direction(sortDirection);
}

/** A search of only spaces is no search. */
function searchOf(search: string | undefined): { search?: string } {
  return search === undefined || search.trim() === '' ? {} : { search: search.trim() };
}

function sendFilterOf(input: {
  profileId: string;
  webhookId?: string | undefined;
  objectId?: string | undefined;
  status?: WebhookSendStatus | undefined;
  event?: string | undefined;
  willRetry?: boolean | undefined;
  fromDate?: string | undefined;
  toDate?: string | undefined;
  search?: string | undefined;
  review?: ReviewFilter | undefined;
}): WebhookSendQuery {
  return {
    profileId: input.profileId,
    ...(input.webhookId === undefined ? {} : { webhookId: input.webhookId }),
    ...(input.objectId === undefined ? {} : { objectId: input.objectId }),
    ...(input.status === undefined ? {} : { status: input.status }),
    ...(input.event === undefined ? {} : { event: input.event }),
    ...(input.willRetry === undefined ? {} : { willRetry: input.willRetry }),
    ...(input.fromDate === undefined ? {} : { fromDate: input.fromDate }),
    ...(input.toDate === undefined ? {} : { toDate: input.toDate }),
    ...(input.review === undefined ? {} : { review: input.review }),
    ...searchOf(input.search),
  };
}

function fileStamp(now: Date): string {
  return now.toISOString().slice(0, 19).replaceAll(':', '-');
}

export function createLedgerHandlers(services: LedgerHandlerServices): LedgerHandlers {
  const now = services.now ?? (() => new Date());

  function ledger(): LedgerServices {
    if (services.ledger === null) {
      throw new IpcFailure(
        'not_available',
        services.ledgerProblem ?? 'The offline cache and bank services are not running.',
        { action: 'Check the keychain status in Settings, then restart Ledgerdesk.' },
      );
    }
    return services.ledger;
  }

  function toProfile(profile: ServiceProfile): ContractProfile {
    const attention = profileAttention(profile);
    return {
      id: profile.id,
      name: profile.name,
      kind: profile.kind === 'embedded-sandbox' ? 'embedded' : 'remote',
      baseUrl: maskedBaseUrl(profile.baseUrl ?? services.sandboxUrl() ?? ''),
      authScheme: profile.authScheme,
      keyId: profile.keyId,
      production: profile.production,
      createdAt: profile.createdAt,
      updatedAt: profile.updatedAt,
      attention:
        attention !== null
          ? { kind: 'needs-attention', message: `${attention} Give it an https:// address, or remove it.` }
          : profile.secretDropped !== undefined
            ? {
                kind: 'needs-secret-again',
                message: `${profile.name} needs its secret again: ${profile.secretDropped}. Nothing is sent until it is entered.`,
              }
            : null,
    };
  }

  function profileList() {
    const profiles = ledger().profiles.list();
    const wanted = services.activeProfile.get();
    const active = profiles.find((profile) => profile.id === wanted) ?? profiles[0];
    return { profiles: profiles.map(toProfile), activeProfileId: active?.id ?? null };
  }

  async function credentialStatus(profileId: string): Promise<CredentialStatus> {
    const profile = ledger().profiles.find(profileId);
    if (profile.kind === 'embedded-sandbox') {
      return { profileId: profile.id, state: 'set', message: 'The embedded sandbox uses its own demo key.' };
    }
    const keychain = await services.keychain();
    if (!keychain.available) return { profileId: profile.id, state: 'unavailable', message: keychain.message };
    const state = await ledger().credentials.profileSecretState(profile);
    const what = profile.authScheme === 'bearer' ? 'token' : 'API key secret';
    const messages = {
      set: null,
      missing:
        profile.secretDropped === undefined
          ? `No ${what} is stored for ${profile.name}.`
          : `${profile.name} needs its ${what} again: ${profile.secretDropped}.`,
      'needs-reentry': `${profile.name} needs its ${what} again: the stored one was entered for another address or scheme, and is never sent.`,
    };
    return { profileId: profile.id, state, message: messages[state] };
  }

  function publishCredentialStatus(status: CredentialStatus): CredentialStatus {
    services.publisher?.publish('credentials', 'status', status);
    return status;
  }

  function audit(profileId: string, action: string, target: string): void {
    const profile = ledger().profiles.find(profileId);
    ledger().cache.audit.record({ profileId: profile.id, profileName: profile.name, action, target, result: 'ok' });
  }

  async function saveExport(
    defaultName: string,
    format: 'csv' | 'jsonl',
    readPage: (cursor: string | null) => { rows: unknown[]; nextCursor: string | null },
  ) {
    const path = await services.chooseSavePath(`${defaultName}-${fileStamp(now())}.${format}`);
    if (path === null) return { saved: false, path: null, rows: 0 };
    const rows = await exportRows(path, format, readPage);
    return { saved: true, path, rows };
  }

  return {
    app: {
      info: () => ({ ...services.app, sandboxUrl: services.sandboxUrl() }),
      onlineStatus: ({ profileId }) => {
        const profile = ledger().profiles.find(profileId);
        return toOnlineStatus(profile.id, ledger().clients.connectivityOf(profile.id).state, now());
      },
    },

    profiles: {
      list: () => profileList(),
      create: (input) => {
        const added = ledger().profiles.addRemote({
          name: input.name,
          baseUrl: input.baseUrl,
          authScheme: input.authScheme,
          ...(input.keyId === undefined ? {} : { keyId: input.keyId }),
          production: input.production,
        });
        audit(added.id, 'profile.add', added.id);
        return toProfile(added);
      },
      update: async (input) => {
        const current = ledger().profiles.find(input.id);
        if (input.authScheme !== undefined && input.authScheme !== current.authScheme) {
          throw new IpcFailure(
            'invalid_input',
            'The auth scheme of a profile cannot change: add a new profile instead.',
            {
              field: 'authScheme',
            },
          );
        }
        if (input.keyId === null) {
          throw new IpcFailure('invalid_input', 'keyId: a Basic profile needs its API key id.', { field: 'keyId' });
        }
        if (current.production && input.production === false && input.confirmProduction !== true) {
          throw new IpcFailure(
            'confirmation_required',
            `Switching the Production guard off for ${current.name} lets writes go out without a confirmation.`,
            { field: 'confirmProduction', action: 'Confirm that you mean to switch the guard off, then save again.' },
          );
        }
        const movesOrigin =
          current.kind === 'remote' &&
          input.baseUrl !== undefined &&
          originOf(input.baseUrl) !== (current.baseUrl === null ? null : originOf(current.baseUrl));
        if (movesOrigin && input.confirmSecretDrop !== true) {
          throw new IpcFailure(
            'confirmation_required',
            `A new address for ${current.name} drops its stored secret: it is never sent to another host.`,
            { field: 'confirmSecretDrop', action: 'Confirm, then enter the secret for the new address.' },
          );
        }
        const { profile: updated } = await ledger().updateProfile(current.id, {
          ...(input.name === undefined ? {} : { name: input.name }),
          ...(input.baseUrl === undefined ? {} : { baseUrl: input.baseUrl }),
          ...(input.keyId === undefined ? {} : { keyId: input.keyId }),
          ...(input.production === undefined ? {} : { production: input.production }),
        });
        if (movesOrigin) publishCredentialStatus(await credentialStatus(updated.id));
        return toProfile(updated);
      },
      remove: async ({ id }) => {
        const profile = ledger().profiles.find(id);
        if (profile.kind === 'embedded-sandbox') {
          throw new IpcFailure('conflict', 'The embedded sandbox profile is built in and cannot be removed.');
        }
        await ledger().removeProfile(profile.id);
        if (services.activeProfile.get() === profile.id) services.activeProfile.set(EMBEDDED_SANDBOX_PROFILE_ID);
        return { removed: true };
      },
      setActive: ({ id }) => {
        services.activeProfile.set(ledger().profiles.find(id).id);
        return profileList();
      },
      testConnection: async ({ id }) => {
        const profile = ledger().profiles.find(id);
        const started = performance.now();
        try {
          await ledger().clients.clientFor(profile.id).checkConnection();
          return {
            profileId: profile.id,
            ok: true,
            latencyMs: Math.round(performance.now() - started),
            message: 'Connected.',
          };
        } catch (error) {
          return {
            profileId: profile.id,
            ok: false,
            latencyMs: null,
            message: error instanceof Error ? error.message : 'The bank did not answer.',
          };
        }
      },
    },

    credentials: {
      status: ({ profileId }) => credentialStatus(profileId),
      keychain: async (): Promise<ContractKeychain> => {
        const status = await services.keychain();
        return status.available
          ? { available: true, backend: status.backend, problem: null, remedy: null }
          : { available: false, backend: status.problem, problem: status.message, remedy: status.remedy };
      },
      set: async ({ profileId, secret }) => {
        const profile = ledger().profiles.find(profileId);
        if (profile.kind === 'embedded-sandbox') {
          throw new IpcFailure('conflict', 'The embedded sandbox uses its own demo key; it has no secret to set.');
        }
        await ledger().setProfileSecret(profile.id, secret);
        services.rememberSecret?.(secret);
        return publishCredentialStatus(await credentialStatus(profile.id));
      },
      delete: async ({ profileId }) => {
        const profile = ledger().profiles.find(profileId);
        await ledger().credentials.deleteProfileSecret(profile.id);
        ledger().clients.forget(profile.id);
        audit(profile.id, 'credentials.delete', profile.id);
        return publishCredentialStatus(await credentialStatus(profile.id));
      },
    },

    accounts: {
      list: async ({ profileId }) => ({
        rows: await ledger().clients.clientFor(ledger().profiles.find(profileId).id).listAccounts(),
        asOf: now().toISOString(),
        source: 'bank' as const,
      }),
      cached: ({ profileId }) => ({
        accountIds: ledger().cache.pendingTransactions.accounts(ledger().profiles.find(profileId).id),
        source: 'cache' as const,
      }),
    },

    pendingTransactions: {
      list: (input) => {
        const page = ledger().cache.pendingTransactions.list({
          profileId: input.profileId,
          accountId: input.accountId,
          ...(input.type === undefined ? {} : { type: input.type }),
          ...(input.typeSource === undefined ? {} : { typeSource: input.typeSource }),
          ...(input.search === undefined || input.search.trim() === '' ? {} : { search: input.search }),
          ...(input.fromDate === undefined ? {} : { fromDate: input.fromDate }),
          ...(input.toDate === undefined ? {} : { toDate: input.toDate }),
          ...(input.review === undefined ? {} : { review: input.review }),
          sort: pendingSort(input.sortBy, input.sortDirection),
          limit: input.limit,
          cursor: input.cursor ?? null,
        });
        const rows = page.rows.map((row) => ({ ...row, rowKey: row.row_key }));
        return {
          ...page,
          rows: withReviews(ledger().reviews, input.profileId, 'pending-transaction', rows, (row) => row.row_key),
        };
      },
      count: (input) => {
        const query = {
          profileId: input.profileId,
          accountId: input.accountId,
          ...(input.type === undefined ? {} : { type: input.type }),
          ...(input.typeSource === undefined ? {} : { typeSource: input.typeSource }),
          ...(input.search === undefined || input.search.trim() === '' ? {} : { search: input.search }),
          ...(input.fromDate === undefined ? {} : { fromDate: input.fromDate }),
          ...(input.toDate === undefined ? {} : { toDate: input.toDate }),
          ...(input.review === undefined ? {} : { review: input.review }),
        };
        const table = ledger().cache.pendingTransactions;
        return { count: table.count(query), asOf: table.asOf(query) };
      },
    },

    accountApplications: {
      list: (input) => {
        const page = ledger().cache.accountApplications.list({
          profileId: input.profileId,
          ...(input.status === undefined ? {} : { status: input.status }),
          ...(input.ownershipType === undefined ? {} : { ownershipType: input.ownershipType }),
          ...(input.accountProductId === undefined ? {} : { accountProductId: input.accountProductId }),
          ...(input.review === undefined ? {} : { review: input.review }),
          ...searchOf(input.search),
          sort: applicationSort(input.sortBy, input.sortDirection),
          limit: input.limit,
          cursor: input.cursor ?? null,
        });
        return {
          ...page,
          rows: withReviews(ledger().reviews, input.profileId, 'application', page.rows, (row) => row.id),
        };
      },
      count: (input) => {
        const count = ledger().cache.accountApplications.count({
          profileId: input.profileId,
          ...(input.status === undefined ? {} : { status: input.status }),
          ...(input.ownershipType === undefined ? {} : { ownershipType: input.ownershipType }),
          ...(input.accountProductId === undefined ? {} : { accountProductId: input.accountProductId }),
          ...(input.review === undefined ? {} : { review: input.review }),
          ...searchOf(input.search),
        });
        return { count, asOf: null };
      },
      get: ({ profileId, id }) => {
        const table = ledger().cache.accountApplications;
        const found = table.get(profileId, id);
        const history = table.history(profileId, id);
        return {
          application: found?.application ?? null,
          history: history.rows.map((version) => ({
            status: version.status,
            observedAt: version.fetchedAt,
            updatedAt: version.updatedAt,
          })),
          asOf: found?.asOf ?? null,
          source: 'cache' as const,
        };
      },
    },

    webhooks: {
      list: (input) => {
        const page = ledger().cache.webhooks.list({
          profileId: input.profileId,
          ...(input.status === undefined ? {} : { status: input.status }),
          ...(input.event === undefined ? {} : { event: input.event }),
        });
        const words = (input.search ?? '').trim().toLowerCase();
        const rows =
          words === ''
            ? page.rows
            : page.rows.filter((row) =>
                [row.event, row.url]
                  .filter((text) => typeof text === 'string')
                  .join(' ')
                  .toLowerCase()
                  .includes(words),
              );
        return { ...page, rows };
      },
      create: ({ profileId, request, confirmProduction }) =>
        ledger().writes.createWebhook(profileId, request, { confirmProduction: confirmProduction === true }),
      update: ({ profileId, id, changes, confirmProduction }) =>
        ledger().writes.updateWebhook(profileId, id, changes, { confirmProduction: confirmProduction === true }),
      delete: async ({ profileId, id, confirmProduction }) => {
        await ledger().writes.deleteWebhook(profileId, id, { confirmProduction: confirmProduction === true });
        return { deleted: true as const, id };
      },
    },

    webhookSends: {
      list: (input) => {
        const page = ledger().cache.webhookSends.list({
          ...sendFilterOf(input),
          sort: sendSort(input.sortBy, input.sortDirection),
          limit: input.limit,
          cursor: input.cursor ?? null,
        });
        return {
          ...page,
          rows: withReviews(ledger().reviews, input.profileId, 'webhook-send', page.rows, (row) => row.id),
        };
      },
      count: (input) => {
        const query = sendFilterOf(input);
        const table = ledger().cache.webhookSends;
        return { count: table.count(query), asOf: table.asOf(query) };
      },
      groups: (input) => {
        const page = ledger().cache.webhookSends.groups({
          ...sendFilterOf({ ...input, review: undefined }),
          ...(input.review === undefined ? {} : { notificationReview: input.review }),
          limit: input.limit,
          cursor: input.cursor ?? null,
        });
        const rows = withReviews(ledger().reviews, input.profileId, 'webhook-send', page.rows, (group) =>
          notificationRef(group.webhookId, group.objectId, group.event),
        );
        return { ...page, rows };
      },
    },

    documents: {
      create: ({ profileId, request, confirmProduction }) =>
        ledger().writes.createDocument(profileId, request, { confirmProduction: confirmProduction === true }),
      list: (input) => {
        return ledger().cache.uploads.documents({
          profileId: input.profileId,
          ...searchOf(input.search),
          limit: input.limit,
          cursor: input.cursor ?? null,
        });
      },
    },

    files: {
      upload: ({ profileId, contentType, bytes, confirmProduction }) =>
        ledger().writes.uploadFile(profileId, bytes, contentType, { confirmProduction: confirmProduction === true }),
    },

    cardArt: {
      upload: async ({ profileId, cardProductId, request, confirmProduction }) => {
        await ledger().writes.uploadCardArt(profileId, cardProductId, request, {
          confirmProduction: confirmProduction === true,
        });
        const uploadedAt = now().toISOString();
        return {
          id: `${cardProductId}/${request.asset_type}/${uploadedAt}`,
          profileId,
          cardProductId,
          assetType: request.asset_type,
          fileId: request.file_id,
          uploadedAt,
        };
      },
      list: (input) => {
        const page = ledger().cache.uploads.cardArtUploads({
          profileId: input.profileId,
          limit: input.limit,
          cursor: input.cursor ?? null,
        });
        const rows = page.rows
          .filter((upload) => input.cardProductId === undefined || upload.cardProductId === input.cardProductId)
          .map((upload) => ({
            id: `${upload.cardProductId}/${upload.assetType}/${upload.uploadedAt}`,
            profileId: input.profileId,
            ...upload,
          }));
        return { ...page, rows };
      },
      products: async ({ profileId }) => ({
        rows: await ledger().clients.clientFor(ledger().profiles.find(profileId).id).listCardProducts(),
        asOf: now().toISOString(),
        source: 'bank' as const,
      }),
    },

    sync: {
      start: ({ profileId, job }) => {
        const profile = ledger().profiles.find(profileId);
        const started = ledger().sync.start(toSyncRequest(profile.id, job));
        const running = ledger()
          .sync.running()
          .find((progress) => progress.jobId === started.jobId);
        return running === undefined
          ? {
              jobId: started.jobId,
              profileId: profile.id,
              kind: SYNC_KIND_NAMES[started.kind],
              key: started.key,
              fetched: 0,
              written: 0,
              pages: 0,
              windowsDone: 0,
              windowsTotal: 0,
              parallelism: 0,
              ratePerSecond: 0,
              etaSeconds: null,
              state: 'running' as const,
            }
          : toContractProgress(running);
      },
      cancel: ({ jobId }) => ({ cancelled: ledger().sync.cancel(jobId) }),
      status: ({ profileId }) => ({
        jobs: ledger()
          .sync.running()
          .map(toContractProgress)
          .filter((progress) => profileId === undefined || progress.profileId === profileId),
      }),
    },

    exports: {
      pendingTransactions: (input) => {
        return saveExport('pending-transactions', input.format, (cursor) =>
          ledger().cache.pendingTransactions.list({
            profileId: input.profileId,
            accountId: input.accountId,
            ...(input.type === undefined ? {} : { type: input.type }),
            ...(input.typeSource === undefined ? {} : { typeSource: input.typeSource }),
            ...(input.search === undefined || input.search.trim() === '' ? {} : { search: input.search }),
            ...(input.fromDate === undefined ? {} : { fromDate: input.fromDate }),
            ...(input.toDate === undefined ? {} : { toDate: input.toDate }),
            ...(input.review === undefined ? {} : { review: input.review }),
            limit: 1000,
            cursor,
          }),
        );
      },
      webhookSends: (input) => {
        return saveExport('webhook-sends', input.format, (cursor) =>
          ledger().cache.webhookSends.list({
            ...sendFilterOf(input),
            limit: 1000,
            cursor,
          }),
        );
      },
      accountApplications: (input) =>
        saveExport('account-applications', input.format, (cursor) =>
          ledger().cache.accountApplications.list({
            profileId: input.profileId,
            ...(input.status === undefined ? {} : { status: input.status }),
            ...(input.ownershipType === undefined ? {} : { ownershipType: input.ownershipType }),
            ...(input.accountProductId === undefined ? {} : { accountProductId: input.accountProductId }),
            ...(input.review === undefined ? {} : { review: input.review }),
            ...searchOf(input.search),
            limit: 1000,
            cursor,
          }),
        ),
      auditLog: (input) =>
        saveExport('audit-log', input.format, (cursor) => {
          const page = ledger().cache.audit.list({
            ...(input.profileId === undefined ? {} : { profileId: input.profileId }),
            limit: 1000,
            cursor,
          });
          return { rows: page.rows.map(toAuditEntry), nextCursor: page.nextCursor };
        }),
      listenerRequests: () => notSupported('format', 'Exporting listener traffic from this handler'),
    },

    audit: {
      list: (input) => {
        const page = ledger().cache.audit.list({
          ...(input.profileId === undefined ? {} : { profileId: input.profileId }),
          ...(input.action === undefined ? {} : { action: input.action }),
          ...(input.result === undefined ? {} : { result: input.result }),
          ...searchOf(input.search),
          limit: input.limit,
          cursor: input.cursor ?? null,
        });
        return { ...page, rows: page.rows.map(toAuditEntry) };
      },
      verify: async () => {
        const verification = await ledger().cache.audit.verify();
        const { problem } = verification;
        return {
          ok: verification.ok,
          entries: verification.entries,
          head: verification.head,
          problem:
            problem === null
              ? null
              : {
                  kind: problem.kind,
                  entryId: String(problem.entryId),
                  entry: problem.entry === null ? null : toAuditEntry(problem.entry),
                  message: problem.message,
                },
          notes: verification.notes,
          verifiedAt: verification.verifiedAt,
        };
      },
    },

    cache: {
      info: async () => {
        const cache = ledger().cache;
        const size = await stat(cache.file).then(
          (info) => info.size,
          () => 0,
        );
        return {
          sizeBytes: size,
          encrypted: true,
          message:
            cache.opened.messages.length === 0 ? 'The data key is in the keychain.' : cache.opened.messages.join(' '),
        };
      },
      clear: async ({ profileId }) => {
        const services = ledger();
        const targets = profileId === undefined ? services.profiles.list() : [services.profiles.find(profileId)];
        for (const profile of targets) await services.clearCachedData(profile.id);
        return { cleared: true as const };
      },
    },
  };
}
