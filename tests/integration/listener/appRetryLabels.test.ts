/**
 * Retries told apart from new events in the app (issue 27, item 4): the listener grid's rows
 * (listener.listRequests) carry each arrival's label, first by body, then the bank's word from
 * its send log, through the real router, services and embedded sandbox. The listener fails the
 * first two arrivals of the notification, so the bank retries it twice; one ACH moved twice
 * sends two real ach.update events with the same body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerdeskApi } from '../../../src/shared/ipc/bridge.ts';
import { openAppOverIpc, type AppOverIpc } from '../../support/app.ts';
import type { ListenerRequestSummary } from '../../../src/shared/ipc/domains/listener.ts';

let app: AppOverIpc;
let api: LedgerdeskApi;

beforeAll(async () => {
  app = await openAppOverIpc('labels');
  ({ api } = app);
});

afterAll(() => app.close());

function labelsOf(rows: ListenerRequestSummary[]): string[] {
  return rows.map((row) =>
    row.label === null || row.label === undefined
      ? 'none'
      : `${row.label.source}:${row.label.kind === 'retry' ? `attempt ${String(row.label.attempt)}` : 'new event'}`,
  );
}

describe('retry labels in the app’s listener grid', () => {
  it('labels by body at once, then by the bank’s send log: a failing notification’s attempts and a second real change', async () => {
    const { activeProfileId } = await api.profiles.list();
    const profileId = activeProfileId ?? '';
    await api.listener.start({ port: 0 });
    await api.listener.register({ profileId, event: 'ach.update' });
    // Each notification (event and object) fails twice, then is answered 200.
    await api.listener.setRules({
      rules: [{ id: 'flaky', match: {}, response: { kind: 'failTimes', times: 2, status: 500, thenStatus: 200 } }],
    });
    const first = await api.trigger.run({ profileId, request: { event: 'ach.update', status: 'processing' } });
    const achId = first.objectId;
    expect(achId).toMatch(/^ach_/);

    // Three arrivals of the first change (two refused, the third answered), each labelled by the bank.
    const rows = await app.untilPushed(async () => {
      const page = await api.listener.listRequests({ search: achId, limit: 50 });
      const oldestFirst = [...page.rows].reverse();
      return oldestFirst.length === 3 && oldestFirst.every((row) => row.label?.source === 'bank')
        ? oldestFirst
        : undefined;
    });
    expect(rows.map((row) => row.status)).toEqual([500, 500, 200]);
    expect(labelsOf(rows)).toEqual(['bank:new event', 'bank:attempt 2', 'bank:attempt 3']);
    expect(rows[1]?.label?.basis).toMatch(/^send whsend_\w+ follows 1 earlier attempt$/);
    // The grid shows the time to the millisecond.
    expect(rows.every((row) => /T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(row.receivedAt))).toBe(true);

    // The same ACH moved again: a real new event with the very same body. The rule counts per
    // notification, so it is answered 200 at once; the bank says it is a first attempt.
    await api.listener.setRules({ rules: [] });
    await api.trigger.run({ profileId, request: { event: 'ach.update', achId, status: 'sent' } });
    const after = await app.untilPushed(async () => {
      const page = await api.listener.listRequests({ search: achId, limit: 50 });
      const oldestFirst = [...page.rows].reverse();
      return oldestFirst.length === 4 && oldestFirst[3]?.label?.source === 'bank' ? oldestFirst : undefined;
    });
    expect(labelsOf(after).slice(3)).toEqual(['bank:new event']);
    const detail = await api.listener.getRequest({ id: after[3]?.id ?? '' });
    expect(detail.label?.kind).toBe('new_event');
  });
});
