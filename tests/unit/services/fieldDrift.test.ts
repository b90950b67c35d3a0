/** Drift is counted by field name per resource, never by value (fieldDrift.ts). */
import { describe, expect, it } from 'vitest';
import { listEnvelopeResponse, observeDrift } from '../../../src/main/services/bank/fieldDrift.ts';
import { objectIdInText } from '../../../src/main/services/bank/bankHttp.ts';
import { documentResponse, webhookResponse } from '../../../src/shared/bank/index.ts';

describe('observeDrift', () => {
  it('counts, per field, the records that left an expected field out and those that sent an unknown one', () => {
    const observation = observeDrift('document', documentResponse, [
      { id: 'doc_1', type: 'passport', name: 'a', file_id: 'file_1', retention: 30 },
      { id: 'doc_2', type: 'passport', name: 'b', file_id: 'file_1', org_id: 'org_1', description: null },
    ]);
    expect(observation?.records).toBe(2);
    expect(observation?.missing['bank_id']).toBe(2);
    expect(observation?.missing['organization_id']).toBe(1); // org_id is its other name
    expect(observation?.missing['description']).toBe(1); // null is sent, not left out
    expect(observation?.unknown).toEqual({ retention: 1 });
  });

  it('counts each record by its own shape when shapes alternate within a page', () => {
    const lean = { id: 'wh_1', event: 'ach.update' };
    const full = { id: 'wh_2', event: 'ach.update', basic_user: null, basic_secret: null, extra: 1 };
    const observation = observeDrift('webhook', webhookResponse, [lean, lean, full, lean, full]);
    expect(observation?.records).toBe(5);
    expect(observation?.missing['basic_user']).toBe(3);
    expect(observation?.missing['url']).toBe(5);
    expect(observation?.unknown).toEqual({ extra: 2 });
  });

  it('carries names and counts only: no value of the answer', () => {
    const secretish = 'https://hooks.example/very-private-path?token=abc123';
    const observation = observeDrift('webhook', webhookResponse, [
      { id: 'wh_1', url: secretish, extra_field: secretish },
    ]);
    expect(JSON.stringify(observation)).not.toContain('abc123');
    expect(observation?.unknown).toEqual({ extra_field: 1 });
  });

  it('measures a list envelope without page_next', () => {
    expect(observeDrift('webhook list', listEnvelopeResponse, [{ data: [], total_estimated: 10 }])).toEqual({
      resource: 'webhook list',
      records: 1,
      missing: { page_next: 1 },
      unknown: {},
    });
  });

  it('bounds what a bank sending keys by the thousand can add: names cut short, at most 50 a resource', () => {
    const record: Record<string, unknown> = { id: 'wh_1' };
    for (let index = 0; index < 500; index += 1) record[`field_${String(index)}_${'x'.repeat(200)}`] = index;
    const observation = observeDrift('webhook', webhookResponse, [record]);
    const names = Object.keys(observation?.unknown ?? {});
    expect(names).toHaveLength(50);
    expect(Math.max(...names.map((name) => name.length))).toBe(100);
  });

  it('has nothing to say about no records', () => {
    expect(observeDrift('webhook', webhookResponse, [null, 'x', []])).toBeNull();
  });
});

describe('objectIdInText', () => {
  it('finds the id of an answer cut short, and never an id nested in another object', () => {
    expect(objectIdInText('{"id":"doc_1","name":"Pass')).toBe('doc_1');
    expect(objectIdInText('{"type":"passport","name":"a \\" b","id":"doc_2",')).toBe('doc_2');
    expect(objectIdInText('{"fields":{"id":"x"},"id":"doc_3"}')).toBeNull();
    expect(objectIdInText('<html>Bad gateway</html>')).toBeNull();
  });
});
