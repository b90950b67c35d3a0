/**
 * Receive, verify, keep: real HTTP on loopback into a real SQLite file. Every verdict; the
 * record exists before the answer arrives; Authorization is redacted; requests survive a
 * restart; pushes are batched.
 */
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from 'node:http';
import {
  basicHeader,
  eventually,
  notificationOf,
  postNotification,
  requestEvents,
  send,
  startTestListener,
  temporaryFolder,
  type TestListener,
} from './support.ts';

let current: TestListener | null = null;
afterEach(async () => {
  await current?.close();
  current = null;
});

describe('receiving', () => {
  it('gives every verdict', async () => {
    current = await startTestListener({ basic: { user: 'bank', secret: 'pa:ss' } });
    const { url } = current;
    const cases: [string | undefined, string][] = [
      [basicHeader('bank', 'pa:ss'), 'ok'],
      [undefined, 'missing_header'],
      ['Basic ' + Buffer.from('no colon here').toString('base64'), 'malformed_header'],
      ['Basic %%%not-base64%%%', 'malformed_header'],
      ['Bearer abc', 'malformed_header'],
      [basicHeader('someone', 'pa:ss'), 'wrong_user'],
      [basicHeader('bank', 'guess'), 'wrong_secret'],
    ];
    for (const [authorization, verdict] of cases) {
      const answer = await postNotification(
        url + '/hook',
        notificationOf('ach_1'),
        authorization === undefined ? {} : { authorization },
      );
      expect(answer.status, verdict).toBe(200);
      expect(current.listener.request(answer.requestId)?.verdict, String(authorization)).toBe(verdict);
    }
    await current.listener.clearCredentials();
    const unconfigured = await postNotification(url + '/hook', notificationOf('ach_1'), {
      authorization: basicHeader('bank', 'pa:ss'),
    });
    expect(current.listener.request(unconfigured.requestId)?.verdict).toBe('not_configured');
  });

  it('answers 401 when asked to reject what is not verified, and still keeps it', async () => {
    current = await startTestListener({ basic: { user: 'bank', secret: 's' }, settings: { rejectUnverified: true } });
    const refused = await postNotification(current.url + '/hook', notificationOf('ach_1'), {
      authorization: basicHeader('bank', 'wrong'),
    });
    expect(refused.status).toBe(401);
    // The sender is not told which part was wrong; the verdict is kept for the developer.
    expect(JSON.parse(refused.body)).toEqual({
      error: 'Not verified: the Basic credentials are missing or do not match.',
    });
    expect(current.listener.request(refused.requestId)).toMatchObject({ verdict: 'wrong_secret', status: 401 });
    const wrongUser = await postNotification(current.url + '/hook', notificationOf('ach_1'), {
      authorization: basicHeader('someone', 's'),
    });
    expect(wrongUser.status).toBe(401);
    expect(wrongUser.body).toBe(refused.body);
    expect(current.listener.request(wrongUser.requestId)).toMatchObject({ verdict: 'wrong_user', status: 401 });
    const accepted = await postNotification(current.url + '/hook', notificationOf('ach_1'), {
      authorization: basicHeader('bank', 's'),
    });
    expect(accepted.status).toBe(200);
  });

  it('has written the request before answering it', async () => {
    current = await startTestListener();
    // Another connection to the same file, as another process would see it.
    const reader = new DatabaseSync(current.file, { readOnly: true });
    try {
      for (let index = 0; index < 20; index += 1) {
        const answer = await postNotification(
          current.url + `/any/path/${index}?q=${index}`,
          notificationOf(`ach_${index}`),
        );
        const row = reader
          .prepare('SELECT path, query, object_id, status FROM listener_requests WHERE id = ?')
          .get(answer.requestId);
        expect(row).toEqual({
          path: `/any/path/${index}`,
          query: `q=${index}`,
          object_id: `ach_${index}`,
          status: 200,
        });
      }
    } finally {
      reader.close();
    }
  });

  it('keeps method, path, headers (Authorization redacted), body, notification, verdict, answer and timing', async () => {
    current = await startTestListener({ basic: { user: 'bank', secret: 'topsecret' } });
    const answer = await send(current.url + '/hooks/ach?attempt=1', {
      method: 'PUT',
      headers: {
        authorization: basicHeader('bank', 'topsecret'),
        'content-type': 'application/json',
        'X-Custom': 'kept',
      },
      body: JSON.stringify(notificationOf('ach_7')),
    });
    const kept = current.listener.request(answer.requestId);
    expect(kept).toMatchObject({
      method: 'PUT',
      path: '/hooks/ach',
      query: 'attempt=1',
      verdict: 'ok',
      presentedUser: 'bank',
      event: 'ach.update',
      objectId: 'ach_7',
      status: 200,
      outcome: 'answered',
      notification: notificationOf('ach_7'),
      bodyText: JSON.stringify(notificationOf('ach_7')),
    });
    expect(kept?.headers).toContainEqual(['authorization', 'Basic [redacted]']);
    expect(kept?.headers).toContainEqual(['X-Custom', 'kept']);
    expect(kept?.durationMs).toBeGreaterThanOrEqual(0);
    const everything = JSON.stringify(current.database.prepare('SELECT * FROM listener_requests').all());
    expect(everything).not.toContain('topsecret');
    expect(everything).not.toContain(Buffer.from('bank:topsecret').toString('base64'));
  });

  it('keeps requests across a restart', async () => {
    const temporary = temporaryFolder();
    try {
      const first = await startTestListener({ folder: temporary.folder });
      const answer = await postNotification(first.url + '/hook', notificationOf('ach_1'));
      await first.close();
      current = await startTestListener({ folder: temporary.folder });
      expect(current.listener.request(answer.requestId)?.objectId).toBe('ach_1');
      // The same event for the same object again is its second arrival, also after the restart.
      const again = await postNotification(current.url + '/hook', notificationOf('ach_1'));
      expect(current.listener.request(again.requestId)).toMatchObject({ occurrence: 2 });
    } finally {
      await current?.close();
      current = null;
      temporary.remove();
    }
  });

  it('flags duplicates and out-of-order arrivals, and groups by object', async () => {
    current = await startTestListener();
    await postNotification(current.url + '/h', notificationOf('ach_1', 'ach.update'));
    const late = await postNotification(current.url + '/h', notificationOf('ach_1', 'ach.create'));
    const duplicate = await postNotification(current.url + '/h', notificationOf('ach_1', 'ach.update'));
    await postNotification(current.url + '/h', notificationOf('ach_2', 'ach.create'));
    expect(current.listener.request(late.requestId)).toMatchObject({ outOfOrder: true, occurrence: 1 });
    expect(current.listener.request(duplicate.requestId)).toMatchObject({ occurrence: 2 });
    expect(current.listener.objectGroups()).toMatchObject([
      { objectId: 'ach_2', requests: 1 },
      { objectId: 'ach_1', requests: 3, duplicates: 1, outOfOrder: 1, events: ['ach.create', 'ach.update'] },
    ]);
  });

  it('pushes requests to subscribers in batches, each request once', async () => {
    current = await startTestListener();
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    try {
      await Promise.all(
        Array.from({ length: 400 }, (_, index) =>
          postNotification((current?.url ?? '') + '/h', notificationOf(`ach_${index}`), {}, agent),
        ),
      );
    } finally {
      agent.destroy();
    }
    await eventually(() => requestEvents(current?.batches ?? []).length === 400);
    const batchesWithRequests = current.batches.filter((batch) => batch.items.some((item) => item.type === 'request'));
    expect(batchesWithRequests.length).toBeLessThan(400);
    expect(new Set(requestEvents(current.batches).map((request) => request.id)).size).toBe(400);
  });
});
