/**
 * A date picker that speaks the bank's format (YYYY-MM-DD): the platform's calendar for
 * picking, the value kept as the string the schemas check.
 */
import { useId } from 'react';
import { FieldFrame } from './Field.tsx';

export interface DateFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  hint?: string;
  min?: string;
  max?: string;
  optional?: boolean;
  compact?: boolean;
}

export function DateField({
  label,
  value,
  onChange,
  error,
  hint,
  min,
  max,
  optional,
  compact = false,
}: DateFieldProps) {
  const id = useId();
  const input = (
    <input
      id={id}
      type="date"
      className="input date-input"
      value={value}
      min={min}
      max={max}
      aria-label={compact ? label : undefined}
      aria-invalid={error === undefined ? undefined : true}
      // Compact, there is no error line to point at (an id that names nothing is an error itself).
      aria-describedby={error === undefined || compact ? undefined : `${id}-error`}
      onChange={(event) => {
        onChange(event.target.value);
      }}
    />
  );
  if (compact) return input;
  return (
    <FieldFrame label={label} id={id} error={error} hint={hint} optional={optional}>
      {input}
    </FieldFrame>
  );
}
