/** Duplicates and out-of-order arrivals per object (spec §6.8). */
import { describe, expect, it } from 'vitest';
import { ArrivalOrder } from '../../../src/main/services/listener/arrivalOrder.ts';

describe('ArrivalOrder', () => {
  it('counts arrivals of the same event for the same object', () => {
    const order = new ArrivalOrder(() => []);
    expect(order.observe('ach_1', 'ach.update', 'update')).toEqual({ occurrence: 1, outOfOrder: false });
    expect(order.observe('ach_1', 'ach.update', 'update')).toEqual({ occurrence: 2, outOfOrder: false });
    expect(order.observe('ach_2', 'ach.update', 'update').occurrence).toBe(1);
    expect(order.observe(null, null, null)).toEqual({ occurrence: 1, outOfOrder: false });
  });

  it('flags a create after an update, and anything after a delete', () => {
    const order = new ArrivalOrder(() => []);
    order.observe('wh_1', 'webhook.update', 'update');
    expect(order.observe('wh_1', 'webhook.create', 'create').outOfOrder).toBe(true);
    order.observe('wh_1', 'webhook.delete', 'delete');
    expect(order.observe('wh_1', 'webhook.update', 'update').outOfOrder).toBe(true);
  });

  it('continues from the log for objects it no longer remembers', () => {
    const order = new ArrivalOrder(
      (objectId) => (objectId === 'ach_1' ? [{ event: 'ach.update', op: 'update', arrivals: 3 }] : []),
      { capacity: 1 },
    );
    expect(order.observe('ach_1', 'ach.update', 'update').occurrence).toBe(4);
    expect(order.observe('ach_1', 'ach.create', 'create')).toEqual({ occurrence: 1, outOfOrder: true });
  });

  it('does not ask the log while it knows every object in it, and does once it had to forget one', () => {
    const asked: string[] = [];
    const order = new ArrivalOrder(
      (objectId) => {
        asked.push(objectId);
        return [];
      },
      { capacity: 2, logIsEmpty: true },
    );
    order.observe('a', 'ach.update', 'update');
    order.observe('b', 'ach.update', 'update');
    expect(asked).toEqual([]);
    order.observe('c', 'ach.update', 'update');
    order.observe('a', 'ach.update', 'update');
    expect(asked).toEqual(['a']);
  });
});
