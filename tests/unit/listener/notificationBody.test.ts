/** Any body gets a reading, never a throw (spec §2.6). */
import { describe, expect, it } from 'vitest';
import { readNotification } from '../../../src/main/services/listener/notificationBody.ts';

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

describe('readNotification', () => {
  it('reads a notification', () => {
    const reading = readNotification(
      json({ event: 'ach.update', op: 'update', id: 'ach_1', url: 'http://bank/ach/ach_1' }),
      'application/json',
    );
    expect(reading.problem).toBeNull();
    expect(reading.notification?.id).toBe('ach_1');
    expect(reading).toMatchObject({ event: 'ach.update', objectId: 'ach_1', op: 'update' });
  });

  it('names what is wrong with malformed JSON, a non-JSON body, an empty or non-UTF-8 body', () => {
    expect(readNotification(Buffer.from('{"event": "ach.update",'), 'application/json').problem).toMatch(
      /^body is not JSON/,
    );
    expect(readNotification(Buffer.from('hello=world'), 'application/x-www-form-urlencoded').problem).toMatch(
      /not JSON \(Content-Type application\/x-www-form-urlencoded\)/,
    );
    expect(readNotification(Buffer.alloc(0), undefined).problem).toBe('empty body');
    expect(readNotification(Buffer.from([0xff, 0xfe, 0x00]), 'application/json').problem).toBe(
      'body is not UTF-8 text',
    );
    expect(readNotification(json([1, 2]), 'application/json').problem).toMatch(/not an object \(array\)/);
    expect(readNotification(json('text'), 'application/json').problem).toMatch(/not an object \(string\)/);
  });

  it('says where malformed JSON breaks without quoting the body (kept in clear beside the sealed body)', () => {
    const secretish = 'hunter2-api-secret-value';
    const bodies = [
      `{"token": "${secretish}" oops}`,
      secretish,
      `{"token": "${secretish}`,
      `{"token": "${secretish}",`,
      `[${secretish}]`,
    ];
    for (const body of bodies) {
      const problem = readNotification(Buffer.from(body), 'application/json').problem ?? '';
      expect(problem).toMatch(/^body is not JSON \(Content-Type application\/json\): /);
      expect(problem).not.toContain('hunter2');
      expect(problem).not.toContain('token');
    }
    expect(readNotification(Buffer.from(`{"token": "${secretish}" oops}`), 'application/json').problem).toMatch(
      /syntax error at character 37 of 42/,
    );
    expect(readNotification(Buffer.from('{"event": "ach.update",'), 'application/json').problem).toMatch(
      /ends before the JSON does \(23 characters\)/,
    );
  });

  it('names the fields of a JSON object that is not a notification, and still keeps its event and id', () => {
    const reading = readNotification(json({ event: 'ach.update', op: 'create', id: 'ach_2' }), 'application/json');
    expect(reading.notification).toBeNull();
    expect(reading.problem).toMatch(/^not a notification: /);
    expect(reading.problem).toMatch(/url/);
    expect(reading).toMatchObject({ event: 'ach.update', objectId: 'ach_2', op: 'create' });
    const mismatched = readNotification(
      json({ event: 'ach.update', op: 'create', id: 'ach_2', url: 'http://bank/ach/ach_2' }),
      'application/json',
    );
    expect(mismatched.problem).toMatch(/op: must match the operation of event ach.update/);
  });

  it('does not keep absurd keys', () => {
    const reading = readNotification(json({ event: 'x'.repeat(5000), id: 5 }), 'application/json');
    expect(reading).toMatchObject({ event: null, objectId: null });
  });
});

describe('the fast path', () => {
  it('accepts exactly what the notification schema accepts', async () => {
    const { webhookNotification } = await import('../../../src/shared/bank/index.ts');
    const base = { event: 'ach.update', op: 'update', id: 'ach_1', url: 'http://b/ach/ach_1' };
    const variants: Record<string, unknown>[] = [
      base,
      { ...base, extra: { nested: true } },
      { ...base, event: 'account_application.update' },
      { ...base, event: 'webhook.delete', op: 'delete' },
      { ...base, op: 'create' },
      { ...base, event: 'ACH.update' },
      { ...base, event: 'ach.updated' },
      { ...base, op: 'remove', event: 'ach.remove' },
      { ...base, id: '' },
      { ...base, url: '' },
      { ...base, id: 5 },
      { ...base, url: null },
      { event: 'ach.update', op: 'update', id: 'ach_1' },
      { ...base, event: '1ach.update' },
      { ...base, event: 'a.update' },
    ];
    for (const variant of variants) {
      const reading = readNotification(json(variant), 'application/json');
      expect(reading.notification !== null, JSON.stringify(variant)).toBe(
        webhookNotification.safeParse(variant).success,
      );
    }
  });
});
