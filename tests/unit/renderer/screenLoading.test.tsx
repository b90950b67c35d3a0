/**
 * A screen loaded on first use (issue 36: the first screen's script holds only what it draws):
 * "Opening…" while its chunk comes, the screen once it has, and a sentence with a Reload button
 * in place of that screen alone when the chunk cannot be fetched.
 */
import { render, screen } from '@testing-library/react';
import { lazy } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ScreenLoading } from '../../../src/renderer/src/frame/ScreenLoading.tsx';

describe('ScreenLoading', () => {
  it('says it is opening the screen until its chunk has come, then draws it', async () => {
    let arrive: () => void = () => undefined;
    const Overview = lazy(
      () =>
        new Promise<{ default: () => React.JSX.Element }>((resolve) => {
          arrive = () => {
            resolve({ default: () => <h1>Overview</h1> });
          };
        }),
    );
    render(
      <ScreenLoading label="Overview">
        <Overview />
      </ScreenLoading>,
    );
    expect(screen.getByRole('status')).toHaveProperty('textContent', 'Opening…');
    arrive();
    expect(await screen.findByRole('heading', { name: 'Overview' })).toBeDefined();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says the screen could not be opened, and why, with Reload, when its chunk cannot be fetched', async () => {
    // React reports the caught error to the console as well; that is its own output, not a failure here.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const Listener = lazy(() =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/ListenerScreen-x.js')),
    );
    render(
      <ScreenLoading label="Listener">
        <Listener />
      </ScreenLoading>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not open Listener');
    expect(alert.textContent).toContain('Failed to fetch dynamically imported module: /assets/ListenerScreen-x.js');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeDefined();
    quiet.mockRestore();
  });
});
