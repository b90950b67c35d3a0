/**
 * A pending transaction's when, as a person reads a list ordered by its timestamp: the bank's
 * own date (`date`), then the local time of `extended_timestamp` ("2025-12-01 14:03"), the whole
 * timestamp in the tooltip. Missing fields say so (BankValue) instead of a blank.
 */
import { BankValue } from './BankValue.tsx';

/** The local time of a bank timestamp ("14:03"); empty when there is none to read. */
function localTimeOf(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return '';
  const moment = new Date(iso);
  return Number.isNaN(moment.getTime())
    ? ''
    : moment.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

export function BankDateTime({ date, at }: { date: string | null | undefined; at: string | null | undefined }) {
  const time = localTimeOf(at);
  return (
    <span className="tabular" title={at ?? undefined}>
      <BankValue value={date} />
      {time === '' ? null : <span className="muted"> {time}</span>}
    </span>
  );
}
