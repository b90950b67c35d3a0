/**
 * Words that agree (issue 38): each arrival has one delivery label, `attempt N`, `new event`,
 * `replay` or `edited replay`, the same in the listener's terminal line, its `--json` line and
 * the app, and nothing beside it says otherwise (version 1's `duplicate` flag is gone from the
 * JSON lines, which now say `"v": 2`). A replay is never counted as the bank's attempt: the
 * bank's next retry is still labelled against the bank's previous arrival. And a forward goes to
 * exactly the address given, the received path added only when asked.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { humanLineOf, jsonLineOf } from '../../../src/main/cli/listen/cliOutput.ts';
import { eventually, notificationOf, requestEvents, send, startTestListener, type TestListener } from './support.ts';

let current: TestListener | null = null;
const servers: Server[] = [];

afterEach(async () => {
  await current?.close();
  current = null;
  for (const server of servers.splice(0)) server.close();
});

async function handler(): Promise<{ url: string; paths: string[] }> {
  const paths: string[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    paths.push(request.url ?? '');
    request.resume();
    request.on('end', () => response.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`, paths };
}

describe('one delivery label per arrival', () => {
  it('a replay and an edited replay say so, never "new event"; the bank’s next retry is still attempt 2', async () => {
    current = await startTestListener();
    // The bank's first attempt fails, so its next one is a retry.
    current.listener.setRules([{ id: 'once', action: { kind: 'fail_times', times: 1, status: 500 } }]);
    const body = JSON.stringify(notificationOf('ach_7'));
    const headers = { 'content-type': 'application/json' };
    expect((await send(`${current.url}/hooks/ach`, { headers, body })).status).toBe(500);
    await eventually(() => requestEvents(current?.batches ?? []).length === 1);
    const [first] = requestEvents(current.batches);
    const original = first?.id ?? 0;

    // Replayed as kept, then edited: the listener's own sending, labelled as such.
    await current.listener.replay({ requestIds: [original], url: current.url, appendPath: true });
    await current.listener.replay({
      requestIds: [original],
      url: current.url,
      appendPath: true,
      edit: { body: JSON.stringify({ ...notificationOf('ach_7'), op: 'changed' }) },
    });
    // The bank's own retry of the same body: attempt 2 (the replays between are not its attempts).
    await send(`${current.url}/hooks/ach`, { headers, body });
    await eventually(() => requestEvents(current?.batches ?? []).length === 4);

    const arrivals = requestEvents(current.batches);
    expect(arrivals.map((request) => `${request.label?.kind ?? '-'} ${String(request.label?.attempt)}`)).toEqual([
      'new_event 1',
      'replay 1',
      'edited_replay 1',
      'retry 2',
    ]);
    expect(arrivals[1]?.label?.replayOf).toBe(original);
    expect(arrivals[2]?.label?.replayOf).toBe(original);

    // The terminal's line and the JSON line say the same, once.
    const human = arrivals.map(humanLineOf);
    expect(human[1]).toContain(`replay of request ${String(original)}`);
    expect(human[2]).toContain(`edited replay of request ${String(original)}`);
    expect(human[3]).toContain('attempt 2 (by body:');
    for (const line of human.slice(1, 3)) expect(line).not.toContain('new event');
    const json = arrivals.map((request) => JSON.parse(jsonLineOf(request)) as Record<string, unknown>);
    for (const line of json) {
      expect(line['v']).toBe(2);
      expect(line).not.toHaveProperty('duplicate');
    }
    expect(json.map((line) => (line['label'] as { text: string }).text)).toEqual([
      'new event',
      'replay',
      'edited replay',
      'attempt 2',
    ]);
  });
});

describe('forward to exactly the URL given', () => {
  it('keeps the path as written; adds the received path and query only when asked', async () => {
    const target = await handler();
    current = await startTestListener({ settings: { forwardTo: `${target.url}/webhooks` } });
    const body = JSON.stringify(notificationOf('ach_8'));
    await send(`${current.url}/webhooks/tok3n?from=bank`, { headers: { 'content-type': 'application/json' }, body });
    await current.listener.idle();
    await eventually(() => target.paths.length === 1);
    expect(target.paths).toEqual(['/webhooks']);

    current.listener.configure({ forwardAppendPath: true });
    await send(`${current.url}/webhooks/tok3n?from=bank`, { headers: { 'content-type': 'application/json' }, body });
    await current.listener.idle();
    await eventually(() => target.paths.length === 2);
    expect(target.paths[1]).toBe('/webhooks/webhooks/tok3n?from=bank');
  });
});
