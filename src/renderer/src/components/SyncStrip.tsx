/** The running (or last) sync of what a screen shows: progress, rate, ETA, cancel. */
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
    <div className="sync-strip" role="status">
      <ProgressBar
        label={`Syncing ${what}`}
        done={job.fetched}
        unit="records"
        ratePerSecond={job.ratePerSecond}
        etaSeconds={job.etaSeconds}
        total={
          job.etaSeconds === null || job.ratePerSecond === 0
            ? null
            : Math.round(job.fetched + job.etaSeconds * job.ratePerSecond)
        }
      />
      <span className="sync-strip-detail tabular">{syncDetail(job)}</span>
      <Button size="sm" variant="ghost" onClick={() => void cancel(job.jobId)}>
        Cancel
      </Button>
    </div>
  );
}

/** Pages, and for a sync walking date windows: how many are done and how many requests are out at once. */
function syncDetail(job: SyncProgress): string {
  const parts = [`${job.pages.toLocaleString('en-US')} ${job.pages === 1 ? 'page' : 'pages'}`];
  if (job.windowsTotal > 0) {
    parts.push(`windows ${String(job.windowsDone)} of ${String(job.windowsTotal)}`);
    parts.push(`${String(job.parallelism)} at once`);
  }
  return parts.join(' · ');
}
