/**
 * An application the bank sent malformed (issue 24): kept as received, the rest of the book
 * synced. The list shows the status as received, marked; the drawer names the problem and
 * what was received in each faulty field.
 */
import { statusAsReceived, type MalformedRecordNote } from '../../../../shared/bank/index.ts';
import { Badge, StatusBadge } from '../../components/Badge.tsx';
import './malformedApplication.css';

interface Shown {
  status?: string | null | undefined;
  malformed?: MalformedRecordNote | undefined;
}

/** The status cell: as usual, or the status as received with a mark when this client does not know it. */
export function ApplicationStatus({ application }: { application: Shown }) {
  if (application.malformed?.received['status'] === undefined) return <StatusBadge status={application.status} />;
  return (
    <Badge tone="warning" title="The bank sent a status this client does not know; kept as received">
      {statusAsReceived(application)} (unknown)
    </Badge>
  );
}

/** Beside the application: what was wrong with it as the bank sent it, and what came in each faulty field. */
export function MalformedApplicationNote({ application }: { application: Shown }) {
  const note = application.malformed;
  if (note === undefined) return null;
  const received = Object.entries(note.received);
  return (
    <div className="malformed-application" role="note" aria-label="Kept as received">
      <p>
        Kept as the bank sent it, which breaks the interface:{' '}
        {note.problems.length === 0 ? 'a field this client cannot read' : note.problems.join('; ')}. The rest of the
        book was synced.
      </p>
      {received.length === 0 ? null : (
        <dl>
          {received.map(([field, text]) => (
            <div key={field}>
              <dt className="mono">{field}</dt>
              <dd className="mono">received {text}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
