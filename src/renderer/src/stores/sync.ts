/**
 * Sync jobs and their progress, pushed by main. Screens start a job for what they show and
 * watch it by kind and key; when it is done they reload from the cache.
 */
import { create } from 'zustand';
import type { SyncJob, SyncProgress } from '../../../shared/ipc/index.ts';
import { api } from '../lib/api.ts';
import { sentenceOf, uiErrorOf } from '../lib/errors.ts';
import { toast } from './toasts.ts';

interface SyncState {
  jobs: Record<string, SyncProgress>;
  start: (profileId: string, job: SyncJob) => Promise<SyncProgress | null>;
  cancel: (jobId: string) => Promise<void>;
  progressed: (progress: SyncProgress) => void;
}

export const useSyncStore = create<SyncState>((set, get) => ({
  jobs: {},
  async start(profileId, job) {
    try {
      const progress = await api().sync.start({ profileId, job });
      get().progressed({ ...progress, profileId: progress.profileId ?? profileId });
      return progress;
    } catch (reason) {
      const error = uiErrorOf(reason);
      toast(error.code === 'offline' ? 'warning' : 'error', 'Sync did not start', sentenceOf(error));
      return null;
    }
  },
  async cancel(jobId) {
    try {
      await api().sync.cancel({ jobId });
    } catch (reason) {
      toast('error', 'Could not cancel the sync', uiErrorOf(reason).message);
    }
  },
  progressed(progress) {
    const previous = get().jobs[progress.jobId];
    // The answer to start() can arrive after the job's last event: never step back from an end.
    if (previous !== undefined && previous.state !== 'running' && progress.state === 'running') return;
    set({ jobs: { ...get().jobs, [progress.jobId]: { ...previous, ...progress } } });
    // Said once: the screen's sync strip says it (as a status) when one shows this job;
    // a toast only when the user has moved to a screen where nothing shows it.
    if (progress.state === 'failed' && previous?.state !== 'failed' && !syncShownOnScreen.has(progress.jobId)) {
      toast('error', 'Sync failed', progress.error ?? 'The bank did not answer as expected.');
    }
  },
}));

/** The jobs a mounted sync strip shows right now (SyncStrip registers them), so a failure is said once. */
export const syncShownOnScreen = new Set<string>();

/** The latest job of a kind and key (e.g. pendingTransactions of acct_1), if any. */
export function latestJobOf(
  jobs: Record<string, SyncProgress>,
  kind: SyncJob['kind'],
  key: string | null,
  profileId: string | null,
): SyncProgress | null {
  let latest: SyncProgress | null = null;
  for (const job of Object.values(jobs)) {
    if (job.kind !== kind) continue;
    // The service's keys name their scope (`pending-transactions/<profile>/<account>`): match the last part.
    if (key !== null && job.key !== key && !job.key.endsWith(`/${key}`)) continue;
    if (profileId !== null && job.profileId !== undefined && job.profileId !== profileId) continue;
    latest = job;
  }
  return latest;
}

export function useSyncJob(kind: SyncJob['kind'], key: string | null, profileId: string | null): SyncProgress | null {
  return useSyncStore((state) => latestJobOf(state.jobs, kind, key, profileId));
}

export function installSync(): () => void {
  try {
    const off = api().sync.onProgress((progress) => {
      useSyncStore.getState().progressed(progress);
    });
    void api()
      .sync.status({})
      .then(({ jobs }) => {
        for (const job of jobs) useSyncStore.getState().progressed(job);
      })
      .catch(() => undefined);
    return off;
  } catch {
    return () => undefined;
  }
}
