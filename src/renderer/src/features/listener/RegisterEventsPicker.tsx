/**
 * The listener header's choice of events to register (issue 27, item 6): a button that opens a
 * list of checkboxes, one per event of the catalog, so one click registers several webhooks.
 * A disclosure, not a custom listbox: native checkboxes are reached with Tab, toggled with
 * Space, and their state is read out by every screen reader; each change is also said in one
 * sentence ("ach.create chosen: 2 events"). Escape or Done closes it and puts focus back on
 * the button that opened it.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { KNOWN_EVENTS } from '../../../../shared/bank/index.ts';
import { LISTENER_REGISTER_MAX_EVENTS } from '../../../../shared/ipc/index.ts';
import { Button } from '../../components/Button.tsx';
import { announce } from '../../stores/announcements.ts';
import './registerEvents.css';

/** "ach.update", "ach.update, ach.create" or "3 events": what the closed button says. */
function chosenEventsLabel(events: readonly string[]): string {
  if (events.length === 0) return 'no event';
  if (events.length <= 2) return events.join(', ');
  return `${String(events.length)} events`;
}

function countOf(events: readonly string[]): string {
  return `${String(events.length)} event${events.length === 1 ? '' : 's'}`;
}

export function RegisterEventsPicker({
  chosen,
  onChange,
}: {
  chosen: readonly string[];
  onChange: (events: string[]) => void;
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

  const toggle = (event: string, on: boolean): void => {
    // Kept in the catalog's order, whatever order they were ticked in.
    const next = KNOWN_EVENTS.filter((known) => (known === event ? on : chosen.includes(known)));
    onChange(next);
    announce(`${event} ${on ? 'chosen' : 'left out'}: ${countOf(next)} to register.`);
  };

  return (
    <div
      className="register-events"
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
        className="button button-secondary button-md register-events-toggle"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => {
          setOpen(!open);
        }}
      >
        Events: {chosenEventsLabel(chosen)}
        {/* The visible words start the name (axe: label in name); a screen reader hears which. */}
        {chosen.length > 2 ? <span className="visually-hidden"> ({chosen.join(', ')})</span> : null}
      </button>
      {open ? (
        <div className="register-events-panel" id={panelId} ref={panelRef}>
          <fieldset>
            <legend>Events to register</legend>
            <p className="faint register-events-hint">
              One webhook per event, each with its own Basic credentials (at most {String(LISTENER_REGISTER_MAX_EVENTS)}
              ).
            </p>
            <ul>
              {KNOWN_EVENTS.map((event) => (
                <li key={event}>
                  <label className="checkbox">
                    <input
                      type="checkbox"
                      checked={chosen.includes(event)}
                      onChange={(change) => {
                        toggle(event, change.target.checked);
                      }}
                    />
                    <span className="mono">{event}</span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
          <div className="row register-events-actions">
            <Button
              size="sm"
              variant="ghost"
              onClick={() => {
                onChange([]);
                announce('No event chosen.');
              }}
            >
              Clear
            </Button>
            <Button size="sm" onClick={close}>
              Done
            </Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
