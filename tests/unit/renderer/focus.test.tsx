/**
 * Focus management in one place (components/focus): modal layers, where focus goes back, and
 * the keys a screen's list may take. In jsdom: no layout, but focus, attributes and keyboard
 * events behave as in the browser (the e2e accessibility spec drives the real thing).
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ConfirmDialog, Dialog } from '../../../src/renderer/src/components/Dialog.tsx';
import { focusFirstLive, isLive, tabbables } from '../../../src/renderer/src/components/focus/focusTargets.ts';
import { isScreenKeyTarget } from '../../../src/renderer/src/lib/keyboard.ts';
import './setup.tsx';

/** A page with a screen heading, an opener and a dialog that can open a second one. */
function Page({ removeOpenerOnOpen = false }: { removeOpenerOnOpen?: boolean }) {
  const [first, setFirst] = useState(false);
  const [second, setSecond] = useState(false);
  return (
    <div id="app">
      <main id="screen">
        <h1 tabIndex={-1}>Webhooks</h1>
        {removeOpenerOnOpen && first ? null : (
          <button
            type="button"
            onClick={() => {
              setFirst(true);
            }}
          >
            New webhook
          </button>
        )}
      </main>
      {first ? (
        <Dialog
          title="New webhook"
          onClose={() => {
            setFirst(false);
          }}
        >
          <input aria-label="URL" />
          <button
            type="button"
            onClick={() => {
              setSecond(true);
            }}
          >
            Create webhook
          </button>
        </Dialog>
      ) : null}
      {second ? (
        <ConfirmDialog
          title="Change Production?"
          confirmLabel="Yes, change Production"
          tone="danger"
          onConfirm={() => {
            setSecond(false);
          }}
          onCancel={() => {
            setSecond(false);
          }}
        >
          This changes the real bank.
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

function layerOf(name: string): HTMLElement {
  const layer = screen.getByRole('dialog', { name }).parentElement;
  if (layer === null) throw new Error(`${name} has no layer`);
  return layer;
}

describe('modal dialogs', () => {
  it('make the rest of the page inert, trap Tab, and close one at a time with Escape', async () => {
    const user = userEvent.setup();
    const { container } = render(<Page />);
    const app = container; // the test's root <div>, a child of <body> like the app's #root
    await user.click(screen.getByRole('button', { name: 'New webhook' }));
    expect(document.activeElement).toBe(screen.getByLabelText('URL'));
    expect(app.hasAttribute('inert')).toBe(true);
    expect(layerOf('New webhook').hasAttribute('inert')).toBe(false);

    // Tab wraps inside the dialog, both ways.
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Create webhook' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('URL'));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Create webhook' }));

    // A second dialog on top: the first goes inert too; Cancel is where focus starts.
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    expect(layerOf('New webhook').hasAttribute('inert')).toBe(true);

    // Escape closes only the top one; focus goes back to what opened it.
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Change Production?' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'New webhook' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Create webhook' }));
    expect(layerOf('New webhook').hasAttribute('inert')).toBe(false);

    // Escape with focus nowhere still closes the top dialog; the page is live again.
    act(() => {
      (document.activeElement as HTMLElement).blur();
    });
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(app.hasAttribute('inert')).toBe(false);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'New webhook' }));
  });

  it('gives focus to the screen heading when what opened the dialog is gone', async () => {
    const user = userEvent.setup();
    render(<Page removeOpenerOnOpen />);
    await user.click(screen.getByRole('button', { name: 'New webhook' }));
    expect(screen.queryByRole('button', { name: 'New webhook' })).toBeNull();
    await user.keyboard('{Escape}');
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Webhooks' }));
  });

  it('lets a control inside keep Escape for itself', async () => {
    const user = userEvent.setup();
    render(
      <Dialog title="Edit" onClose={() => undefined}>
        <input
          aria-label="Keeps Escape"
          onKeyDown={(event) => {
            if (event.key === 'Escape') event.preventDefault();
          }}
        />
      </Dialog>,
    );
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Edit' })).toBeTruthy();
  });
});

describe('focus targets', () => {
  it('counts a disabled, inert or hidden element as not live, an aria-disabled one as live', () => {
    render(
      <div>
        <button type="button">Live</button>
        <button type="button" disabled>
          Disabled
        </button>
        <button type="button" aria-disabled="true">
          Busy
        </button>
        <div inert>
          <button type="button">Behind a dialog</button>
        </div>
        <div hidden>
          <button type="button">Hidden</button>
        </div>
        <h1 tabIndex={-1}>Heading</h1>
      </div>,
    );
    const named = (name: string) => screen.getByText(name);
    expect(isLive(named('Live'))).toBe(true);
    expect(isLive(named('Busy'))).toBe(true);
    expect(isLive(named('Disabled'))).toBe(false);
    expect(isLive(named('Behind a dialog'))).toBe(false);
    expect(isLive(named('Hidden'))).toBe(false);
    expect(tabbables(document.body).map((element) => element.textContent)).toEqual(['Live', 'Busy']);
  });

  it('falls back to the screen heading, then to the screen itself', () => {
    const { rerender } = render(
      <main id="screen">
        <h1>Listener</h1>
      </main>,
    );
    const gone = document.createElement('button');
    expect(focusFirstLive([gone, null])).toBe(screen.getByRole('heading', { name: 'Listener' }));
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Listener' }));
    rerender(<main id="screen" tabIndex={-1} />);
    expect(focusFirstLive([])).toBe(document.getElementById('screen'));
  });
});

describe('keys a screen list may take', () => {
  it('takes them from nowhere and from the screen’s text, never from a control or outside the screen', () => {
    render(
      <>
        <nav>
          <a href="#/webhooks">Webhooks</a>
          <span>Operations</span>
        </nav>
        <main id="screen">
          <h1 tabIndex={-1}>Pending transactions</h1>
          <button type="button">Export CSV</button>
          <div role="grid" aria-label="Rows" tabIndex={0} />
          <pre tabIndex={0}>{'{}'}</pre>
        </main>
      </>,
    );
    expect(isScreenKeyTarget(document.body)).toBe(true);
    expect(isScreenKeyTarget(screen.getByRole('heading'))).toBe(true);
    expect(isScreenKeyTarget(screen.getByText('{}'))).toBe(true);
    expect(isScreenKeyTarget(screen.getByRole('button', { name: 'Export CSV' }))).toBe(false);
    expect(isScreenKeyTarget(screen.getByRole('grid'))).toBe(false);
    expect(isScreenKeyTarget(screen.getByRole('link', { name: 'Webhooks' }))).toBe(false);
    expect(isScreenKeyTarget(screen.getByText('Operations'))).toBe(false);
  });
});
