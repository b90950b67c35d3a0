/**
 * A modal dialog, drawn in its own layer above the page. While it is open the rest of the page
 * is inert, Tab stays inside, Escape closes it (the top one, when dialogs are stacked) and
 * closing gives focus back to a live element: see focus/modalStack.ts. Used to confirm
 * deletions and every write against a Production profile, and for forms that float.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Button } from './Button.tsx';
import { openModal } from './focus/modalStack.ts';

export interface DialogProps {
  title: string;
  children: ReactNode;
  onClose: () => void;
  footer?: ReactNode;
  tone?: 'default' | 'danger';
}

export function Dialog({ title, children, onClose, footer, tone = 'default' }: DialogProps) {
  const titleId = useId();
  const backdrop = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  // The latest onClose, so the layer opened once still calls what the parent passes now.
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    if (backdrop.current === null || panel.current === null) return undefined;
    return openModal({
      root: backdrop.current,
      panel: panel.current,
      close: () => {
        close.current();
      },
    });
  }, []);
  return createPortal(
    <div
      ref={backdrop}
      className="dialog-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={panel}
        className={`dialog dialog-${tone}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        <div className="dialog-body">{children}</div>
        {footer === undefined ? null : <div className="dialog-footer">{footer}</div>}
      </div>
    </div>,
    document.body,
  );
}

export interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  tone?: 'default' | 'danger';
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A yes/no question. Focus starts on Cancel, on purpose: every confirmation here guards a
 * Production write or a deletion, so a stray Enter must answer no.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  tone = 'default',
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Dialog
      title={title}
      tone={tone}
      onClose={onCancel}
      footer={
        <>
          <Button onClick={onCancel} data-autofocus>
            Cancel
          </Button>
          <Button variant={tone === 'danger' ? 'danger' : 'primary'} busy={busy} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
