/**
 * An item's team history: every event the server chained for it, who did what and when (the
 * server's clock), what the server answered, and each note opened with the team key on this
 * laptop. Read from the verified mirror: what is shown here passed the chain and signature checks.
 */
import { useEffect, useState } from 'react';
import type { TeamHistoryEvent } from '../../../../shared/ipc/index.ts';
import type { ReviewKind } from '../../../../shared/review/reviewTerms.ts';
import { Badge } from '../../components/Badge.tsx';
import { Button } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { InlineError, LoadingState } from '../../components/States.tsx';
import { api } from '../../lib/api.ts';
import { uiErrorOf, type UiError } from '../../lib/errors.ts';
import { formatTimestamp } from '../../lib/time.ts';
import { kindLabel } from './teamWords.ts';

const PAST: Record<string, string> = {
  propose: 'proposed',
  approve: 'approved',
  reject: 'rejected',
  claim: 'claimed it',
  assign: 'assigned it to',
  release: 'released it',
  note: 'added a note',
};

export function TeamHistoryDialog({
  kind,
  itemRef: ref,
  onClose,
}: {
  kind: ReviewKind;
  itemRef: string;
  onClose: () => void;
}) {
  const [events, setEvents] = useState<TeamHistoryEvent[] | null>(null);
  const [error, setError] = useState<UiError | null>(null);
  useEffect(() => {
    let current = true;
    api()
      .team.history({ kind, ref })
      .then(
        (history) => {
          if (current) setEvents(history.events);
        },
        (reason: unknown) => {
          if (current) setError(uiErrorOf(reason));
        },
      );
    return () => {
      current = false;
    };
  }, [kind, ref]);
  return (
    <Dialog
      title={`History of ${kindLabel(kind)} ${ref}`}
      onClose={onClose}
      footer={
        <Button variant="primary" onClick={onClose}>
          Close
        </Button>
      }
    >
      {error !== null ? (
        <InlineError error={error} />
      ) : events === null ? (
        <LoadingState label="Reading the history…" />
      ) : events.length === 0 ? (
        <p className="muted">No event of the team names this item yet.</p>
      ) : (
        <ol className="team-history" aria-label="Events, oldest first">
          {events.map((event) => (
            <li key={event.seq}>
              <div>
                <strong>{event.officer}</strong> {PAST[event.action] ?? event.action}
                {event.disposition === null ? '' : ` ${event.disposition}`}
                {event.assignee === null ? '' : ` ${event.assignee}`}{' '}
                {event.result === 'ok' ? null : (
                  <Badge tone={event.result === 'conflict' ? 'warning' : 'negative'}>{event.result}</Badge>
                )}
              </div>
              <div className="muted team-history-when">
                #{event.seq} · {formatTimestamp(event.at)}
              </div>
              {event.detail === null ? null : <div className="team-history-detail">{event.detail}</div>}
              {event.note === null ? null : <blockquote className="team-history-note">{event.note}</blockquote>}
            </li>
          ))}
        </ol>
      )}
    </Dialog>
  );
}
