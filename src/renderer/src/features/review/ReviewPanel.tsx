/**
 * The review in a detail drawer: where the item stands (a person's disposition, or a watch
 * rule's flag shown apart from it), the note, what changed at the bank since the review
 * (field by field, before → after), every step of its history, and buttons that give a
 * disposition to this one item.
 */
import { useCallback, useEffect, useState } from 'react';
import { DISPOSITIONS, type Disposition, type ReviewKind } from '../../../../shared/review/reviewTerms.ts';
import type { ReviewDetail } from '../../../../shared/ipc/domains/reviews.ts';
import { Badge } from '../../components/Badge.tsx';
import { Button } from '../../components/Button.tsx';
import { Properties, Section } from '../../components/Drawer.tsx';
import { ErrorState, LoadingState } from '../../components/States.tsx';
import { api } from '../../lib/api.ts';
import { uiErrorOf, type UiError } from '../../lib/errors.ts';
import { formatTimestamp } from '../../lib/time.ts';
import { ReviewBadge } from './ReviewBadge.tsx';
import { useReviewStore } from './reviewStore.ts';
import { useMoveOnPreference } from './moveOnPreference.ts';
import {
  DISPOSITION_WORDS,
  itemName,
  personsDisposition,
  KIND_LABELS,
  STATE_TONES,
  type ReviewSummary,
} from './reviewWords.ts';
import { announce } from '../../stores/announcements.ts';
import './review.css';

type Loaded = { state: 'loading' } | { state: 'failed'; error: UiError } | { state: 'ready'; detail: ReviewDetail };

export function ReviewPanel({
  profileId,
  kind,
  reference,
  name: givenName,
}: {
  profileId: string;
  kind: ReviewKind;
  reference: string;
  /** How the item is said (the drawer's heading, names first); else from the record. */
  name?: string;
}) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const version = useReviewStore((state) => state.version);
  const give = useReviewStore((state) => state.give);
  const askNote = useReviewStore((state) => state.askNote);
  const busy = useReviewStore((state) => state.busy);

  const load = useCallback(async (): Promise<void> => {
    try {
      const detail = await api().reviews.detail({ profileId, kind, ref: reference });
      setLoaded({ state: 'ready', detail });
    } catch (reason) {
      setLoaded({ state: 'failed', error: uiErrorOf(reason) });
    }
  }, [profileId, kind, reference]);

  useEffect(() => {
    setLoaded({ state: 'loading' });
  }, [profileId, kind, reference]);
  useEffect(() => {
    void load();
  }, [load, version]);

  const review = loaded.state === 'ready' ? loaded.detail.review : null;
  const name =
    givenName ??
    (loaded.state === 'ready'
      ? itemName(kind, reference, loaded.detail.cachedRecord)
      : `this ${KIND_LABELS[kind].one}`);
  const actions = (
    <div className="review-actions" role="group" aria-label="Review this item">
      {DISPOSITIONS.map((disposition: Disposition) => (
        <Button
          key={disposition}
          size="sm"
          variant={review?.disposition === disposition && review.state !== 'changed' ? 'primary' : 'secondary'}
          aria-pressed={review?.disposition === disposition && review.state !== 'changed'}
          disabled={busy}
          onClick={() =>
            void give(profileId, kind, [reference], disposition).then((given) => {
              if (given !== null) announce(`${DISPOSITION_WORDS[disposition].done} ${name}.`);
            })
          }
        >
          {DISPOSITION_WORDS[disposition].verb}
        </Button>
      ))}
      <Button
        size="sm"
        variant="ghost"
        disabled={busy}
        onClick={() => {
          askNote({ profileId, kind, refs: [reference], name, disposition: personsDisposition(review) });
        }}
      >
        Note…
      </Button>
    </div>
  );

  return (
    <Section title="Review" aside={actions}>
      {loaded.state === 'loading' ? <LoadingState label="Loading the review…" /> : null}
      {loaded.state === 'failed' ? <ErrorState what="Review" error={loaded.error} onRetry={() => void load()} /> : null}
      {loaded.state === 'ready' ? <ReviewBody detail={loaded.detail} /> : null}
    </Section>
  );
}

function ReviewBody({ detail }: { detail: ReviewDetail }) {
  const { review, history } = detail;
  const moveOn = useMoveOnPreference((state) => state.moveOn);
  if (review === null) {
    return (
      <p className="muted">
        No one has reviewed this item. Clear, flag or escalate it (keys C, F, E; N adds a note).{' '}
        {moveOn
          ? 'The keys then move on to the next item that needs a person (Settings › Review).'
          : 'The keys stay on this item (Settings › Review).'}
      </p>
    );
  }
  return (
    <div className="stack review-body">
      <Standing review={review} />
      {review.state === 'changed' ? <Changes review={review} gone={detail.cachedRecord === null} /> : null}
      <div>
        <h4 className="review-subtitle">History</h4>
        <ol className="review-history">
          {history.map((step) => (
            <li key={step.version}>
              <span className="review-history-head">
                <Badge tone={STATE_TONES[step.state]}>{step.state}</Badge>
                <span>
                  {step.byRule !== null
                    ? `by rule ${step.byRule}`
                    : step.state === 'changed'
                      ? 'found by a sync'
                      : `by ${step.reviewer ?? 'someone'}`}
                </span>
                <span className="muted tabular">{formatTimestamp(step.at)}</span>
              </span>
              {step.note === null ? null : <p className="review-note">{step.note}</p>}
              {step.changes.length === 0 ? null : (
                <span className="muted">
                  {step.changes.length} {step.changes.length === 1 ? 'field' : 'fields'} changed
                </span>
              )}
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}

/** A person's disposition and a rule's flag, apart. */
function Standing({ review }: { review: ReviewSummary }) {
  const person =
    review.disposition === null ? (
      <span className="muted">no one yet</span>
    ) : (
      <span>
        <Badge tone={STATE_TONES[review.disposition]}>{review.disposition}</Badge> by {review.reviewer ?? 'someone'},{' '}
        <span className="tabular">{formatTimestamp(review.reviewedAt)}</span>
      </span>
    );
  return (
    <>
      <Properties
        items={[
          // Where it stands now, when that is not simply the officer's disposition.
          ...(review.state === 'changed' || review.byRule !== null
            ? ([['Now', <ReviewBadge key="now" review={review} />]] as const)
            : []),
          ['Officer', person],
          ...(review.byRule === null
            ? []
            : ([
                [
                  'Watch rule',
                  <span key="rule" className="review-rule">
                    <span aria-hidden="true">⚑</span> flagged by rule {review.byRule},{' '}
                    <span className="tabular">{formatTimestamp(review.updatedAt)}</span>
                  </span>,
                ],
              ] as const)),
        ]}
      />
      {review.note === null ? null : <p className="review-note">{review.note}</p>}
    </>
  );
}

function Changes({ review, gone }: { review: ReviewSummary; gone: boolean }) {
  return (
    <div>
      <h4 className="review-subtitle">What changed since the review</h4>
      {gone ? (
        <p className="muted">The bank no longer lists this record as it was reviewed (posted, released or removed).</p>
      ) : null}
      <table className="table review-changes">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Before</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {review.changes.map((change) => (
            <tr key={change.field}>
              <td className="mono">{change.field}</td>
              <td className="mono review-before">
                <ChangeValue json={change.before} />
              </td>
              <td className="mono review-after">
                <ChangeValue json={change.after} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A value as its JSON text; a whole object that came or went (a retry's attempt) one field a
 * line, `name: value`, so it reads in a narrow column.
 */
function ChangeValue({ json }: { json: string | null }) {
  if (json === null) return <span className="muted review-absent">(absent)</span>;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return <>{json}</>;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return <>{json}</>;
  return (
    <ul className="review-change-fields">
      {Object.entries(value).map(([name, field]) => (
        <li key={name}>
          <span className="muted">{name}:</span> {JSON.stringify(field)}
        </li>
      ))}
    </ul>
  );
}
