/**
 * A screening hit in the review drawer, in jsdom on the real bridge builder with fake handlers:
 * the applicant (masked) and the list entry side by side with the score's parts, a hit whose
 * entry a newer list dropped says so, and "No match" clears it with that reason.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ScreeningHitView } from '../../../src/renderer/src/features/review/ScreeningHitView.tsx';
import type { HitRecord } from '../../../src/shared/screening/screeningHit.ts';
import { installFakeBridge } from './setup.tsx';

const REF = 'apsn_01:ofac-sdn:20001';

function hitOf(extra: Partial<HitRecord> = {}): HitRecord {
  return {
    applicant: {
      id: 'apsn_01',
      kind: 'person',
      names: ['Grace Allen'],
      dateOfBirth: '•••• 1994',
      nationalities: ['US'],
      identifiers: [],
    },
    entry: {
      source: 'ofac-sdn',
      uid: '20001',
      kind: 'person',
      name: 'ALLEN, Grace',
      aliases: ['ALLEN, G.'],
      datesOfBirth: ['1994'],
      nationalities: [],
      programs: ['SDGT'],
    },
    score: 0.97,
    explanation: { entryUid: '20001', score: 0.97, name: {} as HitRecord['explanation']['name'], adjustments: [] },
    words: [
      '"grace allen" against "ALLEN, Grace" (primary): grace ~ grace 1.00',
      'born •••• 1994, the list says 1994: +0.02',
    ],
    state: 'open',
    goneNote: null,
    list: { publishedAt: '2025-04-01', digest: 'ab' },
    foundAt: '2026-12-02T10:00:00.000Z',
    screenedAt: '2026-12-02T10:00:00.000Z',
    ...extra,
  };
}

describe('a screening hit in the review drawer', () => {
  it('shows the applicant and the list entry side by side, with the score and its parts', () => {
    installFakeBridge({});
    render(<ScreeningHitView profileId="staging" reference={REF} record={hitOf()} />);
    const applicant = screen.getByRole('region', { name: 'Applicant' });
    const entry = screen.getByRole('region', { name: 'List entry' });
    expect(within(applicant).getByText('Grace Allen')).toBeTruthy();
    expect(within(applicant).getByText('•••• 1994')).toBeTruthy();
    expect(within(entry).getByText('ALLEN, Grace')).toBeTruthy();
    expect(within(entry).getByText('OFAC SDN 20001')).toBeTruthy();
    expect(within(entry).getByText('SDGT')).toBeTruthy();
    expect(screen.getByText('0.97')).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Why the score' }).textContent).toContain('the list says 1994: +0.02');
    expect(screen.queryByText(/no longer on/)).toBeNull();
  });

  it('says first when the entry is no longer on its list', () => {
    installFakeBridge({});
    render(
      <ScreeningHitView
        profileId="staging"
        reference={REF}
        record={hitOf({ state: 'gone', goneNote: 'entry no longer on OFAC SDN (2025-03-14)' })}
      />,
    );
    expect(screen.getByText('entry no longer on OFAC SDN (2025-03-14)')).toBeTruthy();
  });

  it('clears the hit with the reason no-match', async () => {
    const bridge = installFakeBridge({ 'reviews.give': () => ({ rows: [] }) });
    render(<ScreeningHitView profileId="staging" reference={REF} record={hitOf()} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'No match' }));
      await Promise.resolve();
    });
    expect(bridge.calls).toContainEqual({
      channel: 'reviews.give',
      input: { profileId: 'staging', kind: 'screening-hit', refs: [REF], disposition: 'cleared', reason: 'no-match' },
    });
  });

  it('says so when the record is not a hit', () => {
    installFakeBridge({});
    render(<ScreeningHitView profileId="staging" reference={REF} record={{ id: 'x' }} />);
    expect(screen.getByText("This hit's record could not be read.")).toBeTruthy();
  });
});
