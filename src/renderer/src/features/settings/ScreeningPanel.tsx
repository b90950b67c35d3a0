/**
 * Settings → Screening (issue 40): the sanctions lists loaded (which, of when, their digest and
 * size) and "Screen applicants", which screens the active profile's cached applicants against
 * them and shows each hit names first: the applicant beside the list entry, its program, the
 * score and why. The same as `ledger screening lists|run`. Lists are imported on the command
 * line for now (`ledger screening import FILE`); hits are shown, not kept as review items yet.
 */
import { useCallback, useEffect, useState } from 'react';
import type { ListVersionView, ScreeningRunView } from '../../../../shared/ipc/domains/screening.ts';
import { listSourceName, listVersionName, shortDigest } from '../../../../shared/screening/listNames.ts';
import { Button } from '../../components/Button.tsx';
import { Panel } from '../../components/Page.tsx';
import { ErrorState, LoadingState } from '../../components/States.tsx';
import { api } from '../../lib/api.ts';
import { uiErrorOf, type UiError } from '../../lib/errors.ts';
import { formatTimestamp } from '../../lib/time.ts';
import { useActiveProfile } from '../../stores/profiles.ts';

type Run =
  | { state: 'idle' }
  | { state: 'running' }
  | { state: 'done'; run: ScreeningRunView }
  | { state: 'failed'; error: UiError };

function ListsTable({ lists }: { lists: ListVersionView[] }) {
  return (
    <table className="table" aria-label="Sanctions lists loaded">
      <thead>
        <tr>
          <th scope="col">List</th>
          <th scope="col">Published</th>
          <th scope="col">Imported</th>
          <th scope="col">SHA-256</th>
          <th scope="col" className="align-end">
            Entries
          </th>
        </tr>
      </thead>
      <tbody>
        {lists.map((list) => (
          <tr key={list.source}>
            <th scope="row">{listSourceName(list.source)}</th>
            <td>{list.publishedAt ?? 'unknown'}</td>
            <td>{formatTimestamp(list.importedAt)}</td>
            <td className="mono" title={list.digest}>
              {shortDigest(list.digest)}
            </td>
            <td className="align-end tabular">{list.entryCount.toLocaleString('en-US')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function HitsTable({ run }: { run: ScreeningRunView }) {
  return (
    <table className="table" aria-label="Screening hits">
      <thead>
        <tr>
          <th scope="col">Applicant</th>
          <th scope="col">List entry</th>
          <th scope="col">Program</th>
          <th scope="col" className="align-end">
            Score
          </th>
          <th scope="col">Why</th>
        </tr>
      </thead>
      <tbody>
        {run.hits.map((hit) => (
          <tr key={`${hit.applicantId} ${hit.source} ${hit.entry.uid}`}>
            <th scope="row" title={`applicant ${hit.applicantId}`}>
              {hit.applicantName}
            </th>
            <td>
              {hit.entry.name}{' '}
              <span className="muted">
                ({listSourceName(hit.source)} {hit.entry.uid})
              </span>
            </td>
            <td>{hit.entry.programs.join(', ')}</td>
            <td className="align-end tabular">{hit.score.toFixed(2)}</td>
            <td>
              <ul style={{ margin: 0, paddingInlineStart: 16 }}>
                {hit.words.map((words) => (
                  <li key={words}>{words}</li>
                ))}
              </ul>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ScreeningPanel() {
  const profile = useActiveProfile();
  const [lists, setLists] = useState<ListVersionView[] | null>(null);
  const [error, setError] = useState<UiError | null>(null);
  const [run, setRun] = useState<Run>({ state: 'idle' });
  const profileId = profile?.id ?? null;

  const load = useCallback(async () => {
    try {
      setLists((await api().screening.lists({})).lists);
      setError(null);
    } catch (reason) {
      setError(uiErrorOf(reason));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  // Another profile's hits are not this one's.
  useEffect(() => {
    setRun({ state: 'idle' });
  }, [profileId]);

  if (error !== null) return <ErrorState what="The sanctions lists" error={error} onRetry={() => void load()} />;
  if (lists === null) return <LoadingState />;

  const screen = async () => {
    if (profileId === null) return;
    setRun({ state: 'running' });
    try {
      setRun({ state: 'done', run: await api().screening.run({ profileId }) });
    } catch (reason) {
      setRun({ state: 'failed', error: uiErrorOf(reason) });
    }
  };

  return (
    <Panel
      title="Sanctions screening"
      className="panel-flush"
      actions={
        <Button
          size="sm"
          disabled={lists.length === 0 || profileId === null}
          aria-busy={run.state === 'running' || undefined}
          onClick={run.state === 'running' ? undefined : () => void screen()}
        >
          Screen applicants
        </Button>
      }
    >
      {lists.length === 0 ? (
        <p className="panel-note muted">
          No sanctions list is loaded. Import one from the command line: <code>ledger screening import FILE</code>{' '}
          (OFAC&apos;s SDN.XML, its CSV set, or an OpenSanctions export).
        </p>
      ) : (
        <ListsTable lists={lists} />
      )}
      <div role="status" aria-live="polite" className="panel-note">
        {run.state === 'running' ? <LoadingState label="Screening the cached applicants…" /> : null}
        {run.state === 'done' && run.run.screened === 0 ? (
          <p>
            {profile?.name ?? 'This profile'} has no cached applicant to screen: sync the application book first
            (Account applications → Sync the book).
          </p>
        ) : null}
        {run.state === 'done' && run.run.screened > 0 ? (
          <p>
            {run.run.hits.length === 0
              ? `No applicant of ${profile?.name ?? 'this profile'} matches the loaded lists at ${run.run.threshold.toFixed(2)}.`
              : `${String(run.run.hits.length)} ${run.run.hits.length === 1 ? 'hit' : 'hits'} among ${run.run.screened.toLocaleString('en-US')} applicants at ${run.run.threshold.toFixed(2)}.`}{' '}
            <span className="muted">
              Screened {run.run.screened.toLocaleString('en-US')} against{' '}
              {run.run.lists.map((list) => listVersionName(list)).join(', ')}; dates of birth masked. Hits are not kept
              yet: screen again to see them.
            </span>
          </p>
        ) : null}
      </div>
      {run.state === 'failed' ? <ErrorState what="Screening" error={run.error} onRetry={() => void screen()} /> : null}
      {run.state === 'done' && run.run.hits.length > 0 ? <HitsTable run={run.run} /> : null}
    </Panel>
  );
}
