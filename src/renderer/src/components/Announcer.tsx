/**
 * The polite status region for announcements (stores/announcements.ts). Visually hidden;
 * exempt from the inert page behind a dialog, so what a dialog did (a saved note) is still
 * said once it closes. The sentence is re-rendered under a new key each time, so the same
 * words said twice in a row are announced twice.
 */
import { createPortal } from 'react-dom';
import { useAnnouncements } from '../stores/announcements.ts';

export function Announcer() {
  const text = useAnnouncements((state) => state.text);
  const serial = useAnnouncements((state) => state.serial);
  return createPortal(
    <div
      className="visually-hidden"
      role="status"
      aria-live="polite"
      aria-atomic="true"
      data-modal-exempt
      data-announcer
    >
      {text === '' ? null : <span key={serial}>{text}</span>}
    </div>,
    document.body,
  );
}
