/** Events are checked against the contract and scrubbed; listener requests are batched. */
import { describe, expect, it } from 'vitest';
import { createEventPublisher, createRequestBatcher } from '../../../src/main/ipc/eventPublisher.ts';
import type { ListenerRequestSummary } from '../../../src/shared/ipc/domains/listener.ts';

function request(id: number): ListenerRequestSummary {
  return {
    id: String(id),
    receivedAt: '2026-01-01T00:00:00.000Z',
    method: 'POST',
    path: '/hooks',
    verdict: 'ok',
    event: 'ach.update',
    objectId: 'ach_1',
    status: 200,
    durationMs: 1,
    bodyBytes: 80,
    outOfOrder: false,
    forwardStatus: null,
  };
}

describe('the event publisher', () => {
  it('sends a valid payload on the event channel', () => {
    const sent: [string, unknown][] = [];
    const publisher = createEventPublisher({ send: (channel, payload) => sent.push([channel, payload]) });
    const progress = {
      jobId: 'j',
      kind: 'webhooks' as const,
      key: 'webhooks/p',
      fetched: 1,
      written: 1,
      pages: 1,
      windowsDone: 0,
      windowsTotal: 0,
      parallelism: 1,
      ratePerSecond: 2,
      etaSeconds: null,
      state: 'done' as const,
    };
    expect(publisher.publish('sync', 'progress', progress)).toBe(true);
    expect(sent).toEqual([['event:sync.progress', progress]]);
  });

  it('drops (and logs) a payload that does not match the contract', () => {
    const sent: unknown[] = [];
    const logged: string[] = [];
    const publisher = createEventPublisher({
      send: (_channel, payload) => sent.push(payload),
      log: (message) => logged.push(message),
    });
    expect(publisher.publish('sync', 'progress', { jobId: 'j' } as never)).toBe(false);
    expect(sent).toEqual([]);
    expect(logged.join()).toContain('does not match the contract');
  });

  it('scrubs a secret out of an event', () => {
    const sent: unknown[] = [];
    const publisher = createEventPublisher({
      send: (_channel, payload) => sent.push(payload),
      knownSecrets: () => ['sandbox_demo_secret_7f3c'],
    });
    publisher.publish('app', 'onlineStatus', {
      profileId: 'p',
      state: 'offline',
      checkedAt: null,
      reason: 'refused with key sandbox_demo_secret_7f3c',
      nextCheckSeconds: 4,
    });
    expect(JSON.stringify(sent)).not.toContain('sandbox_demo_secret_7f3c');
  });
});

describe('the request batcher', () => {
  it('gathers requests into one push, and counts what does not fit', () => {
    const pushes: unknown[] = [];
    const timers: (() => void)[] = [];
    const publisher = createEventPublisher({ send: (_channel, payload) => pushes.push(payload) });
    const batcher = createRequestBatcher({
      publisher,
      maxBatch: 3,
      setTimer: (callback) => timers.push(callback),
      clearTimer: () => undefined,
    });
    for (let id = 1; id <= 5; id += 1) batcher.add(request(id));
    expect(pushes).toEqual([]);
    expect(timers).toHaveLength(1);
    timers[0]?.();
    expect(pushes).toEqual([{ requests: [request(1), request(2), request(3)], omitted: 2 }]);
    batcher.add(request(6));
    batcher.close();
    expect(pushes).toHaveLength(2);
    batcher.add(request(7));
    batcher.flush();
    expect(pushes).toHaveLength(2);
  });
});
