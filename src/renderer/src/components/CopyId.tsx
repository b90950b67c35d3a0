/**
 * An id beside the names that lead (issue 38): shown small and in mono, with a button that
 * copies it (for a ticket, a command line, the bank's support). The copy is said ("Copied the
 * application id.") so a keyboard or screen-reader user knows it worked.
 */
import { announce } from '../stores/announcements.ts';
import { toast } from '../stores/toasts.ts';
import { Button } from './Button.tsx';

export function CopyId({ id, what }: { id: string; what: string }) {
  return (
    <span className="copy-id">
      <span className="mono faint copy-id-text">{id}</span>
      <Button
        size="sm"
        variant="ghost"
        className="copy-id-button"
        aria-label={`Copy the ${what}`}
        title={`Copy the ${what}`}
        onClick={() => {
          void navigator.clipboard.writeText(id).then(
            () => {
              announce(`Copied the ${what}.`);
            },
            () => {
              toast('warning', `Could not copy the ${what}`, `Select it and copy it by hand: ${id}`);
            },
          );
        }}
      >
        Copy
      </Button>
    </span>
  );
}
