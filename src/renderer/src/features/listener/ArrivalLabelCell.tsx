/**
 * The listener grid's delivery cell and its millisecond time (issues 27, 38): the arrival's one
 * label, "attempt 3", "new event", "replay" or "edited replay", with who decided and on what ("by body: same body as the previous arrival,
 * which was answered 500" or "bank: send … follows 2 earlier attempts") in its title and for
 * screen readers, and the arrival time to the millisecond so the bank's backoff is visible.
 */
import type { ArrivalLabelView } from '../../../../shared/ipc/domains/listener.ts';
import { Badge } from '../../components/Badge.tsx';
import { arrivalLabelWords } from '../../../../shared/listener/arrivalLabelWords.ts';

/** `14:03:07.482` (UTC, like every time in the app) from an ISO time with milliseconds. */
export function clockWithMilliseconds(iso: string): string {
  const match = /T(\d{2}:\d{2}:\d{2})(\.\d{1,3})?/.exec(iso);
  if (match === null) return iso;
  return `${match[1] ?? ''}${(match[2] ?? '.000').padEnd(4, '0')}`;
}

export function labelText(label: ArrivalLabelView): string {
  return arrivalLabelWords(label);
}

export function labelBasis(label: ArrivalLabelView): string {
  if (label.kind === 'replay' || label.kind === 'edited_replay') return label.basis;
  return label.source === 'bank' ? `bank: ${label.basis}` : `by body: ${label.basis}`;
}

export function ArrivalLabelCell({ label }: { label: ArrivalLabelView | null | undefined }) {
  if (label === null || label === undefined) {
    return (
      <span className="muted" title="Labelled only for arrivals since the listener started (never across restarts)">
        —
      </span>
    );
  }
  const basis = labelBasis(label);
  return (
    <span title={basis}>
      <Badge tone={label.kind === 'retry' ? 'warning' : label.kind === 'new_event' ? 'neutral' : 'info'}>
        {labelText(label)}
      </Badge>
      <span className="visually-hidden"> ({basis})</span>
    </span>
  );
}
