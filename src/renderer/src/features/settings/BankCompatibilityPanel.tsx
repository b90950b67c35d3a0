/**
 * Bank compatibility, in Settings (issue 14, item 3): what the active profile's bank left out
 * of its answers and what it sent that the interface does not list, per resource, counted
 * from every answer read (field names and counts only; `ledger drift` shows the same). It is
 * how an integrator learns the bank changed under them. "Start over" counts from now.
 */
import { useCallback, useState } from 'react';
import type { DriftReport, ResourceDrift } from '../../../../shared/ipc/index.ts';
import { Badge } from '../../components/Badge.tsx';
import { Button } from '../../components/Button.tsx';
import { Panel } from '../../components/Page.tsx';
import { ErrorState, LoadingState } from '../../components/States.tsx';
import { api } from '../../lib/api.ts';
import { uiErrorOf, type UiError } from '../../lib/errors.ts';
import { formatTimestamp } from '../../lib/time.ts';
import { useActiveProfile, useActiveProfileLoad } from '../../stores/profiles.ts';
import { toast } from '../../stores/toasts.ts';
import './bankCompatibility.css';

type Load = { state: 'loading' } | { state: 'done'; report: DriftReport } | { state: 'failed'; error: UiError };

export function BankCompatibilityPanel() {
  const profile = useActiveProfile();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [busy, setBusy] = useState(false);

  const read = useCallback(async (profileId: string, reset = false): Promise<void> => {
    setBusy(true);
    try {
      const report = reset ? await api().drift.reset({ profileId }) : await api().drift.report({ profileId });
      setLoad({ state: 'done', report });
      if (reset) toast('success', 'Drift counts start over', 'From now on, every answer of this bank is counted.');
    } catch (reason) {
      setLoad({ state: 'failed', error: uiErrorOf(reason) });
    } finally {
      setBusy(false);
    }
  }, []);
  const reload = useActiveProfileLoad(read);

  const drifting =
    load.state === 'done'
      ? load.report.resources.filter((resource) => resource.missing.length + resource.unknown.length > 0).length
      : 0;
  return (
    <Panel
      title={`Bank compatibility${profile === null ? '' : ` · ${profile.name}`}`}
      className="panel-flush bank-compatibility"
      actions={
        <div className="row" style={{ gap: 8 }}>
          <Button size="sm" icon="refresh" aria-busy={busy || undefined} onClick={busy ? undefined : reload}>
            Refresh
          </Button>
          <Button
            size="sm"
            disabled={profile === null || load.state !== 'done' || load.report.resources.length === 0}
            onClick={() => {
              if (profile !== null && !busy) void read(profile.id, true);
            }}
          >
            Start over
          </Button>
        </div>
      }
    >
      <div role="status" aria-live="polite" data-result-panel className="panel-note">
        {load.state !== 'done' ? null : load.report.resources.length === 0 ? (
          <p className="muted">
            Nothing read from this bank yet: sync or browse, then come back. Every answer is then compared with the
            interface, field by field.
          </p>
        ) : (
          <p className="muted">
            {drifting === 0
              ? 'Every answer read so far had the fields the interface lists, and no others.'
              : `${String(drifting)} of ${String(load.report.resources.length)} resources came back not as the interface lists them.`}{' '}
            Counted since {formatTimestamp(load.report.since ?? '')}; field names and counts only, never a value.
          </p>
        )}
      </div>
      {load.state === 'loading' ? <LoadingState label="Reading the drift counts…" /> : null}
      {load.state === 'failed' ? <ErrorState what="Bank compatibility" error={load.error} onRetry={reload} /> : null}
      {load.state === 'done' && load.report.resources.length > 0 ? (
        <table className="table" aria-label="Bank compatibility by resource">
          <thead>
            <tr>
              <th scope="col">Resource</th>
              <th scope="col" className="align-end">
                Records read
              </th>
              <th scope="col">Left out by the bank</th>
              <th scope="col">Not in the interface</th>
            </tr>
          </thead>
          <tbody>
            {load.report.resources.map((resource) => (
              <ResourceRow key={resource.resource} resource={resource} />
            ))}
          </tbody>
        </table>
      ) : null}
    </Panel>
  );
}

function ResourceRow({ resource }: { resource: ResourceDrift }) {
  const asListed = resource.missing.length === 0 && resource.unknown.length === 0;
  return (
    <tr data-resource={resource.resource}>
      <th scope="row" className="mono">
        {resource.resource}
      </th>
      <td className="align-end tabular">{resource.records.toLocaleString('en-US')}</td>
      {asListed ? (
        <td colSpan={2}>
          <Badge tone="positive">as the interface lists it</Badge>
        </td>
      ) : (
        <>
          <td>
            <Fields fields={resource.missing} records={resource.records} />
          </td>
          <td>
            <Fields fields={resource.unknown} records={resource.records} />
            {(resource.droppedNames ?? 0) > 0 ? (
              <p className="muted">
                {(resource.droppedNames ?? 0).toLocaleString('en-US')} older field names let go to keep these counts
                bounded.
              </p>
            ) : null}
          </td>
        </>
      )}
    </tr>
  );
}

/** Each field with how many of the records it concerns: "account_number · 12 of 12". */
function Fields({ fields, records }: { fields: ResourceDrift['missing']; records: number }) {
  if (fields.length === 0) return <span className="faint">none</span>;
  return (
    <ul className="drift-fields">
      {fields.map((field) => (
        <li key={field.field}>
          <code className="mono">{field.field}</code>{' '}
          <span className="muted">
            · {field.count.toLocaleString('en-US')}
            {field.count === records ? ' (every one)' : ` of ${records.toLocaleString('en-US')}`}
          </span>
        </li>
      ))}
    </ul>
  );
}
