/**
 * A screening hit in the review drawer (issue 40): the applicant, masked as applicants are
 * everywhere, and the list entry side by side, then the score and its parts in words; a hit
 * whose entry a newer list version dropped says so first. The record is the one the review is
 * given on (shared/screening/screeningHit.ts); "No match" clears it with that reason, which
 * keeps the pair from being a hit again until the applicant or the entry changes.
 */
import { listSourceName } from '../../../../shared/screening/listNames.ts';
import { asHitRecord } from '../../../../shared/screening/screeningHit.ts';
import { Badge } from '../../components/Badge.tsx';
import { Button } from '../../components/Button.tsx';
import { Properties } from '../../components/Drawer.tsx';
import { announce } from '../../stores/announcements.ts';
import { useReviewStore } from './reviewStore.ts';
import './review.css';

function joined(values: readonly string[]): string {
  return values.join(', ');
}

export function ScreeningHitView({
  profileId,
  reference,
  record,
}: {
  profileId: string;
  reference: string;
  record: unknown;
}) {
  const give = useReviewStore((state) => state.give);
  const busy = useReviewStore((state) => state.busy);
  const hit = asHitRecord(record);
  if (hit === null) return <p className="faint">This hit's record could not be read.</p>;
  const { applicant, entry } = hit;
  const applicantName = applicant.names[0] ?? 'the applicant';
  return (
    <div className="screening-hit">
      {hit.state === 'gone' ? (
        <p className="screening-hit-gone">
          <Badge tone="warning">Gone</Badge> {hit.goneNote ?? 'entry no longer on the list'}
        </p>
      ) : null}
      <div className="screening-hit-sides">
        <section aria-label="Applicant">
          <h4>Applicant</h4>
          <Properties
            items={[
              ['Name', applicantName],
              ...(applicant.names.length > 1 ? ([['Also', joined(applicant.names.slice(1))]] as const) : []),
              ['Kind', applicant.kind === 'person' ? 'Person' : 'Business'],
              ...(applicant.kind === 'person'
                ? ([
                    ['Born', applicant.dateOfBirth],
                    ['Citizenship', joined(applicant.nationalities)],
                  ] as const)
                : ([['Identifiers', joined(applicant.identifiers)]] as const)),
            ]}
          />
        </section>
        <section aria-label="List entry">
          <h4>List entry</h4>
          <Properties
            items={[
              ['Name', entry.name],
              ['Also', joined(entry.aliases)],
              ['List', `${listSourceName(entry.source)} ${entry.uid}`],
              ['Programs', joined(entry.programs)],
              ...(entry.kind === 'person'
                ? ([
                    ['Born', joined(entry.datesOfBirth)],
                    ['Nationality', joined(entry.nationalities)],
                  ] as const)
                : []),
            ]}
          />
        </section>
      </div>
      <p className="screening-hit-score">
        Score <strong>{hit.score.toFixed(2)}</strong>
      </p>
      <ul className="screening-hit-words" aria-label="Why the score">
        {hit.words.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <Button
        size="sm"
        variant="secondary"
        disabled={busy}
        onClick={() =>
          void give(profileId, 'screening-hit', [reference], 'cleared', undefined, 'no-match').then((given) => {
            if (given !== null) announce(`Cleared ${applicantName}: no match with ${entry.name}.`);
          })
        }
      >
        No match
      </Button>
    </div>
  );
}
