/** Draws the confirmation asked for through the confirm store. */
import { useState } from 'react';
import { Button } from '../components/Button.tsx';
import { ConfirmDialog } from '../components/Dialog.tsx';
import { useConfirmStore } from '../stores/confirm.ts';

export function ConfirmHost() {
  const request = useConfirmStore((state) => state.request);
  const answer = useConfirmStore((state) => state.answer);
  const [busy, setBusy] = useState(false);
  if (request === null) return null;
  const first = request.first;
  return (
    <ConfirmDialog
      title={request.title}
      confirmLabel={request.confirmLabel}
      tone={request.tone}
      onConfirm={() => {
        answer(true);
      }}
      onCancel={() => {
        answer(false);
      }}
    >
      {request.production ? <div className="production-pill">PRODUCTION</div> : null}
      <p>{request.body}</p>
      {first === undefined ? null : (
        <div className="stack">
          <p>{first.sentence}</p>
          <div className="table-actions">
            <Button
              size="sm"
              busy={busy}
              onClick={() => {
                setBusy(true);
                void first.run().finally(() => {
                  setBusy(false);
                });
              }}
            >
              {first.label}
            </Button>
          </div>
        </div>
      )}
    </ConfirmDialog>
  );
}
