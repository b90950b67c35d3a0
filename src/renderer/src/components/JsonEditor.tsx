/**
 * A JSON editor for bankdata, userdata and the like: monospaced, tab inserts spaces, and
 * the text is checked as you type (valid JSON, an object, and the caller's own rule).
 */
import { useId } from 'react';
import { parseJsonObjectText } from '../lib/jsonText.ts';
import { FieldFrame } from './Field.tsx';

export interface JsonEditorProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** A problem found by the caller (schema or server), shown when the JSON itself is valid. */
  error?: string | undefined;
  hint?: string;
  rows?: number;
  optional?: boolean;
}

/** The JSON problem of a text, or undefined when it is a JSON object (or blank). */
export function jsonObjectProblem(text: string): string | undefined {
  const parsed = parseJsonObjectText(text);
  return parsed.ok ? undefined : parsed.message;
}

export function JsonEditor({ label, value, onChange, error, hint, rows = 5, optional }: JsonEditorProps) {
  const id = useId();
  const problem = jsonObjectProblem(value) ?? error;
  return (
    <FieldFrame label={label} id={id} error={problem} hint={hint} optional={optional}>
      <textarea
        id={id}
        className="input json-editor"
        spellCheck={false}
        rows={rows}
        value={value}
        placeholder="{}"
        aria-invalid={problem === undefined ? undefined : true}
        aria-describedby={problem === undefined ? undefined : `${id}-error`}
        onChange={(event) => {
          onChange(event.target.value);
        }}
        onKeyDown={(event) => {
          if (event.key !== 'Tab' || event.shiftKey) return;
          event.preventDefault();
          const area = event.currentTarget;
          const { selectionStart, selectionEnd } = area;
          const next = value.slice(0, selectionStart) + '  ' + value.slice(selectionEnd);
          onChange(next);
          requestAnimationFrame(() => {
            area.setSelectionRange(selectionStart + 2, selectionStart + 2);
          });
        }}
      />
    </FieldFrame>
  );
}

/** A read-only JSON block. */
export function JsonView({ value }: { value: unknown }) {
  return <pre className="json-view">{JSON.stringify(value, null, 2)}</pre>;
}
