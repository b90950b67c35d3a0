/**
 * The one toast region (issue 38): a strip along the bottom of the window that takes its own
 * room. While it shows toasts, the app above it is that much shorter (`--toast-space`), so a
 * toast never covers a list, a drawer, the focused control, a dialog's buttons or a result: there
 * are no corners to move between. Announced to screen readers politely; drawn in a layer of its
 * own, exempt from the inert page behind a modal dialog, so a toast raised while a dialog is
 * open is still announced.
 */
import { useLayoutEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useToastStore } from '../stores/toasts.ts';
import { Icon } from './Icon.tsx';

/** Tells the layout how tall the toast strip is now (0 without toasts). */
function useReservedSpace(layer: React.RefObject<HTMLElement | null>, count: number): void {
  useLayoutEffect(() => {
    const element = layer.current;
    const root = document.documentElement;
    const reserve = (): void => {
      root.style.setProperty('--toast-space', `${String(count === 0 ? 0 : (element?.offsetHeight ?? 0))}px`);
    };
    reserve();
    if (element === null || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(reserve);
    observer.observe(element);
    return () => {
      observer.disconnect();
    };
  }, [layer, count]);
}

export function Toasts() {
  const toasts = useToastStore((state) => state.toasts);
  const dismiss = useToastStore((state) => state.dismiss);
  const layer = useRef<HTMLElement>(null);
  useReservedSpace(layer, toasts.length);
  return createPortal(
    // A named region: its toasts and their Dismiss buttons are in a landmark like the rest of the
    // window (IBM Equal Access's aria_content_in_landmark, issue 38).
    <section
      ref={layer}
      className={`toasts${toasts.length === 0 ? ' is-empty' : ''}`}
      aria-label="Notifications"
      aria-live="polite"
      aria-relevant="additions"
      data-modal-exempt
    >
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.tone}`} role={toast.tone === 'error' ? 'alert' : 'status'}>
          <Icon
            name={
              toast.tone === 'success' ? 'check' : toast.tone === 'error' || toast.tone === 'warning' ? 'alert' : 'link'
            }
            size={14}
          />
          <div className="toast-text">
            <div className="toast-title">{toast.title}</div>
            {toast.body === undefined ? null : <div className="toast-body">{toast.body}</div>}
          </div>
          <button
            type="button"
            className="toast-close"
            aria-label="Dismiss"
            onClick={() => {
              dismiss(toast.id);
            }}
          >
            <Icon name="close" size={12} />
          </button>
        </div>
      ))}
    </section>,
    document.body,
  );
}
