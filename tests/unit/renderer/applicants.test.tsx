/**
 * The applicant view (issue 24) in the application drawer: people and the business shown with
 * their personal fields masked as the main process sends them; Reveal asks for one field and
 * shows it in clear only while the section is open; an applicant the bank did not return is
 * shown as such; another application naming the same person is one click away.
 */
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApplicantsSection } from '../../../src/renderer/src/features/applicants/ApplicantsSection.tsx';
import type { NamedApplicant } from '../../../src/shared/ipc/index.ts';
import { maskApplicantRecord } from '../../../src/shared/personalData/masking.ts';
import { installFakeBridge, refuse, settle } from './setup.tsx';

const FRANCES = {
  id: 'apsn_frances',
  first_name: 'Frances',
  middle_name: null,
  last_name: 'Knuth',
  date_of_birth: '1997-05-18',
  email_address: 'frances@example.com',
  phone_number: '2025551111',
  citizenship: 'US',
  physical_address: { street_line_1: '1600 Pennsylvania Ave', city: 'Washington', state: 'DC', postal_code: '20500' },
  mailing_address: null,
  document_ids: ['doc_passport1'],
};

const NAMED: NamedApplicant[] = [
  {
    applicantId: 'apsn_frances',
    kind: 'person',
    roles: ['primary', 'owner'],
    applicant: {
      applicantId: 'apsn_frances',
      kind: 'person',
      state: 'received',
      record: maskApplicantRecord(FRANCES),
      maskedFields: ['date_of_birth', 'phone_number', 'email_address', 'physical_address.street_line_1'],
      age: 29,
      problems: [],
      fetchedAt: '2026-11-26T10:00:00.000Z',
      applications: [
        { applicationId: 'aact_one', roles: ['primary', 'owner'] },
        { applicationId: 'aact_two', roles: ['signer'] },
      ],
    },
  },
  {
    applicantId: 'apsn_gone',
    kind: 'person',
    roles: ['signer'],
    applicant: {
      applicantId: 'apsn_gone',
      kind: 'person',
      state: 'not-returned',
      record: null,
      maskedFields: [],
      age: null,
      problems: [],
      fetchedAt: '2026-11-26T10:00:00.000Z',
      applications: [{ applicationId: 'aact_one', roles: ['signer'] }],
    },
  },
];

function installBook() {
  return installFakeBridge({
    'applicants.ofApplication': () => ({ rows: NAMED, asOf: '2026-11-26T10:00:00.000Z' }),
    'applicants.reveal': (input) => {
      const { field } = input as { field: string };
      if (field === 'phone_number')
        throw refuse('not_found', 'There is no cached applicant apsn_frances.', 'applicantId');
      return { field, value: field === 'date_of_birth' ? FRANCES.date_of_birth : null, auditEntryId: '41' };
    },
  });
}

describe('the applicant view', () => {
  it('shows each person masked, with roles, age, citizenship, address and documents', async () => {
    installBook();
    render(<ApplicantsSection profileId="p1" applicationId="aact_one" onOpenApplication={() => undefined} />);
    await settle();
    const card = screen.getByRole('article', { name: 'Person Frances Knuth' });
    expect(within(card).getByText('•••• 1997')).toBeTruthy();
    expect(within(card).getByText('age 29')).toBeTruthy();
    expect(within(card).getByText('US')).toBeTruthy();
    expect(within(card).getByText('f•••@example.com')).toBeTruthy();
    expect(within(card).getByText('••••••1111')).toBeTruthy();
    expect(within(card).getByText('Washington, DC 20500')).toBeTruthy();
    expect(within(card).getByText('doc_passport1')).toBeTruthy();
    expect(within(card).getByText('primary')).toBeTruthy();
    // Nothing of the clear values is on screen.
    expect(document.body.textContent).not.toContain('1997-05-18');
    expect(document.body.textContent).not.toContain('1600 Pennsylvania');
    expect(document.body.textContent).not.toContain('frances@example.com');
  });

  it('reveals one field on request, until the section closes', async () => {
    const bridge = installBook();
    const view = render(
      <ApplicantsSection profileId="p1" applicationId="aact_one" onOpenApplication={() => undefined} />,
    );
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Reveal date of birth of Frances Knuth' }));
    await settle();
    expect(bridge.calls.filter((call) => call.channel === 'applicants.reveal').map((call) => call.input)).toEqual([
      { profileId: 'p1', applicantId: 'apsn_frances', field: 'date_of_birth' },
    ]);
    expect(screen.getByText('1997-05-18')).toBeTruthy();
    expect(document.body.textContent).toContain('Revealed date of birth; the reveal is in the audit log.');
    // The others stay masked.
    expect(screen.getByRole('button', { name: 'Reveal email of Frances Knuth' })).toBeTruthy();
    view.unmount();
    render(<ApplicantsSection profileId="p1" applicationId="aact_one" onOpenApplication={() => undefined} />);
    await settle();
    expect(document.body.textContent).not.toContain('1997-05-18');
    expect(screen.getByRole('button', { name: 'Reveal date of birth of Frances Knuth' })).toBeTruthy();
  });

  it('says why a reveal was refused, and shows nothing in clear', async () => {
    installBook();
    render(<ApplicantsSection profileId="p1" applicationId="aact_one" onOpenApplication={() => undefined} />);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Reveal phone of Frances Knuth' }));
    await settle();
    expect(document.body.textContent).toContain('There is no cached applicant apsn_frances.');
    expect(document.body.textContent).not.toContain('2025551111');
  });

  it('shows an applicant the bank did not return, and links to the other applications naming a person', async () => {
    installBook();
    const opened = vi.fn();
    render(<ApplicantsSection profileId="p1" applicationId="aact_one" onOpenApplication={opened} />);
    await settle();
    const gone = screen.getByRole('article', { name: 'Person apsn_gone' });
    expect(within(gone).getByText(/Applicant not returned by the bank/)).toBeTruthy();
    const card = screen.getByRole('article', { name: 'Person Frances Knuth' });
    expect(within(card).getByText('Also named by 1 other application:')).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'aact_two' }));
    expect(opened).toHaveBeenCalledWith('aact_two');
  });

  it('says so when the applicants cannot be read', async () => {
    installFakeBridge({});
    render(<ApplicantsSection profileId="p1" applicationId="aact_one" onOpenApplication={() => undefined} />);
    await settle();
    expect(document.body.textContent).toContain('applicants.ofApplication is not available yet.');
  });
});
