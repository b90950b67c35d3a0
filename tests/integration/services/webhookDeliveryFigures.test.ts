/**
 * Each webhook's delivery figures (issue 27, item 6) on a real cache file: the SQL of
 * cache/webhookDeliveryStats.ts agrees, webhook by webhook, with the same figures counted in
 * plain code from the sends themselves: attempts and deliveries of the last 24 hours, retries
 * in that window, the latest attempt, and the notifications still retrying (their latest
 * attempt says will_retry) with the oldest one's time. Sends of another profile never count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookSendResponse, WebhookSendStatus } from '../../../src/shared/bank/index.ts';
import { OfflineCache } from '../../../src/main/services/cache/offlineCache.ts';
import { Credentials } from '../../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const PROFILE = 'prof_figures';
const OTHER = 'prof_other';
const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const HOUR = 60 * 60 * 1000;
const WEBHOOKS = ['wh_a', 'wh_b', 'wh_c'];

let temp: ReturnType<typeof makeTempFolder>;
let cache: OfflineCache;
const sends: WebhookSendResponse[] = [];

/** A small deterministic generator: the same log on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function stamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19) + 'Z';
}

beforeAll(async () => {
  temp = makeTempFolder();
  cache = await OfflineCache.open({
    folder: temp.folder,
    credentials: new Credentials(new InMemorySecretStore()),
    writer: 'inline',
  });
  const random = seeded(27);
  let n = 0;
  // wh_a and wh_b: notifications over 72 hours, each tried until delivered, given up, or still
  // retrying (the last ones); wh_c has none.
  for (const webhookId of WEBHOOKS.slice(0, 2)) {
    for (let notification = 0; notification < 40; notification += 1) {
      const objectId = `ach_${String(notification % 25).padStart(3, '0')}`;
      const event = notification % 3 === 0 ? 'ach.create' : 'ach.update';
      const start = NOW - random() * 72 * HOUR;
      const failures = Math.floor(random() * 4);
      const stillRetrying = random() < 0.2;
      const attempts = failures + 1;
      for (let attempt = 0; attempt < attempts; attempt += 1) {
        const last = attempt === attempts - 1;
        const status: WebhookSendStatus = last && !stillRetrying ? (random() < 0.1 ? 'skipped' : 'sent') : 'error';
        sends.push({
          id: `whsend_${String(n).padStart(6, '0')}`,
          webhook_id: webhookId,
          object_id: objectId,
          event,
          operation: event.endsWith('create') ? 'create' : 'update',
          status,
          attempt_number: attempt,
          will_retry: status === 'error' && (!last || stillRetrying),
          error: status === 'error' ? 'HTTP 500 from the receiver' : null,
          created_at: stamp(Math.min(NOW, start + attempt * 7 * 60 * 1000)),
        });
        n += 1;
      }
    }
  }
  cache.transaction(() => {
    cache.webhookSends.writePage(PROFILE, sends, stamp(NOW));
    // The same webhook ids under another profile: never counted for this one.
    cache.webhookSends.writePage(
      OTHER,
      sends.slice(0, 30).map((send) => ({ ...send, id: `other_${send.id}` })),
      stamp(NOW),
    );
  });
});

afterAll(async () => {
  await cache.close();
  temp.remove();
});

/** The figures, counted from the sends in plain code. */
function expectedFor(webhookId: string, since: string) {
  const own = sends.filter((send) => send.webhook_id === webhookId);
  const inWindow = own.filter((send) => (send.created_at ?? '') >= since);
  const order = (left: WebhookSendResponse, right: WebhookSendResponse): number =>
    (left.created_at ?? '').localeCompare(right.created_at ?? '') ||
    (left.attempt_number ?? 0) - (right.attempt_number ?? 0) ||
    left.id.localeCompare(right.id);
  const latest = [...own].sort(order).at(-1);
  const latestOfNotification = new Map<string, WebhookSendResponse>();
  for (const send of [...own].sort(order)) latestOfNotification.set(`${send.object_id}/${String(send.event)}`, send);
  const retrying = [...latestOfNotification.values()].filter((send) => send.will_retry);
  return {
    webhookId,
    lastAttempt:
      latest === undefined
        ? null
        : {
            at: latest.created_at,
            status: latest.status,
            attemptNumber: latest.attempt_number,
            willRetry: latest.will_retry,
          },
    attempts: inWindow.length,
    delivered: inWindow.filter((send) => send.status === 'sent').length,
    retries: inWindow.filter((send) => (send.attempt_number ?? 0) > 0).length,
    retrying: retrying.length,
    retryingSince: retrying.map((send) => send.created_at ?? '').sort()[0] ?? null,
  };
}

describe('webhook delivery figures from the cached send log', () => {
  it('agree with the figures counted from the sends, per webhook, over the last 24 hours', () => {
    const since = stamp(NOW - 24 * HOUR);
    const figures = cache.webhookSends.deliveryFigures(PROFILE, WEBHOOKS, since);
    expect(figures).toEqual(WEBHOOKS.map((webhookId) => expectedFor(webhookId, since)));
    // The log is varied enough for each figure to mean something.
    const [a] = figures;
    expect(a?.attempts).toBeGreaterThan(5);
    expect(a?.delivered).toBeLessThan(a?.attempts ?? 0);
    expect(a?.retries).toBeGreaterThan(0);
    expect(figures.some((entry) => entry.retrying > 0)).toBe(true);
    expect(figures[2]).toMatchObject({ attempts: 0, lastAttempt: null, retrying: 0, retryingSince: null });
  });

  it('move with the window: a wider one counts more, one after the last attempt counts none', () => {
    const day = cache.webhookSends.deliveryFigures(PROFILE, ['wh_a'], stamp(NOW - 24 * HOUR))[0];
    const all = cache.webhookSends.deliveryFigures(PROFILE, ['wh_a'], stamp(NOW - 100 * HOUR))[0];
    const none = cache.webhookSends.deliveryFigures(PROFILE, ['wh_a'], stamp(NOW + HOUR))[0];
    expect(all?.attempts).toBe(sends.filter((send) => send.webhook_id === 'wh_a').length);
    expect(all?.attempts).toBeGreaterThan(day?.attempts ?? 0);
    expect(none).toMatchObject({ attempts: 0, delivered: 0, retries: 0 });
    // The latest attempt and what is still retrying do not depend on the window.
    expect(none?.lastAttempt).toEqual(day?.lastAttempt);
    expect(none?.retrying).toBe(day?.retrying);
  });

  it('count the other profile’s sends only for that profile', () => {
    const other = cache.webhookSends.deliveryFigures(OTHER, ['wh_a'], stamp(NOW - 100 * HOUR))[0];
    expect(other?.attempts).toBe(sends.slice(0, 30).filter((send) => send.webhook_id === 'wh_a').length);
  });
});
