/**
 * Who hears an event: the bank sends a notification only to its enabled webhooks subscribed
 * to that event (one webhook per event, as the bank models it). Shared by `ledger webhooks`,
 * `ledger trigger` and `listen --register`, so they count and group the same way.
 */
import type { WebhookResponse } from '../../../shared/bank/index.ts';

export interface EventSubscribers {
  event: string;
  /** Enabled webhooks for the event: those the bank will post to. */
  enabled: number;
  /** Webhooks for the event that will not be posted to (disabled, or in error). */
  idle: number;
}

/** Per event asked about, how many webhooks will receive it. */
export function subscribersOf(webhooks: readonly WebhookResponse[], events: readonly string[]): EventSubscribers[] {
  return [...new Set(events)].map((event) => {
    const forEvent = webhooks.filter((webhook) => webhook.event === event);
    const enabled = forEvent.filter((webhook) => webhook.status === 'enabled').length;
    return { event, enabled, idle: forEvent.length - enabled };
  });
}

/** `1 webhook subscribed`, or plainly that none is (and whether some exist but are not enabled). */
export function describeSubscribers(subscribers: EventSubscribers): string {
  const { enabled, idle } = subscribers;
  const idleText = idle === 0 ? '' : `; ${String(idle)} more not enabled`;
  if (enabled === 0) return `no webhook receives it${idleText}`;
  return `${String(enabled)} webhook${enabled === 1 ? '' : 's'} subscribed${idleText}`;
}

/** A profile name as the shell needs it typed. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:@-]+$/.test(text) ? text : `"${text.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** The command that subscribes a listener to events nobody hears. */
export function subscribeCommand(profileName: string, events: readonly string[]): string {
  const flags = events.map((event) => `--event ${event}`).join(' ');
  return `npm run listen -- --basic USER:SECRET --register --profile ${shellWord(profileName)} ${flags}`;
}

export interface WebhookGroup {
  url: string;
  basicUser: string | null;
  webhooks: { id: string; event: string; status: string; error: string | null }[];
}

/** Webhooks grouped by where they post (url and Basic user): one address subscribed to several events reads as one. */
export function groupByAddress(webhooks: readonly WebhookResponse[]): WebhookGroup[] {
  const groups = new Map<string, WebhookGroup>();
  for (const webhook of webhooks) {
    const url = webhook.url ?? '';
    const basicUser = webhook.basic_user ?? null;
    const key = `${url}\n${basicUser ?? ''}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = { url, basicUser, webhooks: [] };
      groups.set(key, group);
    }
    group.webhooks.push({
      id: webhook.id,
      event: webhook.event ?? '',
      status: webhook.status ?? '',
      error: webhook.error ?? null,
    });
  }
  for (const group of groups.values()) group.webhooks.sort((left, right) => left.event.localeCompare(right.event));
  return [...groups.values()].sort((left, right) => left.url.localeCompare(right.url));
}
