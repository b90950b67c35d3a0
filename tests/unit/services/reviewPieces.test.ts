/** The pure pieces of the review: field-by-field changes, notes, notification refs, watch rules. */
import { describe, expect, it } from 'vitest';
import { recordChanges } from '../../../src/main/services/review/recordChanges.ts';
import { checkedNote } from '../../../src/main/services/review/reviewNote.ts';
import { escapeHtml } from '../../../src/main/services/review/reportHtml.ts';
import { notificationOfRef, notificationRef } from '../../../src/shared/review/reviewTerms.ts';
import { describeRule, watchRule } from '../../../src/shared/review/watchRule.ts';

describe('recordChanges', () => {
  it('names each changed, added and removed leaf with its JSON before and after', () => {
    const before = { status: 'submitted', people: [{ email: 'a@x.example' }], hold: 10, gone: true };
    const after = {
      status: 'approved',
      people: [{ email: 'b@x.example' }, { email: 'c@x.example' }],
      hold: 10,
      added: null,
    };
    expect(recordChanges(before, after)).toEqual([
      { field: 'added', before: null, after: 'null' },
      { field: 'gone', before: 'true', after: null },
      { field: 'people[0].email', before: '"a@x.example"', after: '"b@x.example"' },
      { field: 'people[1]', before: null, after: '{"email":"c@x.example"}' },
      { field: 'status', before: '"submitted"', after: '"approved"' },
    ]);
  });

  it('says the whole record went when the cache no longer holds it, and nothing when equal', () => {
    expect(recordChanges({ amount: '-5.00' }, null)).toEqual([
      { field: '(record)', before: '{"amount":"-5.00"}', after: null },
    ]);
    expect(recordChanges({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toEqual([]);
  });
});

describe('checkedNote', () => {
  it('keeps plain text with line breaks and tabs, trimmed; an empty note is none', () => {
    expect(checkedNote('  Line one\n\tindented  ')).toBe('Line one\n\tindented');
    expect(checkedNote('   ')).toBeNull();
    expect(checkedNote(undefined)).toBeNull();
  });

  it('counts characters as a person does, and refuses control characters', () => {
    expect(checkedNote('😀'.repeat(4000))).toHaveLength(8000);
    expect(() => checkedNote('😀'.repeat(4001))).toThrow(
      'The note is 4001 characters long; a note holds at most 4000.',
    );
    expect(() => checkedNote('a\u0000b')).toThrow('plain text');
    expect(() => checkedNote('a\u001b[31mred')).toThrow('plain text');
  });
});

describe('notification refs', () => {
  it('round-trips the webhook, object and event (an event may hold a slash; null stays null)', () => {
    const ref = notificationRef('wh_1', 'ach_2', 'ach.update/status');
    expect(ref).toBe('notification/wh_1/ach_2/ach.update/status');
    expect(notificationOfRef(ref)).toEqual({ webhookId: 'wh_1', objectId: 'ach_2', event: 'ach.update/status' });
    expect(notificationOfRef(notificationRef('wh_1', 'ach_2', null))).toEqual({
      webhookId: 'wh_1',
      objectId: 'ach_2',
      event: null,
    });
    expect(notificationOfRef('whsend_1')).toBeNull();
    expect(notificationOfRef('notification/wh_1')).toBeNull();
  });
});

describe('watch rules', () => {
  it('takes the conditions of its kind, in words', () => {
    const rule = watchRule.parse({
      name: ' Big ',
      kind: 'pending-transaction',
      amountBeyond: '-1000.00',
      descriptionHas: 'casino',
    });
    expect(rule.name).toBe('Big');
    expect(describeRule(rule)).toBe('pending-transaction: amount ≤ -1000.00 and description has "casino"');
    expect(describeRule(watchRule.parse({ name: 'Retries', kind: 'webhook-send', attemptAtLeast: 5 }))).toBe(
      'webhook-send: attempt ≥ 5',
    );
  });

  it('refuses a condition of another kind, none at all, and a bad amount or name', () => {
    const problems = (input: unknown) => watchRule.safeParse(input).error?.issues.map((issue) => issue.path.join('.'));
    expect(problems({ name: 'x', kind: 'application', attemptAtLeast: 2 })).toEqual(['attemptAtLeast']);
    expect(problems({ name: 'x', kind: 'application' })).toEqual(['kind']);
    expect(problems({ name: 'x', kind: 'pending-transaction', amountBeyond: '1e6' })).toEqual(['amountBeyond']);
    expect(problems({ name: 'two\nlines', kind: 'application', applicationStatus: 'approved' })).toEqual(['name']);
  });
});

describe('escapeHtml', () => {
  it('escapes every character that could open markup or an attribute', () => {
    expect(escapeHtml(`<img src=x onerror="a('b')">&`)).toBe(
      '&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;',
    );
  });
});
