/**
 * Settings → Record → the archive (issue 34, item 6): the record's signing key's fingerprint,
 * "Export an archive…" asked of main with the passphrase typed (a short one refused before it is
 * sent), "Verify an archive…" giving the verdict in words (the first bad entry when it fails),
 * and removing a profile offering its archive in the confirmation first.
 */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { RecordArchive } from '../../../src/renderer/src/features/settings/RecordArchive.tsx';
import { useSettingsStore } from '../../../src/renderer/src/features/settings/store.ts';
import { ConfirmHost } from '../../../src/renderer/src/frame/ConfirmHost.tsx';
import { installFakeBridge, settle, withStagingProfile } from './setup.tsx';

const counts = { reviews: 1234, steps: 1300, rows: 3, auditEntries: 1500 };
const FINGERPRINT = '1a2b 3c4d 5e6f 7081 92a3 b4c5 d6e7 f809';

beforeEach(() => {
  withStagingProfile();
});

describe('RecordArchive', () => {
  it('exports with the passphrase typed, then verifies the file and names the first bad entry', async () => {
    let good = true;
    const bridge = installFakeBridge({
      'record.signingKey': () => ({ fingerprint: FINGERPRINT }),
      'record.exportArchive': () => ({
        saved: true,
        path: '/home/officer/Downloads/ledgerdesk-record.ledgerarchive',
        counts,
        fingerprint: FINGERPRINT,
      }),
      'record.verifyArchive': (input) => ({
        ok: good,
        file: (input as { path: string }).path,
        fingerprint: FINGERPRINT,
        madeAt: '2026-12-02T18:00:00.000Z',
        profiles: ['Staging'],
        counts,
        auditHead: 'ab'.repeat(32),
        problem: good
          ? null
          : 'The archive does not verify: entry 1,234 (review of Coffee shop · card on 2026-11-30) does not match: the line was changed after the archive was signed.',
        notes: [],
      }),
    });
    render(<RecordArchive />);
    await settle();
    expect(screen.getByText(FINGERPRINT)).toBeTruthy();
    const user = userEvent.setup();
    const passphrase = screen.getByLabelText(/Archive passphrase/);
    await user.type(passphrase, 'short');
    const exportButton = screen.getByRole('button', { name: 'Export an archive…' });
    expect(exportButton.getAttribute('aria-disabled') === 'true' || exportButton.hasAttribute('disabled')).toBe(true);
    await user.type(passphrase, ' but now long enough');
    await user.click(exportButton);
    await settle();
    expect(bridge.calls).toContainEqual({
      channel: 'record.exportArchive',
      input: { passphrase: 'short but now long enough' },
    });
    // The archive just written is the one offered to verify.
    const path = screen.getByLabelText<HTMLInputElement>(/Archive to verify/);
    expect(path.value).toBe('/home/officer/Downloads/ledgerdesk-record.ledgerarchive');
    await user.click(screen.getByRole('button', { name: 'Verify an archive…' }));
    await settle();
    expect(screen.getByRole('status').textContent).toMatch(
      /^The archive verifies: 1,234 reviews, 1,300 steps of history and 1,500 audit log entries, .*signed by the record's key 1a2b/,
    );
    good = false;
    await user.click(screen.getByRole('button', { name: 'Verify an archive…' }));
    await settle();
    expect(screen.getByRole('status').textContent).toMatch(
      /entry 1,234 \(review of Coffee shop · card on 2026-11-30\) does not match/,
    );
  });

  it('offers the archive in the confirmation of a profile removal, before anything is removed', async () => {
    const bridge = installFakeBridge({
      'record.exportArchive': () => ({
        saved: true,
        path: '/tmp/staging.ledgerarchive',
        counts,
        fingerprint: FINGERPRINT,
      }),
      'profiles.remove': () => ({ removed: true }),
      'profiles.list': () => [],
    });
    render(<ConfirmHost />);
    const removal = useSettingsStore.getState().removeProfile('staging', 'Staging');
    await settle();
    expect(
      screen.getByText(/Its reviews, notes and their history go with it: export Staging's archive first/),
    ).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: "Export Staging's archive…" }));
    await settle();
    expect(bridge.calls).toContainEqual({ channel: 'record.exportArchive', input: { profileId: 'staging' } });
    expect(bridge.calls.map((call) => call.channel)).not.toContain('profiles.remove');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await removal;
    expect(bridge.calls.map((call) => call.channel)).not.toContain('profiles.remove');
  });
});
