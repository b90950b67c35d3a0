/**
 * The applicant view (issue 24), in the application drawer: each person the application names
 * with their roles, name, date of birth and age, citizenship, addresses, email and phone; the
 * business with its legal name, tax id, formation and addresses; the documents linked to each;
 * and every other application naming the same applicant. Personal fields come masked from the
 * main process; Reveal asks for one field in clear (written to the audit chain there) and keeps
 * it only while this section is open.
 */
import { DocumentPreviewButton } from './DocumentPreview.tsx';
import { useState, type ReactNode } from 'react';
import type { ApplicantView, NamedApplicant } from '../../../../shared/ipc/index.ts';
import type { PersonalField } from '../../../../shared/personalData/masking.ts';
import { Badge } from '../../components/Badge.tsx';
import { Button } from '../../components/Button.tsx';
import { Properties, Section } from '../../components/Drawer.tsx';
import { ErrorState, LoadingState } from '../../components/States.tsx';
import { formatTimestamp } from '../../lib/time.ts';
import { revealKeyOf, useApplicants, type ApplicantsOfApplication } from './useApplicants.ts';
import './applicants.css';

const FIELD_LABEL: Record<PersonalField, string> = {
  date_of_birth: 'date of birth',
  tin: 'tax id',
  ssn: 'social security number',
  identification_number: 'identification number',
  phone_number: 'phone',
  email_address: 'email',
  'physical_address.street_line_1': 'physical street line 1',
  'physical_address.street_line_2': 'physical street line 2',
  'mailing_address.street_line_1': 'mailing street line 1',
  'mailing_address.street_line_2': 'mailing street line 2',
};

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function objectOf(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** A person's full name, or a business's legal name: how the officer calls the applicant. */
function applicantName(named: NamedApplicant): string {
  const record = named.applicant?.record ?? null;
  if (record === null) return named.applicantId;
  if (named.kind === 'business') return text(record['name']) ?? named.applicantId;
  const name = [record['first_name'], record['middle_name'], record['last_name']].map(text).filter(Boolean).join(' ');
  return name === '' ? named.applicantId : name;
}

interface FieldContext {
  profileId: string;
  named: NamedApplicant;
  applicant: ApplicantView;
  book: ApplicantsOfApplication;
  who: string;
}

/** One personal field: masked, with Reveal; or revealed, in clear, until the drawer closes. */
function PersonalValue({ context, field, shown }: { context: FieldContext; field: PersonalField; shown: unknown }) {
  const { applicant, book, who } = context;
  const key = revealKeyOf(applicant.applicantId, field);
  const masked = applicant.maskedFields.includes(field);
  if (shown === undefined || shown === null) return <span className="faint">—</span>;
  // A personal field arrives as text (masked by main); anything else is shown as JSON.
  const text = typeof shown === 'string' ? shown : JSON.stringify(shown);
  if (!masked) return <span>{text}</span>;
  if (book.revealed.has(key)) {
    return (
      <span className="applicant-revealed" data-field={field}>
        <span>{book.revealed.get(key) ?? '—'}</span>
        <span className="applicant-sr-only">(revealed)</span>
      </span>
    );
  }
  return (
    <span className="applicant-masked" data-field={field}>
      <span>{text}</span>
      <span className="applicant-sr-only">(masked)</span>
      <Button
        variant="ghost"
        size="sm"
        busy={book.revealing === key}
        aria-label={`Reveal ${FIELD_LABEL[field]} of ${who}`}
        onClick={() => void book.reveal(applicant.applicantId, field)}
      >
        Reveal
      </Button>
    </span>
  );
}

function AddressValue({ context, which }: { context: FieldContext; which: 'physical_address' | 'mailing_address' }) {
  const address = objectOf(context.applicant.record?.[which]);
  if (address === null) return <span className="faint">{which === 'mailing_address' ? 'same as physical' : '—'}</span>;
  const place = [
    text(address['city']),
    [text(address['state']), text(address['postal_code'])].filter(Boolean).join(' '),
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <span className="applicant-address">
      <PersonalValue context={context} field={`${which}.street_line_1`} shown={address['street_line_1']} />
      {address['street_line_2'] === undefined || address['street_line_2'] === null ? null : (
        <PersonalValue context={context} field={`${which}.street_line_2`} shown={address['street_line_2']} />
      )}
      <span>
        {place}
        {text(address['country']) === null ? '' : ` ${String(address['country'])}`}
      </span>
    </span>
  );
}

function Documents({ context, ids }: { context: FieldContext; ids: unknown }) {
  if (!Array.isArray(ids) || ids.length === 0) return <span className="faint">none linked</span>;
  return (
    <ul className="applicant-documents">
      {ids.map((id) => (
        <li key={String(id)} className="row">
          <span className="mono">{String(id)}</span>
          <DocumentPreviewButton
            profileId={context.profileId}
            applicantId={context.applicant.applicantId}
            documentId={String(id)}
            who={context.who}
          />
        </li>
      ))}
    </ul>
  );
}

function PersonProperties({ context }: { context: FieldContext }) {
  const record = context.applicant.record ?? {};
  const age = context.applicant.age;
  return (
    <Properties
      items={[
        ['Roles', <Roles key="r" roles={context.named.roles} />],
        ['Full name', context.who],
        [
          'Date of birth',
          <span key="b" className="row">
            <PersonalValue context={context} field="date_of_birth" shown={record['date_of_birth']} />
            {age === null ? null : <span className="muted tabular">age {age}</span>}
          </span>,
        ],
        ['Citizenship', text(record['citizenship'])],
        ['Physical address', <AddressValue key="pa" context={context} which="physical_address" />],
        ['Mailing address', <AddressValue key="ma" context={context} which="mailing_address" />],
        ['Email', <PersonalValue key="e" context={context} field="email_address" shown={record['email_address']} />],
        ['Phone', <PersonalValue key="p" context={context} field="phone_number" shown={record['phone_number']} />],
        ['Documents', <Documents key="d" context={context} ids={record['document_ids']} />],
      ]}
    />
  );
}

function BusinessProperties({ context }: { context: FieldContext }) {
  const record = context.applicant.record ?? {};
  const taxField: PersonalField =
    record['tin'] === null && record['identification_number'] ? 'identification_number' : 'tin';
  const formation = [
    text(record['legal_structure']),
    text(record['incorporation_state']),
    text(record['established_on']),
  ]
    .filter(Boolean)
    .join(' · ');
  const people = Array.isArray(record['person_applications']) ? (record['person_applications'] as unknown[]) : [];
  return (
    <Properties
      items={[
        ['Legal name', context.who],
        ['Doing business as', text(record['dba'])],
        ['Tax id', <PersonalValue key="t" context={context} field={taxField} shown={record[taxField]} />],
        ['Formation', formation === '' ? null : formation],
        ['Industry', text(record['naics_description'])],
        ['Phone', <PersonalValue key="p" context={context} field="phone_number" shown={record['phone_number']} />],
        ['Physical address', <AddressValue key="pa" context={context} which="physical_address" />],
        ['Mailing address', <AddressValue key="ma" context={context} which="mailing_address" />],
        [
          'People',
          people.length === 0 ? null : (
            <ul key="pe" className="applicant-documents">
              {people.map((person) => {
                const ref = objectOf(person) ?? {};
                const roles = Array.isArray(ref['roles']) ? ref['roles'].map(String).join(', ') : '';
                return (
                  <li key={String(ref['id'])}>
                    <span className="mono">{String(ref['id'])}</span> <span className="muted">{roles}</span>
                  </li>
                );
              })}
            </ul>
          ),
        ],
        ['Documents', <Documents key="d" context={context} ids={record['document_ids']} />],
      ]}
    />
  );
}

function Roles({ roles }: { roles: readonly string[] }) {
  return (
    <span className="row">
      {roles.map((role) => (
        <Badge key={role} tone={role === 'owner' || role === 'primary' ? 'accent' : 'neutral'}>
          {role}
        </Badge>
      ))}
    </span>
  );
}

function OtherApplications({
  applicant,
  currentId,
  onOpenApplication,
}: {
  applicant: ApplicantView;
  currentId: string;
  onOpenApplication: (id: string) => void;
}) {
  const others = applicant.applications.filter((link) => link.applicationId !== currentId);
  if (others.length === 0) return null;
  return (
    <div className="applicant-links">
      <p className="muted">
        Also named by {others.length} other {others.length === 1 ? 'application' : 'applications'}:
      </p>
      <ul>
        {others.map((link) => (
          <li key={link.applicationId}>
            <Button
              variant="ghost"
              size="sm"
              className="mono"
              onClick={() => {
                onOpenApplication(link.applicationId);
              }}
            >
              {link.applicationId}
            </Button>
            <span className="muted"> {link.roles.join(', ')}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function ApplicantCard({
  profileId,
  named,
  book,
  applicationId,
  onOpenApplication,
}: {
  profileId: string;
  named: NamedApplicant;
  book: ApplicantsOfApplication;
  applicationId: string;
  onOpenApplication: (id: string) => void;
}) {
  const applicant = named.applicant;
  const who = applicantName(named);
  let body: ReactNode;
  if (applicant === null) {
    body = <p className="muted">Not fetched yet: sync the application book to fetch it.</p>;
  } else if (applicant.state === 'not-returned' || applicant.record === null) {
    body = (
      <p className="applicant-problem" role="note">
        Applicant not returned by the bank (it answered 404 when last asked, {formatTimestamp(applicant.fetchedAt)}).
      </p>
    );
  } else {
    const context: FieldContext = { profileId, named, applicant, book, who };
    body = (
      <>
        {applicant.state === 'malformed' ? (
          <p className="applicant-problem" role="note">
            Kept as the bank sent it, which breaks the interface: {applicant.problems.join('; ')}.
          </p>
        ) : null}
        {named.kind === 'person' ? <PersonProperties context={context} /> : <BusinessProperties context={context} />}
      </>
    );
  }
  return (
    <article className="applicant-card" aria-label={`${named.kind === 'person' ? 'Person' : 'Business'} ${who}`}>
      <header className="applicant-card-header">
        <h4>{who}</h4>
        <span className="muted">{named.kind === 'person' ? 'person' : 'business'}</span>
        {named.kind === 'business' ? <Roles roles={named.roles} /> : null}
        <span className="mono faint applicant-id">{named.applicantId}</span>
      </header>
      {body}
      {applicant === null ? null : (
        <OtherApplications applicant={applicant} currentId={applicationId} onOpenApplication={onOpenApplication} />
      )}
    </article>
  );
}

export function ApplicantsSection({
  profileId,
  applicationId,
  onOpenApplication,
}: {
  profileId: string;
  applicationId: string;
  onOpenApplication: (id: string) => void;
}) {
  const book = useApplicants(profileId, applicationId);
  const [wide, setWide] = useState(false);
  const lastRevealed = [...book.revealed.keys()].at(-1);
  return (
    <Section
      title="Applicants"
      aside={
        <Button
          variant="ghost"
          size="sm"
          aria-pressed={wide}
          onClick={() => {
            setWide((value) => !value);
          }}
        >
          {wide ? 'Narrow' : 'Full width'}
        </Button>
      }
    >
      {/* Full width for long cases: the drawer takes the list's room while this is pressed. */}
      <div className={wide ? 'applicants applicants-wide' : 'applicants'} data-wide={wide || undefined}>
        <p className="applicant-sr-only" role="status" aria-live="polite">
          {lastRevealed === undefined
            ? ''
            : `Revealed ${FIELD_LABEL[lastRevealed.split('|')[1] as PersonalField]}; the reveal is in the audit log.`}
        </p>
        {book.revealError === null ? null : <ErrorState what="Reveal" error={book.revealError} />}
        {book.loading && book.rows === null ? <LoadingState label="Loading the applicants…" /> : null}
        {book.error === null ? null : <ErrorState what="Applicants" error={book.error} onRetry={book.reload} />}
        {book.rows !== null && book.rows.length === 0 ? (
          <p className="muted">This application names no applicant.</p>
        ) : null}
        {book.rows?.map((named) => (
          <ApplicantCard
            key={named.applicantId}
            profileId={profileId}
            named={named}
            book={book}
            applicationId={applicationId}
            onOpenApplication={onOpenApplication}
          />
        ))}
      </div>
    </Section>
  );
}
