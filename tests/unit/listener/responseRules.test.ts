/** Every kind of response rule, how rules are matched, and the per-notification counter. */
import { describe, expect, it } from 'vitest';
import { ResponseRules } from '../../../src/main/services/listener/responseRules.ts';

describe('ResponseRules', () => {
  it('answers plainly without rules', () => {
    expect(new ResponseRules().decide('/x', 'ach.update', 'ach_1')).toEqual({
      ruleId: null,
      behaviour: 'answer',
      status: null,
      delayMs: 0,
    });
  });

  it('applies each kind: status, delay, no answer, drop', () => {
    const rules = new ResponseRules();
    rules.set([
      { id: 's', path: '/status', action: { kind: 'status', status: 503, delayMs: 5 } },
      { id: 'd', path: '/delay', action: { kind: 'delay', delayMs: 250 } },
      { id: 'n', path: '/none', action: { kind: 'no_answer' } },
      { id: 'x', path: '/drop', action: { kind: 'drop' } },
    ]);
    expect(rules.decide('/status', null, null)).toEqual({ ruleId: 's', behaviour: 'answer', status: 503, delayMs: 5 });
    expect(rules.decide('/delay', null, null)).toEqual({
      ruleId: 'd',
      behaviour: 'answer',
      status: null,
      delayMs: 250,
    });
    expect(rules.decide('/none', null, null).behaviour).toBe('no_answer');
    expect(rules.decide('/drop', null, null).behaviour).toBe('drop');
    expect(rules.decide('/other', null, null).ruleId).toBeNull();
  });

  it('fails N times then succeeds, counted per event and object id', () => {
    const rules = new ResponseRules();
    rules.set([{ id: 'f', event: 'ach.*', action: { kind: 'fail_times', times: 2, status: 502 } }]);
    const statuses = (event: string, id: string): (number | null)[] =>
      [1, 2, 3, 4].map(() => rules.decide('/hook', event, id).status);
    expect(statuses('ach.update', 'ach_1')).toEqual([502, 502, 200, 200]);
    // Another object, and another event of the same object, count on their own.
    expect(statuses('ach.update', 'ach_2')).toEqual([502, 502, 200, 200]);
    expect(statuses('ach.create', 'ach_1')).toEqual([502, 502, 200, 200]);
    // Not matched: another resource.
    expect(rules.decide('/hook', 'card.update', 'card_1').ruleId).toBeNull();
    rules.resetCounters();
    expect(rules.decide('/hook', 'ach.update', 'ach_1').status).toBe(502);
  });

  it('defaults fail_times to 500 and counts bodies without a notification by path', () => {
    const rules = new ResponseRules();
    rules.set([{ id: 'f', action: { kind: 'fail_times', times: 1 } }]);
    expect(rules.decide('/a', null, null).status).toBe(500);
    expect(rules.decide('/a', null, null).status).toBe(200);
    expect(rules.decide('/b', null, null).status).toBe(500);
  });

  it('takes the first enabled rule that matches, by exact or prefix event and path', () => {
    const rules = new ResponseRules();
    rules.set([
      { id: 'off', action: { kind: 'drop' }, enabled: false },
      { id: 'exact', event: 'ach.update', path: '/hooks/a', action: { kind: 'status', status: 410 } },
      { id: 'prefix', path: '/hooks/*', action: { kind: 'status', status: 418 } },
    ]);
    expect(rules.decide('/hooks/a', 'ach.update', 'x').ruleId).toBe('exact');
    expect(rules.decide('/hooks/a', 'ach.create', 'x').ruleId).toBe('prefix');
    expect(rules.decide('/hooks/b', null, null).ruleId).toBe('prefix');
    expect(rules.decide('/other', 'ach.update', 'x').ruleId).toBeNull();
  });

  it('refuses invalid rules and keeps the ones it had', () => {
    const rules = new ResponseRules();
    rules.set([{ id: 'a', action: { kind: 'drop' } }]);
    expect(() => rules.set([{ id: 'b', action: { kind: 'status', status: 99 } }])).toThrow();
    expect(() => rules.set([{ id: 'b', action: { kind: 'explode' } }])).toThrow();
    expect(() =>
      rules.set([
        { id: 'same', action: { kind: 'drop' } },
        { id: 'same', action: { kind: 'drop' } },
      ]),
    ).toThrow(/share the id/);
    expect(rules.rules.map((rule) => rule.id)).toEqual(['a']);
  });
});
