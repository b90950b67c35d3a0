/** The contract itself: strict inputs, unique channels, events on real domains. */
import { describe, expect, it } from 'vitest';
import {
  EVENTS_BY_CHANNEL,
  events,
  OPERATIONS_BY_CHANNEL,
  operations,
  subscriberName,
} from '../../../src/shared/ipc/contract.ts';

describe('the IPC contract', () => {
  it('has one channel per operation, and one per event', () => {
    const count = Object.values(operations).reduce((sum, methods) => sum + Object.keys(methods).length, 0);
    expect(OPERATIONS_BY_CHANNEL.size).toBe(count);
    const eventCount = Object.values(events).reduce((sum, domainEvents) => sum + Object.keys(domainEvents).length, 0);
    expect(EVENTS_BY_CHANNEL.size).toBe(eventCount);
  });

  it('carries every domain the renderer draws', () => {
    expect(Object.keys(operations)).toEqual(
      expect.arrayContaining([
        'profiles',
        'credentials',
        'pendingTransactions',
        'accountApplications',
        'webhooks',
        'webhookSends',
        'documents',
        'cardArt',
        'sync',
        'listener',
        'exports',
        'audit',
        'app',
      ]),
    );
  });

  it.each([...OPERATIONS_BY_CHANNEL.keys()])('%s refuses unknown fields in its input', (channel) => {
    const entry = OPERATIONS_BY_CHANNEL.get(channel);
    const result = entry?.input.safeParse({ thisFieldDoesNotExist: 1 });
    expect(result?.success).toBe(false);
    expect(JSON.stringify(result?.error?.issues ?? [])).toMatch(/unrecognized_keys|thisFieldDoesNotExist|invalid/);
  });

  it('event subscribers never collide with a method of the same domain', () => {
    for (const [domain, domainEvents] of Object.entries(events)) {
      const methods = Object.keys(operations[domain as keyof typeof operations]);
      for (const event of Object.keys(domainEvents)) expect(methods).not.toContain(subscriberName(event));
    }
  });

  it('asks for an explicit confirmation on every write to the bank', () => {
    const writes = [
      'webhooks.create',
      'webhooks.update',
      'webhooks.delete',
      'documents.create',
      'files.upload',
      'cardArt.upload',
      'listener.register',
      'listener.unregister',
    ];
    for (const channel of writes) {
      const input = OPERATIONS_BY_CHANNEL.get(channel)?.input;
      expect(input?.def.type, channel).toBe('object');
      const shape = (input as unknown as { shape: Record<string, unknown> }).shape;
      expect(Object.keys(shape), channel).toContain('confirmProduction');
    }
  });
});
