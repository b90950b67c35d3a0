/**
 * An application the bank sent malformed (issue 24): the list's status cell shows the status as
 * received, marked unknown; the drawer's note names the problem and what came in each faulty
 * field. The record is made readable by the same function the cache uses.
 */
import { render, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  ApplicationStatus,
  MalformedApplicationNote,
} from '../../../src/renderer/src/features/accountApplications/MalformedApplication.tsx';
import { readableApplication } from '../../../src/shared/bank/index.ts';

const RECEIVED = {
  id: 'aact_pending000001',
  status: 'pending_review',
  ownership_type: 'personal',
  person_applications: 'owner and signer',
  primary_person_application_id: 'apsn_grace',
};

describe('an application kept as received', () => {
  const shown = readableApplication(RECEIVED, [
    'status: Invalid option: expected one of "unsubmitted"|"submitted"',
    'person_applications: Invalid input: expected array, received string',
  ]);

  it('is made readable: each faulty field emptied, the others kept, what came noted', () => {
    expect(shown.status).toBeNull();
    expect(shown.person_applications).toBeNull();
    expect(shown.ownership_type).toBe('personal');
    expect(shown.primary_person_application_id).toBe('apsn_grace');
    expect(shown.malformed.received).toEqual({
      status: '"pending_review"',
      person_applications: '"owner and signer"',
    });
  });

  it('shows the status as received, marked unknown, in the list and the drawer', () => {
    const { container } = render(<ApplicationStatus application={shown} />);
    const badge = within(container).getByText('pending_review (unknown)');
    expect(badge.closest('.badge')?.className).toContain('badge-warning');
  });

  it('names the problem and what was received beside the application', () => {
    const { container } = render(<MalformedApplicationNote application={shown} />);
    const note = within(container).getByRole('note', { name: 'Kept as received' });
    expect(note.textContent).toContain('Kept as the bank sent it, which breaks the interface: status: Invalid option');
    expect(note.textContent).toContain('The rest of the book was synced.');
    expect(note.textContent).toContain('person_applications');
    expect(note.textContent).toContain('received "owner and signer"');
  });

  it('shows nothing more for a well-formed application', () => {
    const { container } = render(
      <>
        <ApplicationStatus application={{ status: 'manual_review' }} />
        <MalformedApplicationNote application={{ status: 'manual_review' }} />
      </>,
    );
    expect(container.textContent).toBe('manual review');
    expect(within(container).queryByRole('note')).toBeNull();
  });

  it('cuts a long received value', () => {
    const long = readableApplication({ id: 'aact_long', status: 'x'.repeat(500) }, ['status: Invalid option']);
    expect(long.malformed.received['status']?.length).toBe(120);
    expect(long.malformed.received['status']?.endsWith('…')).toBe(true);
  });
});
