/**
 * The columns a person can add to a list (issue 38: ids stay available, never the heading): a
 * button that opens a few checkboxes, one per optional column ("Application id"). A disclosure
 * of native checkboxes, like the listener's events picker: Tab and Space work as anywhere, Escape
 * or Done closes it and puts focus back on the button. What is chosen is kept per list on this
 * machine (a preference, no data).
 */
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../Button.tsx';
import type { Column } from '../VirtualTable.tsx';
import './columnChooser.css';

const STORAGE_PREFIX = 'ledgerdesk.columns.';

function remembered(list: string): string[] {
  try {
    const saved = localStorage.getItem(STORAGE_PREFIX + list);
    const parsed: unknown = saved === null ? [] : JSON.parse(saved);
    return Array.isArray(parsed) ? parsed.filter((key): key is string => typeof key === 'string') : [];
  } catch {
    return [];
  }
}

function remember(list: string, keys: readonly string[]): void {
  try {
    localStorage.setItem(STORAGE_PREFIX + list, JSON.stringify(keys));
  } catch {
    // A preference: without storage the choice lasts until the window closes.
  }
}

/** The optional columns shown in a list, by key, kept per list. */
export function useChosenColumns(list: string): [string[], (keys: string[]) => void] {
  const [chosen, setChosen] = useState(() => remembered(list));
  return [
    chosen,
    (keys) => {
      setChosen(keys);
      remember(list, keys);
    },
  ];
}

export function ColumnChooser<Row>({
  optional,
  chosen,
  onChange,
}: {
  optional: readonly Column<Row>[];
  chosen: readonly string[];
  onChange: (keys: string[]) => void;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (open) panelRef.current?.querySelector<HTMLInputElement>('input')?.focus();
  }, [open]);
  const close = (): void => {
    setOpen(false);
    toggleRef.current?.focus();
  };
  return (
    <div
      className="column-chooser"
      onKeyDown={(keyboard) => {
        if (keyboard.key === 'Escape' && open) {
          keyboard.stopPropagation();
          close();
        }
      }}
    >
      <button
        ref={toggleRef}
        type="button"
        className="button button-ghost button-sm"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => {
          setOpen(!open);
        }}
      >
        Columns
      </button>
      {open ? (
        <div className="column-chooser-panel" id={panelId} ref={panelRef}>
          <fieldset>
            <legend>Columns to add</legend>
            <ul>
              {optional.map((column) => (
                <li key={column.key}>
                  <label className="checkbox">
                    <input
                      type="checkbox"
                      checked={chosen.includes(column.key)}
                      onChange={(change) => {
                        onChange(
                          optional
                            .map((candidate) => candidate.key)
                            .filter((key) => (key === column.key ? change.target.checked : chosen.includes(key))),
                        );
                      }}
                    />
                    {column.header}
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
          <div className="row column-chooser-actions">
            <Button size="sm" onClick={close}>
              Done
            </Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
