/**
 * The desktop app's native questions, asked by main in Electron's own dialogs, where the page
 * cannot answer for the user: a yes/no question (before a write to a Production bank, or before
 * the listener sends to another host), and the refusal shown when another Ledgerdesk holds the
 * data folder. "No" (Cancel, Quit) is the default button and what Esc answers.
 */
import { BrowserWindow, dialog, type MessageBoxOptions } from 'electron';
import type { ConfirmQuestion } from '../ipc/listenerHandlers.ts';
import type { WriterRefusal } from '../app/writerRefusal.ts';
import { dialogWriteConfirmer, type WriteConfirmer } from '../services/writes/writeConfirmer.ts';

/** Shown over the focused window when there is one (modal to it), on its own otherwise. */
async function show(options: MessageBoxOptions): Promise<number> {
  const parent = BrowserWindow.getFocusedWindow();
  const answer = parent === null ? await dialog.showMessageBox(options) : await dialog.showMessageBox(parent, options);
  return answer.response;
}

/** A native question the renderer cannot answer for the user; true only for the confirm button. */
export async function confirmInDialog(question: ConfirmQuestion): Promise<boolean> {
  const response = await show({
    type: 'warning',
    title: question.title,
    message: question.message,
    detail: question.detail,
    buttons: ['Cancel', question.confirmLabel],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  });
  return response === 1;
}

/** Main's own question before every write to a Production bank (review I1), whatever the window said. */
export function nativeWriteConfirmer(): WriteConfirmer {
  return dialogWriteConfirmer(confirmInDialog);
}

/** Says which Ledgerdesk holds the data folder; 'open' when the user chose to open web mode's address. */
export async function askAfterWriterRefusal(refusal: WriterRefusal): Promise<'quit' | 'open'> {
  const response = await dialog.showMessageBox({
    type: 'info',
    title: refusal.title,
    message: refusal.message,
    detail: refusal.detail,
    buttons: refusal.address === null ? ['Quit'] : ['Quit', 'Open it in the browser'],
    defaultId: refusal.address === null ? 0 : 1,
    cancelId: 0,
    noLink: true,
  });
  return response.response === 1 && refusal.address !== null ? 'open' : 'quit';
}
