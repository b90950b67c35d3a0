/**
 * The question web mode asks before a write goes to a Production bank, written by the server
 * from the write itself (not by the page), so the user confirms what will actually be sent.
 */
import type { WebQuestion } from '../../shared/ipc/webSocketProtocol.ts';
import type { WriteToConfirm } from '../services/writes/writeConfirmer.ts';

const DETAIL_MAX = 1500;
/** Fields whose values are never shown, whatever the write. */
const HIDDEN_FIELD = /secret|password|token|authorization|key_?secret|content|bytes|data/i;

function shown(value: unknown, depth = 0): unknown {
  if (depth > 4) return '…';
  if (value instanceof Uint8Array) return `(${String(value.byteLength)} bytes)`;
  if (Array.isArray(value)) return value.slice(0, 10).map((entry) => shown(entry, depth + 1));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== 'confirmProduction')
        .map(([key, entry]) => [key, HIDDEN_FIELD.test(key) ? '(not shown)' : shown(entry, depth + 1)]),
    );
  }
  return value;
}

/**
 * The question for one write: what the services are about to send (`write`, as main's
 * WriteConfirmer is told it) and the call that asked for it (its channel and input, shown with
 * secrets and file contents left out).
 */
export function productionWriteQuestion(write: WriteToConfirm, channel: string, input: unknown): WebQuestion {
  const text = JSON.stringify(shown(input), null, 1);
  const target = write.target === null ? '' : ` (${write.target})`;
  return {
    title: 'Send to a Production bank?',
    message:
      `Ledgerdesk is about to send ${write.action}${target} to ${write.profileName}, a Production profile ` +
      `(asked by ${channel}). This changes real data at the bank.`,
    detail: text.length > DETAIL_MAX ? `${text.slice(0, DETAIL_MAX)}…` : text,
    confirmLabel: 'Send to Production',
  };
}
