/** Events are checked against the contract and scrubbed. */
import { describe, expect, it } from 'vitest';
import { createEventPublisher } from '../../../src/main/ipc/eventPublisher.ts';

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
