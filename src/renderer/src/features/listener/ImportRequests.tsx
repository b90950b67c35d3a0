/**
 * Listener → Requests → Import…: reads a JSONL export of `npm run listen -- export FILE` (or of
 * this app) into the app's listener, so what the standalone listener kept can be browsed,
 * replayed and reconciled here. The file is read in the window and checked in main, in full,
 * before anything is kept; a wrong line is named in the toast and nothing is imported.
 */
import { useRef, useState, type ChangeEvent } from 'react';
import { LISTENER_IMPORT_MAX_CHARS } from '../../../../shared/ipc/domains/listener.ts';
import { Button } from '../../components/Button.tsx';
import { api } from '../../lib/api.ts';
import { sentenceOf, uiErrorOf } from '../../lib/errors.ts';
import { toast } from '../../stores/toasts.ts';
import { useListenerStore } from './store.ts';

export function ImportRequestsButton() {
  const fileInput = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);

  const importFile = async (event: ChangeEvent<HTMLInputElement>): Promise<void> => {
    const file = event.target.files?.[0];
    // The same file may be chosen again (to see "already kept"): clear the input's choice.
    event.target.value = '';
    if (file === undefined) return;
    setBusy(true);
    try {
      if (file.size > LISTENER_IMPORT_MAX_CHARS) {
        toast(
          'error',
          'Import refused',
          `${file.name} is larger than 7 MiB: export fewer requests (npm run listen -- export FILE --event E).`,
        );
        return;
      }
      const text = await file.text();
      const { imported, alreadyKept } = await api().listener.importRequests({ fileName: file.name, text });
      toast(
        imported > 0 ? 'success' : 'info',
        `Imported ${imported} ${imported === 1 ? 'request' : 'requests'}`,
        alreadyKept > 0 ? `${alreadyKept} already kept, skipped (from ${file.name}).` : `From ${file.name}.`,
      );
      // The status too: the Requests tab's count includes what was imported.
      await useListenerStore.getState().load();
    } catch (reason) {
      toast('error', 'Import refused: nothing was imported', sentenceOf(uiErrorOf(reason)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <input
        ref={fileInput}
        type="file"
        accept=".jsonl,.ndjson,.json,.txt,application/x-ndjson,application/json,text/plain"
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="listener-import-file"
        onChange={(event) => void importFile(event)}
      />
      <Button
        size="sm"
        variant="ghost"
        icon="upload"
        busy={busy}
        title="A JSONL export of npm run listen -- export FILE"
        onClick={() => fileInput.current?.click()}
      >
        Import…
      </Button>
    </>
  );
}
