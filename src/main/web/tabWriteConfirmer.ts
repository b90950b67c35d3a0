/**
 * Web mode's WriteConfirmer (src/main/services/writes/writeConfirmer.ts): the same question the
 * desktop app asks in its native dialog before a write goes to a Production bank, asked of the
 * browser tab whose call is making the write, and answered only by a one-time confirmation
 * this server issued for that exact write (writeConfirmations.ts).
 *
 * So a Production write from a page is confirmed twice, as in the desktop app: the page's own
 * dialog sets `confirmProduction: true` (the services refuse a write without it), then the
 * services ask here, the tab shows the server's description of the write, and the write goes
 * only when the confirmation issued for it comes back, once, unexpired, for the same call and
 * the same write. A page that sets the flag and answers with anything else (nothing, a made-up
 * value, another write's confirmation, one already used) is refused and nothing is sent.
 */
import type { WebQuestion } from '../../shared/ipc/webSocketProtocol.ts';
import type { WriteConfirmer, WriteToConfirm } from '../services/writes/writeConfirmer.ts';
import { WriteConfirmations } from './writeConfirmations.ts';
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
  /** Asks that tab; what its page sent back (the confirmation on "yes"), or null (no, or the tab is gone). */
  askCallingTab(question: WebQuestion, confirmation: string): Promise<string | null>;
}

export class TabWriteConfirmer implements WriteConfirmer {
  readonly #tab: () => CallingTab | null;
  readonly #confirmations: WriteConfirmations;

  constructor(tab: () => CallingTab | null, confirmations: WriteConfirmations = new WriteConfirmations()) {
    this.#tab = tab;
    this.#confirmations = confirmations;
  }

  async confirm(write: WriteToConfirm): Promise<boolean> {
    const tab = this.#tab();
    const call = tab?.currentCall() ?? null;
    // A write no tab's call made (none exists in web mode today): nobody to ask, so no.
    if (tab === null || call === null) return false;
    // Bound to the call (its channel and input, without the page's flag) and to what the services will send.
    const bound = { input: withoutFlag(call.input), write };
    const confirmation = this.#confirmations.issue(call.channel, bound);
    const answer = await tab.askCallingTab(productionWriteQuestion(write, call.channel, call.input), confirmation);
    if (answer === null) {
      this.#confirmations.withdraw(confirmation);
      return false;
    }
    return this.#confirmations.redeem(answer, call.channel, bound);
  }
}

function withoutFlag(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  return Object.fromEntries(Object.entries(input).filter(([key]) => key !== 'confirmProduction'));
}
