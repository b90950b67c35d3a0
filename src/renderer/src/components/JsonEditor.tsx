/**
 * A JSON editor for bankdata, userdata and the like: monospaced, checked as you type (valid
 * JSON, an object, and the caller's own rule).
 *
 * Keyboard, as code editors do it: Tab indents (two spaces) and Shift+Tab leaves backwards;
 * Escape, then Tab, leaves forwards. The field's hint says so. The Escape that releases Tab is
 * used by the editor (default prevented), so it does not also close the dialog around it; a
 * second Escape does.
 */
import { useId, useRef } from 'react';
import { parseJsonObjectText } from '../lib/jsonText.ts';
import { FieldFrame } from './Field.tsx';
import { ScrollBlock } from './ScrollBlock.tsx';

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

/** What the editor says about its keys, in every JSON editor's description. */
export const JSON_EDITOR_KEYS = 'Tab indents. Press Esc, then Tab, to move to the next field.';

/** The JSON problem of a text, or undefined when it is a JSON object (or blank). */
function jsonObjectProblem(text: string): string | undefined {
  const parsed = parseJsonObjectText(text);
  return parsed.ok ? undefined : parsed.message;
}

export function JsonEditor({ label, value, onChange, error, hint, rows = 5, optional }: JsonEditorProps) {
  const id = useId();
  const problem = jsonObjectProblem(value) ?? error;
  // After Escape the next Tab moves focus instead of indenting; any other key re-arms it.
  const tabLeaves = useRef(false);
  const keysId = `${id}-keys`;
  return (
    <FieldFrame
      label={label}
      id={id}
      error={problem}
      hint={hint}
      optional={optional}
      footnote={
        <div className="field-hint" id={keysId}>
          {JSON_EDITOR_KEYS}
        </div>
      }
    >
      <textarea
        id={id}
        className="input json-editor"
        spellCheck={false}
        rows={rows}
        value={value}
        placeholder="{}"
        aria-invalid={problem === undefined ? undefined : true}
        aria-describedby={[problem === undefined ? (hint === undefined ? null : `${id}-hint`) : `${id}-error`, keysId]
          .filter((part) => part !== null)
          .join(' ')}
        onBlur={() => {
          tabLeaves.current = false;
        }}
        onChange={(event) => {
          onChange(event.target.value);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            if (tabLeaves.current) return; // Already released: this Escape is the dialog's.
            tabLeaves.current = true;
            event.preventDefault();
            return;
          }
          if (event.key !== 'Tab') {
            if (event.key !== 'Shift') tabLeaves.current = false;
            return;
          }
          if (event.shiftKey || tabLeaves.current || event.ctrlKey || event.altKey || event.metaKey) return;
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

/**
 * A read-only JSON block. While it scrolls it is a Tab stop of its own (keyboard users scroll it
 * with the arrows), named as a region so that stop means something when announced (ScrollBlock).
 */
export function JsonView({ value, label }: { value: unknown; label: string }) {
  return (
    <ScrollBlock className="json-view" label={label}>
      {JSON.stringify(value, null, 2)}
    </ScrollBlock>
  );
}
