/**
 * The corner where toasts appear; announced to screen readers politely. Drawn in a layer of
 * its own, exempt from the inert page behind a modal dialog, so a toast raised while a dialog
 * is open is still announced. It stands where it covers neither the focused control, nor a
 * dialog, nor a result panel (toastPlacement.ts), placed again as focus and the window move.
 */
import { useLayoutEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useToastStore } from '../stores/toasts.ts';
import { Icon } from './Icon.tsx';
import { placeToasts } from './toastPlacement.ts';

export function Toasts() {
  const toasts = useToastStore((state) => state.toasts);
  const dismiss = useToastStore((state) => state.dismiss);
  const layer = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = layer.current;
    if (element === null || toasts.length === 0) return undefined;
    const place = (): void => {
      placeToasts(element);
    };
    place();
    // Focus moves and dialogs open while a toast stands: look again after each.
    document.addEventListener('focusin', place);
    window.addEventListener('resize', place);
    const observer = new MutationObserver(place);
    observer.observe(document.body, { childList: true });
    return () => {
      document.removeEventListener('focusin', place);
      window.removeEventListener('resize', place);
      observer.disconnect();
    };
  }, [toasts]);
  return createPortal(
    <div ref={layer} className="toasts" aria-live="polite" aria-relevant="additions" data-modal-exempt>
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
    </div>,
    document.body,
  );
}
