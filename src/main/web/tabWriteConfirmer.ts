/**
 * Web mode's WriteConfirmer (src/main/services/writes/writeConfirmer.ts): the same question the
 * desktop app asks in its native dialog before a write goes to a Production bank, decided by a
 * human who reads web mode's terminal (confirmationCodes.ts, review W2).
 *
 * So a Production write from a page is confirmed twice: the page's own dialog sets
 * `confirmProduction: true` (the services refuse a write without it), then the services ask
 * here: the server prints its own description of the write and a one-time code on the terminal
 * of `npm run serve`, and asks the tab whose call it is to type that code. The page never
 * receives the code, so nothing it runs, and no other holder of the socket, can produce it;
 * anything but the code (nothing, a guess, an older code) is refused and nothing is sent.
 */
import type { WebQuestion } from '../../shared/ipc/webSocketProtocol.ts';
import type { WriteConfirmer, WriteToConfirm } from '../services/writes/writeConfirmer.ts';
import type { ConfirmationCodes } from './confirmationCodes.ts';
import { productionWriteQuestion } from './writeQuestion.ts';

/** The call being handled, as the socket layer knows it. */
export interface TabCall {
  channel: string;
  input: unknown;
}

/** The tab whose call is running (web/webConnections.ts). */
export interface CallingTab {
  /** The call being handled now, or null outside any tab's call. */
  currentCall(): TabCall | null;
  /** Asks that tab for the terminal's code: what the user typed, or null (no, or the tab is gone). */
  askCallingTab(question: WebQuestion): Promise<string | null>;
}

/** Prints the question's code on the terminal, asks for it, and compares: true only for the code itself. */
export async function confirmWithCode(
  codes: ConfirmationCodes,
  question: WebQuestion,
  ask: (question: WebQuestion) => Promise<string | null>,
): Promise<boolean> {
  const issued = codes.issue(question);
  if (issued === null) return false;
  const typed = await ask(question);
  if (typed === null) {
    issued.withdraw();
    return false;
  }
  return issued.accept(typed);
}

export class TabWriteConfirmer implements WriteConfirmer {
  readonly #tab: () => CallingTab | null;
  readonly #codes: ConfirmationCodes;

  constructor(tab: () => CallingTab | null, codes: ConfirmationCodes) {
    this.#tab = tab;
    this.#codes = codes;
  }

  async confirm(write: WriteToConfirm): Promise<boolean> {
    const tab = this.#tab();
    const call = tab?.currentCall() ?? null;
    // A write no tab's call made (none exists in web mode today): nobody to ask, so no.
    if (tab === null || call === null) return false;
    return confirmWithCode(this.#codes, productionWriteQuestion(write, call.channel, call.input), (question) =>
      tab.askCallingTab(question),
    );
  }
}
