/**
 * Confirming a write to a Production bank in the main process (review I1). The renderer's
 * `confirmProduction: true` says the window asked the user; it is not trusted on its own: before
 * the write is sent, main asks the user itself, through a WriteConfirmer the shell provides (in Electron
 * `dialogWriteConfirmer` over the native dialog of src/main/electron/index.ts; web mode's asks for the code
 * it prints on its terminal, src/main/web/tabWriteConfirmer.ts). Kept small on purpose: one question, one answer.
 *
 * Without a confirmer (the `ledger` command line, where the user types `--confirm-production`
 * at their own terminal, and test harnesses that inject none) the caller's flag decides, as
 * before.
 */

/** The write to confirm, in the words the question shows. */
export interface WriteToConfirm {
  /** The Production profile's name. */
  profileName: string;
  /** What is about to be sent, e.g. `webhook.create`, `listener.register`. */
  action: string;
  /** What it is sent about, when known (a webhook id, an event). */
  target: string | null;
}

export interface WriteConfirmer {
  /** Asks "send this exact write to the Production bank?"; true only when the user said yes. */
  confirm(write: WriteToConfirm): Promise<boolean>;
}

/** A main-process yes/no question (the shell's native dialog), as the listener's allow-list uses. */
export interface ConfirmDialog {
  (question: { title: string; message: string; detail: string; confirmLabel: string }): Promise<boolean>;
}

/** A WriteConfirmer that asks with a main-process yes/no dialog ("no" the default). */
export function dialogWriteConfirmer(ask: ConfirmDialog): WriteConfirmer {
  return {
    confirm: (write) =>
      ask({
        title: 'Send to a Production bank?',
        message: `Send "${write.action}"${write.target === null ? '' : ` (${write.target})`} to ${write.profileName}?`,
        detail: `${write.profileName} is a Production profile: this write reaches the real bank. Cancel unless you mean it.`,
        confirmLabel: 'Send to Production',
      }),
  };
}
