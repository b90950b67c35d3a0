/**
 * The kinds of column the list screens share, so each screen names its fields instead of
 * repeating how a field is drawn: a field of a bank record (as BankValue shows it: "not sent by
 * the bank", "—" or the value) and a time.
 */
import type { ReactNode } from 'react';
import { formatTimestamp } from '../../lib/time.ts';
import { BankValue } from '../BankValue.tsx';
import type { Column } from '../VirtualTable.tsx';

export interface FieldColumnOptions<Value> {
  /** `mono` for ids, `tabular` for numbers and dates, `muted` for what matters less. */
  className?: string;
  align?: 'start' | 'end';
  /** How a value is drawn; its text unless told. */
  format?: (value: Value) => ReactNode;
  /** Column.priority: 1 (absent) kept at any width; higher leaves first. */
  priority?: number;
  /** Column.rowHeader: the row's identifying cell. */
  rowHeader?: boolean;
}

/** A column showing one field of each row, or what the bank sent instead of it. */
export function fieldColumn<Row, Value>(
  key: string,
  header: string,
  width: string,
  field: (row: Row) => Value | null | undefined,
  { className, align, format, priority, rowHeader }: FieldColumnOptions<Value> = {},
): Column<Row> {
  return {
    key,
    header,
    width,
    ...(align === undefined ? {} : { align }),
    ...(priority === undefined ? {} : { priority }),
    ...(rowHeader === undefined ? {} : { rowHeader }),
    render: (row) => (
      <span className={className}>
        <BankValue value={field(row)}>{format}</BankValue>
      </span>
    ),
  };
}

/** A column of times, in the app's one format, tabular and muted; an absent time says so. */
export function timeColumn<Row>(key: string, header: string, at: (row: Row) => string | null | undefined): Column<Row> {
  return {
    key,
    header,
    width: '196px',
    render: (row) => (
      <span className="tabular muted">
        <BankValue value={at(row)}>{formatTimestamp}</BankValue>
      </span>
    ),
  };
}
