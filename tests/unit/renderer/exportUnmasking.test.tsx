/**
 * Settings → Profiles → "Personal data in exports and reports" (issue 24, item 4): the active
 * profile's setting loaded (nothing by default), one checkbox per field class, Save only once
 * something changed, the saved classes sent to main, a refusal shown where the user looks.
 */
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ExportUnmaskingPanel } from '../../../src/renderer/src/features/applicants/ExportUnmaskingPanel.tsx';
import { installFakeBridge, refuse, settle } from './setup.tsx';

describe('the export unmasking setting', () => {
  it('starts with nothing unmasked and saves the chosen classes', async () => {
    let stored: string[] = [];
    const bridge = installFakeBridge({
      'applicants.exportUnmasked': () => ({ classes: stored }),
      'applicants.setExportUnmasked': (input) => {
        stored = (input as { classes: string[] }).classes;
        return { classes: stored };
      },
    });
    render(<ExportUnmaskingPanel profileId="local-sandbox" profileName="Local sandbox" />);
    await settle();
    const group = screen.getByRole('group', { name: /exports and review reports of Local sandbox show unmasked/ });
    expect(group).toBeTruthy();
    const boxes = ['date of birth', 'tax id', 'phone', 'email', 'street lines'].map((name) =>
      screen.getByRole<HTMLInputElement>('checkbox', { name: new RegExp(`^${name}`) }),
    );
    expect(boxes.map((box) => box.checked)).toEqual([false, false, false, false, false]);
    const save = screen.getByRole('button', { name: 'Save' });
    // aria-disabled, not disabled: it stays focusable (components/Button.tsx).
    expect(save.getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByText('Now: nothing unmasked.')).toBeTruthy();

    fireEvent.click(boxes[3] as HTMLInputElement);
    fireEvent.click(boxes[0] as HTMLInputElement);
    expect(save.getAttribute('aria-disabled')).toBeNull();
    fireEvent.click(save);
    await settle();
    expect(bridge.calls.find((call) => call.channel === 'applicants.setExportUnmasked')?.input).toEqual({
      profileId: 'local-sandbox',
      classes: ['date_of_birth', 'email'],
    });
    expect(screen.getByText('Now: date of birth, email unmasked.')).toBeTruthy();
    expect(save.getAttribute('aria-disabled')).toBe('true');
  });

  it('shows a refusal beside the form and keeps the choice', async () => {
    installFakeBridge({
      'applicants.exportUnmasked': () => ({ classes: ['phone'] }),
      'applicants.setExportUnmasked': () => {
        throw refuse('not_found', 'There is no profile named prof_gone; see the list of profiles.', 'profileId');
      },
    });
    render(<ExportUnmaskingPanel profileId="prof_gone" profileName="Gone" />);
    await settle();
    const phone = screen.getByRole<HTMLInputElement>('checkbox', { name: /^phone/ });
    expect(phone.checked).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: /^tax id/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('There is no profile named prof_gone');
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: /^tax id/ }).checked).toBe(true);
  });
});
