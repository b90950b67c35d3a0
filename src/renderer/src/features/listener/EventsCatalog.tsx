/**
 * Listener → Events: every event the bank sends, what causes it, whether the sandbox sends it,
 * how the Trigger tab causes it, and an example notification — from the one shared catalog
 * that `ledger events` prints too.
 */
import {
  EVENT_CATALOG,
  NOTIFICATION_FIELDS,
  TRIGGERABLE_EVENTS,
} from '../../../../shared/eventCatalog/eventCatalog.ts';
import { Badge } from '../../components/Badge.tsx';
import { Button } from '../../components/Button.tsx';
import { Panel } from '../../components/Page.tsx';
import { ScrollBlock } from '../../components/ScrollBlock.tsx';
import { useTriggerStore } from './triggerStore.ts';
import './trigger.css';

const TRIGGERABLE: ReadonlySet<string> = new Set(TRIGGERABLE_EVENTS);

export function EventsCatalog({ onTrigger }: { onTrigger: () => void }) {
  const setEvent = useTriggerStore((state) => state.setEvent);
  return (
    <div className="columns">
      <Panel title="The notification">
        <p className="muted events-notes">
          Every event is a POST of this JSON body to each enabled webhook subscribed to it. There is no signature; when
          the webhook has Basic credentials, the request carries them in Authorization. Answer 200 or 202; anything else
          is a failed delivery, retried up to 15 times.
        </p>
        <table className="table" aria-label="Notification fields">
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Meaning</th>
            </tr>
          </thead>
          <tbody>
            {NOTIFICATION_FIELDS.map((field) => (
              <tr key={field.name}>
                <td>
                  <code>{field.name}</code>
                </td>
                <td>{field.rule}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Panel>
      <Panel title={`Events (${String(EVENT_CATALOG.length)})`}>
        <ul className="events-catalog" aria-label="Events">
          {EVENT_CATALOG.map((entry) => (
            <li key={entry.event}>
              <h3>
                <code>{entry.event}</code>
                {entry.sandbox ? null : <Badge tone="neutral">real service only</Badge>}
                <span className="grow" />
                {TRIGGERABLE.has(entry.event) ? (
                  <Button
                    icon="play"
                    aria-label={`Trigger ${entry.event}`}
                    onClick={() => {
                      setEvent(entry.event as (typeof TRIGGERABLE_EVENTS)[number]);
                      onTrigger();
                    }}
                  >
                    Trigger…
                  </Button>
                ) : null}
              </h3>
              <div>{entry.causes}</div>
              {entry.trigger === null ? null : <div className="field-hint">Trigger: {entry.trigger}</div>}
              <ScrollBlock className="json-view" label={`Example of ${entry.event}`}>
                {JSON.stringify(entry.example, null, 2)}
              </ScrollBlock>
            </li>
          ))}
        </ul>
      </Panel>
    </div>
  );
}
