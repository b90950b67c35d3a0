/**
 * Listener → Setup → Registered webhooks (issue 27, item 6): the webhooks registered with this
 * listener, each with Remove. Removing asks first (always: it deletes at the bank), is audited
 * in main, is announced, and puts focus on the next row's Remove (or the list's heading when
 * none is left), since the pressed button goes away with its row.
 */
import { useEffect, useRef } from 'react';
import { Button } from '../../components/Button.tsx';
import { Panel } from '../../components/Page.tsx';
import { sentenceOf } from '../../lib/errors.ts';
import { formatTimestamp } from '../../lib/time.ts';
import { useActiveProfileId } from '../../stores/profiles.ts';
import { useRegistrationsStore } from './registrationsStore.ts';

export function ListenerRegistrations() {
  const profileId = useActiveProfileId();
  const { registrations, loadError, removing, load, remove } = useRegistrationsStore();
  const listRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    void load();
  }, [load]);

  const removeAt = async (index: number): Promise<void> => {
    const registration = registrations?.[index];
    if (profileId === null || registration === undefined) return;
    const removed = await remove(profileId, registration);
    if (!removed) return;
    const buttons = listRef.current?.querySelectorAll<HTMLButtonElement>('button[data-remove-webhook]');
    const next = buttons?.[Math.min(index, buttons.length - 1)];
    if (next !== undefined) next.focus();
    else listRef.current?.focus();
  };

  return (
    <Panel title="Registered webhooks">
      <div className="stack" ref={listRef} tabIndex={-1} aria-label="Registered webhooks">
        {loadError !== null ? (
          <p role="alert">Could not read the registrations: {sentenceOf(loadError)}</p>
        ) : registrations === null ? (
          <p className="faint">Loading…</p>
        ) : registrations.length === 0 ? (
          <p className="faint">No webhook is registered with this listener. Use Register with bank above.</p>
        ) : (
          <ul
            className="stack"
            style={{ listStyle: 'none', margin: 0, padding: 0 }}
            aria-label="Webhooks of this listener"
          >
            {registrations.map((registration, index) => (
              <li key={registration.webhookId} className="row">
                <span className="grow">
                  <strong>{registration.event}</strong> <span className="mono">{registration.webhookId}</span>
                  <br />
                  <span className="mono muted">{registration.url}</span>{' '}
                  <span className="faint">
                    user {registration.basicUser} · since {formatTimestamp(registration.createdAt)}
                  </span>
                </span>
                <Button
                  variant="ghost"
                  data-remove-webhook={registration.webhookId}
                  busy={removing === registration.webhookId}
                  disabled={profileId === null}
                  onClick={() => void removeAt(index)}
                  aria-label={`Remove webhook ${registration.webhookId} (${registration.event})`}
                >
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Panel>
  );
}
