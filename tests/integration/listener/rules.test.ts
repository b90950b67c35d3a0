/** Each kind of response rule over real HTTP, and the record each leaves. */
import { afterEach, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import {
  eventually,
  notificationOf,
  postNotification,
  startTestListener,
  temporaryFolder,
  type TestListener,
} from './support.ts';

let current: TestListener | null = null;
afterEach(async () => {
  await current?.close();
  current = null;
});

/** Post and report what the sender experienced: an answer, or the connection's fate. */
function attempt(url: string, body: unknown, giveUpMs: number): Promise<{ status: number } | { failure: string }> {
  return new Promise((resolve) => {
    const outgoing = httpRequest(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } },
      (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0 });
      },
    );
    // The sender's own patience, as the bank's delivery timeout: not a limit on the test.
    outgoing.setTimeout(giveUpMs, () => {
      outgoing.destroy(new Error('sender timed out'));
    });
    outgoing.on('error', (error) => {
      resolve({ failure: error.message });
    });
    outgoing.end(JSON.stringify(body));
  });
}

describe('response rules', () => {
  it('status: answers the rule’s status, and records the rule', async () => {
    current = await startTestListener();
    current.listener.setRules([{ id: 'gone', event: 'ach.update', action: { kind: 'status', status: 410 } }]);
    const answer = await postNotification(current.url + '/h', notificationOf('ach_1'));
    expect(answer.status).toBe(410);
    expect(current.listener.request(answer.requestId)).toMatchObject({
      status: 410,
      ruleId: 'gone',
      outcome: 'answered',
    });
    // Another event is not matched.
    expect((await postNotification(current.url + '/h', notificationOf('card_1', 'card.update'))).status).toBe(200);
  });

  it('delay: answers after the delay, and records how long the answer took', async () => {
    current = await startTestListener();
    current.listener.setRules([{ id: 'slow', action: { kind: 'delay', delayMs: 150 } }]);
    const answer = await postNotification(current.url + '/h', notificationOf('ach_1'));
    expect(answer.status).toBe(200);
    await eventually(() => (current?.listener.request(answer.requestId)?.durationMs ?? 0) >= 150);
    expect(current.listener.request(answer.requestId)).toMatchObject({ ruleId: 'slow', status: 200 });
  });

  it('no answer: the sender times out; the request is kept as no_answer', async () => {
    current = await startTestListener();
    current.listener.setRules([{ id: 'silent', action: { kind: 'no_answer' } }]);
    const result = await attempt(current.url + '/h', notificationOf('ach_1'), 200);
    expect(result).toEqual({ failure: 'sender timed out' });
    const [kept] = current.listener.requests();
    expect(kept).toMatchObject({ outcome: 'no_answer', status: null, ruleId: 'silent', objectId: 'ach_1' });
  });

  it('no answer: held connections are closed when the listener stops', async () => {
    current = await startTestListener();
    current.listener.setRules([{ id: 'silent', action: { kind: 'no_answer' } }]);
    const pending = attempt(current.url + '/h', notificationOf('ach_1'), 60_000);
    await eventually(() => current?.listener.count() === 1);
    await current.listener.stop();
    expect(await pending).toEqual({ failure: 'socket hang up' });
  });

  it('delay: a listener stopped during the delay records that no answer was given', async () => {
    current = await startTestListener();
    current.listener.setRules([{ id: 'slow', action: { kind: 'delay', delayMs: 60_000 } }]);
    const pending = attempt(current.url + '/h', notificationOf('ach_1'), 120_000);
    await eventually(() => current?.listener.count() === 1);
    await current.listener.stop();
    expect(await pending).toEqual({ failure: 'socket hang up' });
    expect(current.listener.requests()[0]).toMatchObject({ outcome: 'no_answer', status: null, ruleId: 'slow' });
    expect(current.listener.stats().unsettled).toBe(0);
  });

  it('drop: the connection closes without an answer; the request is kept as dropped', async () => {
    current = await startTestListener();
    current.listener.setRules([{ id: 'cut', path: '/h', action: { kind: 'drop' } }]);
    const result = await attempt(current.url + '/h', notificationOf('ach_1'), 10_000);
    expect(result).toEqual({ failure: 'socket hang up' });
    expect(current.listener.requests()[0]).toMatchObject({ outcome: 'dropped', status: null, ruleId: 'cut' });
  });

  it('fail N times then succeed: counted per event and object id, across connections', async () => {
    current = await startTestListener();
    current.listener.setRules([{ id: 'flaky', action: { kind: 'fail_times', times: 3, status: 503 } }]);
    const statuses = async (id: string): Promise<number[]> => {
      const seen: number[] = [];
      for (let index = 0; index < 5; index += 1) {
        seen.push((await postNotification((current?.url ?? '') + '/h', notificationOf(id))).status);
      }
      return seen;
    };
    expect(await statuses('ach_1')).toEqual([503, 503, 503, 200, 200]);
    expect(await statuses('ach_2')).toEqual([503, 503, 503, 200, 200]);
    expect(current.listener.count({ objectId: 'ach_1' })).toBe(5);
  });

  it('fail N times then answer another status than 200 (thenStatus)', async () => {
    current = await startTestListener();
    current.listener.setRules([{ id: 'then', action: { kind: 'fail_times', times: 2, status: 500, thenStatus: 202 } }]);
    const seen: number[] = [];
    for (let index = 0; index < 4; index += 1) {
      seen.push((await postNotification(current.url + '/h', notificationOf('ach_7'))).status);
    }
    expect(seen).toEqual([500, 500, 202, 202]);
    expect(current.listener.requests({ objectId: 'ach_7' }).map((request) => request.status)).toEqual([
      202, 202, 500, 500,
    ]);
  });

  it('rules survive a restart of the listener', async () => {
    const temporary = temporaryFolder();
    try {
      const first = await startTestListener({ folder: temporary.folder });
      first.listener.setRules([{ id: 'keep', action: { kind: 'status', status: 418 } }]);
      await first.close();
      current = await startTestListener({ folder: temporary.folder });
      expect(current.listener.rules.map((rule) => rule.id)).toEqual(['keep']);
      expect((await postNotification(current.url + '/h', notificationOf('ach_1'))).status).toBe(418);
    } finally {
      await current?.close();
      current = null;
      temporary.remove();
    }
  });
});
