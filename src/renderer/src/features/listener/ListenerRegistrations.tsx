/**
 * Listener → Setup → Registered webhooks (issue 27, item 6): the webhooks registered with this
 * listener, each with its status at the bank, its last delivery and its 24-hour success rate
 * (from the send log, computed in main), and Remove. Removing asks first (always: it deletes at the bank), is audited
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
import { StatusBadge } from '../../components/Badge.tsx';
import { useOnTransition } from '../../lib/useDebounced.ts';
import { useSyncJob, useSyncStore } from '../../stores/sync.ts';
import type { WebhookDeliveryStats } from '../../../../shared/ipc/index.ts';
import { DeliveryFigures } from '../webhooks/DeliveryFigures.tsx';
import { useDeliveryStatsStore } from '../webhooks/deliveryStatsStore.ts';

/** The webhook's status at the bank, as last synced; "not synced" before the list is. */
function StatusOf({ figures }: { figures: WebhookDeliveryStats | undefined }) {
  const status = figures?.webhookStatus ?? null;
  return status === null ? <span className="faint">(status not synced)</span> : <StatusBadge status={status} />;
}

export function ListenerRegistrations() {
  const profileId = useActiveProfileId();
  const { registrations, loadError, removing, load, remove } = useRegistrationsStore();
  const stats = useDeliveryStatsStore();
  const sendsJob = useSyncJob('webhookSends', null, profileId);
  const syncSendLog = useSyncStore((state) => state.start);
  const listRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    void load(profileId);
  }, [load, profileId]);
  useOnTransition(sendsJob?.state, 'done', () => {
    void load(profileId);
  });

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

  const figuresOf = (webhookId: string) => (stats.profileId === profileId ? stats.byWebhook.get(webhookId) : undefined);

  return (
    <Panel
      title="Registered webhooks"
      actions={
        profileId === null ? undefined : (
          <Button
            size="sm"
            icon="refresh"
            busy={sendsJob?.state === 'running'}
            onClick={() => void syncSendLog(profileId, { kind: 'webhookSends' })}
          >
            Sync send log
          </Button>
        )
      }
    >
      {stats.error !== null ? (
        <p className="faint">Delivery figures are not available: {sentenceOf(stats.error)}</p>
      ) : stats.asOf === null || stats.profileId !== profileId ? (
        <p className="faint">Delivery figures come from the bank's send log: sync it to see them.</p>
      ) : (
        <p className="faint">Delivery figures from the send log as of {formatTimestamp(stats.asOf)}.</p>
      )}
      {/* A group: a plain div's role takes no name (IBM Equal Access, issue 38); focus comes back here after a removal. */}
      <div className="stack" ref={listRef} tabIndex={-1} role="group" aria-label="Registered webhooks">
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
              <li key={registration.webhookId} className="row listener-registration">
                <span className="grow">
                  <strong>{registration.event}</strong> <span className="mono">{registration.webhookId}</span>{' '}
                  <StatusOf figures={figuresOf(registration.webhookId)} />
                  <br />
                  <span className="mono muted">{registration.url}</span>{' '}
                  <span className="faint">
                    user {registration.basicUser} · since {formatTimestamp(registration.createdAt)}
                  </span>
                </span>
                <DeliveryFigures
                  profileId={profileId}
                  webhookId={registration.webhookId}
                  stats={figuresOf(registration.webhookId)}
                />
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
