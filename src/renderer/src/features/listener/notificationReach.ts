/**
 * Whether each notification of the trigger's result reached the app's listener (issue 27, item
 * 6): asked of main (listener.reach) when the result arrives, again each time the listener
 * keeps new requests, and once a second while any is "not yet", for at most two minutes (the
 * bank's first retries fall in that span; a later arrival shows on the next trigger or under
 * Requests). Each notification that arrives is said once.
 */
import { useEffect, useRef, useState } from 'react';
import type { NotificationReach } from '../../../../shared/ipc/index.ts';
import { api } from '../../lib/api.ts';
import { sentenceOf, uiErrorOf, type UiError } from '../../lib/errors.ts';
import { announce } from '../../stores/announcements.ts';
import { useListenerStore } from './store.ts';

const POLL_MS = 1000;
const WATCH_MS = 120_000;

export interface ReachState {
  byNotification: ReadonlyMap<string, NotificationReach>;
  error: UiError | null;
  /** Still looking (some notification is not yet received and the watch has not ended). */
  watching: boolean;
}

export function reachKey(event: string, objectId: string): string {
  return `${event}\u0000${objectId}`;
}

/** What a notification's reach says, in words. */
export function reachSentence(reach: NotificationReach): string {
  switch (reach.state) {
    case 'reached':
      return reach.verdict === 'ok' ? 'reached, verified' : `reached, not verified (${String(reach.verdict)})`;
    case 'not_yet':
      return 'not yet';
    case 'not_to_listener':
      return `no webhook of this listener subscribed (${String(reach.subscribed)} elsewhere)`;
    case 'no_webhook':
      return 'no webhook subscribed';
  }
}

export function useNotificationReach(
  profileId: string | null,
  since: string | null,
  notifications: readonly { event: string; id: string }[],
): ReachState {
  const [state, setState] = useState<ReachState>({ byNotification: new Map(), error: null, watching: false });
  const arrivals = useListenerStore((listener) => listener.newSinceLoad);
  const said = useRef(new Set<string>());
  const asked = notifications.map((notification) => reachKey(notification.event, notification.id)).join('\n');
  const startedAt = useRef(0);

  useEffect(() => {
    said.current = new Set();
    startedAt.current = Date.now();
    setState({ byNotification: new Map(), error: null, watching: asked !== '' });
  }, [asked, since]);

  useEffect(() => {
    if (profileId === null || since === null || asked === '') return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async (): Promise<void> => {
      try {
        const answer = await api().listener.reach({
          profileId,
          since,
          notifications: asked.split('\n').map((key) => {
            const [event = '', objectId = ''] = key.split('\u0000');
            return { event, objectId };
          }),
        });
        if (stopped) return;
        const byNotification = new Map(
          answer.notifications.map((reach) => [reachKey(reach.event, reach.objectId), reach]),
        );
        for (const reach of answer.notifications) {
          const key = reachKey(reach.event, reach.objectId);
          if (reach.state === 'reached' && !said.current.has(key)) {
            said.current.add(key);
            announce(`${reach.event} ${reach.objectId} ${reachSentence(reach)}.`);
          }
        }
        const waiting = answer.notifications.some((reach) => reach.state === 'not_yet');
        const watching = waiting && Date.now() - startedAt.current < WATCH_MS;
        setState({ byNotification, error: null, watching });
        if (watching) timer = setTimeout(() => void ask(), POLL_MS);
      } catch (reason) {
        if (!stopped) setState((previous) => ({ ...previous, error: uiErrorOf(reason), watching: false }));
      }
    };
    void ask();
    return () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [profileId, since, asked, arrivals]);

  return state;
}

export function reachErrorSentence(error: UiError): string {
  return `Could not tell whether they reached the listener: ${sentenceOf(error)}`;
}
