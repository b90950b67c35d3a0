/**
 * Around a screen loaded on first use (screenViews.tsx): while its chunk is fetched, a
 * "Opening…" state marked `data-screen-loading` (screen arrival waits for it to go); if the chunk
 * cannot be fetched (Ledgerdesk was stopped, or rebuilt under the open page), or the screen fails
 * to draw, the browser's sentence and a Reload button in place of that screen alone, instead of a
 * blank window. A loaded chunk is never fetched twice.
 */
import { Component, Suspense, type ReactNode } from 'react';
import { Button } from '../components/Button.tsx';
import { StateMessage } from '../components/States.tsx';

function Opening() {
  return (
    <div className="state" role="status" aria-live="polite" data-screen-loading="">
      <span className="spinner spinner-lg" aria-hidden="true" />
      <div className="state-body">Opening…</div>
    </div>
  );
}

interface BoundaryState {
  failure: string | null;
}

class ScreenFailure extends Component<{ label: string; children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { failure: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { failure: error instanceof Error ? error.message : String(error) };
  }

  override render() {
    if (this.state.failure === null) return this.props.children;
    return (
      <StateMessage
        icon="alert"
        tone="negative"
        role="alert"
        title={`Could not open ${this.props.label}`}
        action={
          <Button
            icon="refresh"
            onClick={() => {
              window.location.reload();
            }}
          >
            Reload
          </Button>
        }
      >
        {this.state.failure}. Reloading the window loads the screen again; nothing you saved is lost.
      </StateMessage>
    );
  }
}

export function ScreenLoading({ label, children }: { label: string; children: ReactNode }) {
  return (
    <ScreenFailure label={label}>
      <Suspense fallback={<Opening />}>{children}</Suspense>
    </ScreenFailure>
  );
}
