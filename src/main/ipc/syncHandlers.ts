/** Handlers of the `sync` domain: start, cancel and follow the jobs that fill the cache. */
import type {
  SyncJob as ContractSyncJob,
  SyncKind,
  SyncProgress as ContractProgress,
} from '../../shared/ipc/domains/sync.ts';
import type { SyncRequest } from '../services/sync/syncService.ts';
import type { SyncProgress as ServiceProgress } from '../services/sync/syncProgress.ts';
import type { LedgerServices } from '../services/ledgerServices.ts';
import type { Handlers } from './handlerTypes.ts';
import { IpcFailure } from './serviceErrors.ts';
import { ledgerOf, type LedgerHandlerServices } from './ledgerAccess.ts';

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
    share: progress.share ?? null,
    state: progress.state,
    ...(progress.error === undefined ? {} : { error: progress.error }),
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

/**
 * A sync of a bank that cannot be reached is refused at once, with the reason in a person's words
 * (issue 38), instead of a job that spins at 0 records through the client's retries. The bank is
 * asked once (one ping, no retries: what "online" said a while ago is not what it says now, and a
 * sandbox that just ended is noticed here).
 */
async function refuseWhenOutOfReach(ledger: LedgerServices, profileId: string): Promise<void> {
  const state = await ledger.clients.connectivityOf(profileId).checkNow();
  if (state.status === 'offline') {
    throw new IpcFailure('offline', `${state.reason ?? 'The bank cannot be reached.'} Nothing was synced.`, {
      retryable: true,
    });
  }
}

export function createSyncHandlers(services: LedgerHandlerServices): Pick<Handlers, 'sync'> {
  const ledger = () => ledgerOf(services);
  return {
    sync: {
      start: async ({ profileId, job }) => {
        const profile = ledger().profiles.find(profileId);
        await refuseWhenOutOfReach(ledger(), profile.id);
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
  };
}
