/**
 * One clock for a request's duration (issue 27): the live line (`npm run listen`, the app's
 * pushed row) and the kept record measure the same span, from the request's arrival until its
 * answer was written. Before, the record kept the time to read and parse the body (0.6 ms)
 * while the line said how long the answer took, group write to disk included (70.9 ms).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { humanLineOf } from '../../../src/main/cli/listen/cliOutput.ts';
import {
  eventually,
  notificationOf,
  postNotification,
  requestEvents,
  startTestListener,
  type TestListener,
} from './support.ts';

let current: TestListener | null = null;
afterEach(async () => {
  await current?.close();
  current = null;
});

describe('a request’s duration', () => {
  it('is the same in the live line and in the kept record, for every request of a burst', async () => {
    current = await startTestListener();
    const listener = current.listener;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        postNotification(`${current?.url ?? ''}/h`, notificationOf(`ach_${String(index)}`)),
      ),
    );
    await eventually(() => requestEvents(current?.batches ?? []).length >= answers.length);
    const pushed = requestEvents(current.batches);
    for (const answer of answers) {
      const line = pushed.find((request) => request.id === answer.requestId);
      expect(line, `request ${String(answer.requestId)} pushed`).toBeDefined();
      if (line === undefined) continue;
      await eventually(() => listener.request(answer.requestId)?.durationMs === line.durationMs);
      const kept = listener.request(answer.requestId);
      expect(kept?.durationMs).toBe(line.durationMs);
      // The printed line shows that same number, to a tenth of a millisecond.
      expect(humanLineOf(line)).toContain(`${line.durationMs.toFixed(1)} ms`);
    }
  });

  it('counts the time until the answer, a delayed one too', async () => {
    current = await startTestListener();
    current.listener.setRules([{ id: 'slow', action: { kind: 'delay', delayMs: 120 } }]);
    const answer = await postNotification(`${current.url}/h`, notificationOf('ach_1'));
    await eventually(() => requestEvents(current?.batches ?? []).some((request) => request.id === answer.requestId));
    const line = requestEvents(current.batches).find((request) => request.id === answer.requestId);
    expect(line?.durationMs).toBeGreaterThanOrEqual(120);
    await eventually(() => current?.listener.request(answer.requestId)?.durationMs === line?.durationMs);
  });
});
