/** Draws the confirmation asked for through the confirm store. */
import { ConfirmDialog } from '../components/Dialog.tsx';
import { useConfirmStore } from '../stores/confirm.ts';

export function ConfirmHost() {
  const request = useConfirmStore((state) => state.request);
  const answer = useConfirmStore((state) => state.answer);
  if (request === null) return null;
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
    </ConfirmDialog>
  );
}
