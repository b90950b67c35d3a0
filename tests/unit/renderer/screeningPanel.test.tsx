/**
 * Settings → Screening: with no list loaded it says how to import one and offers no screening;
 * with a list loaded it lists it (source, published date, digest, entries), and "Screen
 * applicants" screens the active profile, showing each hit names first with the entry's
 * program, the score and its parts; a run with no hit says so at the threshold used.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { ScreeningPanel } from '../../../src/renderer/src/features/settings/ScreeningPanel.tsx';
import { installFakeBridge, settle, withStagingProfile } from './setup.tsx';

const SDN = {
  source: 'ofac-sdn',
  format: 'ofac-xml',
  publishedAt: '2025-04-01',
  digest: 'ab12cd34ef56'.padEnd(64, '0'),
  entryCount: 18212,
  importedAt: '2026-12-02T14:00:00.000Z',
} as const;

const HIT = {
  applicantId: 'pa_1',
  applicantKind: 'person',
  applicantName: 'Alan Turing',
  source: 'ofac-sdn',
  entry: { uid: '20001', name: 'TURING, Alan', kind: 'person', programs: ['SDGT'] },
  score: 1,
  words: [
    '"alan turing" against "TURING, Alan" (primary): turing ~ turing 1.00, alan ~ alan 1.00',
    'born •••• 1975, the list says 1975: +0.02',
  ],
} as const;

beforeEach(() => {
  withStagingProfile();
});

function screenButton(): HTMLElement {
  return screen.getByRole('button', { name: 'Screen applicants' });
}

function disabled(element: HTMLElement): boolean {
  return element.getAttribute('aria-disabled') === 'true' || element.hasAttribute('disabled');
}

describe('ScreeningPanel', () => {
  it('says how to import a list when none is loaded, and offers no screening', async () => {
    installFakeBridge({ 'screening.lists': () => ({ lists: [] }) });
    render(<ScreeningPanel />);
    await settle();
    expect(screen.getByText(/No sanctions list is loaded/)).toBeTruthy();
    expect(screen.getByText('ledger screening import FILE')).toBeTruthy();
    expect(disabled(screenButton())).toBe(true);
  });

  it('lists the loaded list and shows the hits of "Screen applicants" names first, with why', async () => {
    const bridge = installFakeBridge({
      'screening.lists': () => ({ lists: [SDN] }),
      'screening.run': () => ({ threshold: 0.88, lists: [SDN], screened: 41, hits: [HIT] }),
    });
    render(<ScreeningPanel />);
    await settle();
    const lists = screen.getByRole('table', { name: 'Sanctions lists loaded' });
    const row = within(lists).getAllByRole('row')[1];
    expect(row?.textContent).toContain('OFAC SDN');
    expect(row?.textContent).toContain('2025-04-01');
    expect(row?.textContent).toContain('ab12cd34ef56…');
    expect(row?.textContent).toContain('18,212');

    await userEvent.setup().click(screenButton());
    await settle();
    expect(bridge.calls).toContainEqual({ channel: 'screening.run', input: { profileId: 'staging' } });
    expect(screen.getByText(/^1 hit among 41 applicants at 0\.88\./)).toBeTruthy();
    const hits = screen.getByRole('table', { name: 'Screening hits' });
    const cells = within(within(hits).getAllByRole('row')[1] as HTMLElement).getAllByRole('cell');
    expect(within(hits).getByRole('rowheader').textContent).toBe('Alan Turing');
    expect(cells[0]?.textContent).toBe('TURING, Alan (OFAC SDN 20001)');
    expect(cells[1]?.textContent).toBe('SDGT');
    expect(cells[2]?.textContent).toBe('1.00');
    expect(cells[3]?.textContent).toContain('born •••• 1975, the list says 1975: +0.02');
  });

  it('says no applicant matches at the threshold when the run finds none', async () => {
    installFakeBridge({
      'screening.lists': () => ({ lists: [SDN] }),
      'screening.run': () => ({ threshold: 0.88, lists: [SDN], screened: 41, hits: [] }),
    });
    render(<ScreeningPanel />);
    await settle();
    await userEvent.setup().click(screenButton());
    await settle();
    expect(screen.getByText(/^No applicant of Staging matches the loaded lists at 0\.88\./)).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Screening hits' })).toBeNull();
  });

  it('says there was no applicant to screen rather than that none matches', async () => {
    installFakeBridge({
      'screening.lists': () => ({ lists: [SDN] }),
      'screening.run': () => ({ threshold: 0.88, lists: [SDN], screened: 0, hits: [] }),
    });
    render(<ScreeningPanel />);
    await settle();
    await userEvent.setup().click(screenButton());
    await settle();
    expect(screen.getByText(/^Staging has no cached applicant to screen/)).toBeTruthy();
    expect(screen.queryByText(/matches the loaded lists/)).toBeNull();
  });
});
