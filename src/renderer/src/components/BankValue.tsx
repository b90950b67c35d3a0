/**
 * One field of a bank record on screen. The bank may leave any field out or send null
 * (conventions.md "What a client must tolerate"): a field left out reads "not sent by the
 * bank", null reads "—", and a value is shown by `children` (its text by default).
 */
import type { ReactNode } from 'react';
import { NOT_SENT_TEXT, NULL_TEXT } from '../../../shared/bank/index.ts';

export function BankValue<Value>({
  value,
  children,
}: {
  value: Value | null | undefined;
  children?: (value: Value) => ReactNode;
}) {
  if (value === undefined) {
    return (
      <span className="faint not-sent" title="The bank's answer did not include this field">
        {NOT_SENT_TEXT}
      </span>
    );
  }
  if (value === null) return <span className="faint">{NULL_TEXT}</span>;
  return <>{children === undefined ? String(value) : children(value)}</>;
}
