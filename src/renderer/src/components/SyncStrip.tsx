/**
 * The running (or last) sync of what a screen shows, as one thin line above the list (whose rows
 * stay and are updated in place): records so far, rate, time left, cancel. A sync that failed
 * says why, with the way to restart the sandbox when that is the reason.
 */
import { useEffect } from 'react';
import type { SyncProgress } from '../../../shared/ipc/index.ts';
import { syncShownOnScreen, useSyncStore } from '../stores/sync.ts';
import { StatusBadge } from './Badge.tsx';
import { SandboxRestartLink } from '../features/settings/SandboxRestartLink.tsx';
import { Button } from './Button.tsx';
import { ProgressBar } from './ProgressBar.tsx';

export function SyncStrip({ job, what }: { job: SyncProgress; what: string }) {
  const cancel = useSyncStore((state) => state.cancel);
  const jobId = job.jobId;
  useEffect(() => {
    syncShownOnScreen.add(jobId);
    return () => {
      syncShownOnScreen.delete(jobId);
    };
  }, [jobId]);
  if (job.state !== 'running') {
    if (job.state === 'done') return null;
    return (
      <div className={`sync-strip sync-${job.state}`} role="status" data-result-panel>
        <StatusBadge status={job.state} />
        <span>
          Sync of {what} {job.state}
          {job.error === undefined ? '' : `: ${job.error}`} · {job.written.toLocaleString('en-US')} rows written
        </span>
        <SandboxRestartLink sentence={job.error} />
      </div>
    );
  }
  return (
    <div className="sync-strip is-running" role="status">
      <ProgressBar
        label={`Syncing ${what}`}
        done={job.fetched}
        unit={job.fetched === 1 ? 'record' : 'records'}
        ratePerSecond={job.ratePerSecond}
        etaSeconds={job.etaSeconds}
        fraction={job.share ?? null}
      />
      <Button size="sm" variant="ghost" onClick={() => void cancel(job.jobId)}>
        Cancel
      </Button>
    </div>
  );
}
