/**
 * Bad input, one test each: the right status, a record of what happened, no crash (the next
 * request is served), and nothing lost that was accepted.
 */
import { Agent, createServer, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  basicHeader,
  eventually,
  notificationOf,
  postNotification,
  rawExchange,
  send,
  startTestListener,
  type TestListener,
} from './support.ts';

let current: TestListener | null = null;
afterEach(async () => {
  await current?.close();
  current = null;
});

async function stillServes(listener: TestListener): Promise<void> {
  const answer = await postNotification(listener.url + '/after', notificationOf('ach_after'));
  expect(answer.status).toBe(200);
  expect(listener.listener.request(answer.requestId)?.objectId).toBe('ach_after');
}

describe('bad input', () => {
  it('malformed JSON: received (200), kept with its problem', async () => {
    current = await startTestListener();
    const answer = await send(current.url + '/hook', {
      headers: { 'content-type': 'application/json' },
      body: '{"event": "ach.update", "id": ',
    });
    expect(answer.status).toBe(200);
    const kept = current.listener.request(answer.requestId);
    expect(kept?.bodyProblem).toMatch(/^body is not JSON/);
    expect(kept?.bodyText).toBe('{"event": "ach.update", "id": ');
    await stillServes(current);
  });

  it('a non-JSON body: received, kept with its problem; 400 when asked to reject invalid bodies', async () => {
    current = await startTestListener();
    const answer = await send(current.url + '/hook', { headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(answer.status).toBe(200);
    expect(current.listener.request(answer.requestId)?.bodyProblem).toMatch(/not JSON \(Content-Type text\/plain\)/);
    current.listener.configure({ rejectInvalidBody: true });
    const refused = await send(current.url + '/hook', { headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(refused.status).toBe(400);
    expect(current.listener.request(refused.requestId)?.status).toBe(400);
    expect(current.listener.request(refused.requestId)?.bodyProblem).toMatch(/not JSON/);
    await stillServes(current);
  });

  it('a huge body declared up front: 413 without reading it, and a record', async () => {
    current = await startTestListener({ settings: { maxBodyBytes: 1024 } });
    const answer = await new Promise<{ status: number; requestId: number }>((resolve, reject) => {
      const outgoing = httpRequest(
        (current?.url ?? '') + '/hook',
        { method: 'POST', agent: false, headers: { 'content-length': 50 * 1024 * 1024 } },
        (response) => {
          response.resume();
          resolve({ status: response.statusCode ?? 0, requestId: Number(response.headers['x-ledgerdesk-request']) });
          outgoing.destroy();
        },
      );
      outgoing.on('error', reject);
      outgoing.write(Buffer.alloc(512, 120));
    });
    expect(answer.status).toBe(413);
    expect(current.listener.request(answer.requestId)).toMatchObject({
      outcome: 'too_large',
      status: 413,
      declaredBytes: 50 * 1024 * 1024,
      bodyProblem: 'body larger than the 1024-byte cap: refused with 413',
    });
    await stillServes(current);
  });

  it('a huge body streamed without a length: 413 at the cap, nothing kept past it', async () => {
    const cap = 64 * 1024;
    current = await startTestListener({ settings: { maxBodyBytes: cap } });
    const chunk = Buffer.alloc(16 * 1024, 97);
    const answer = await new Promise<{ status: number; requestId: number; written: number }>((resolve, reject) => {
      let written = 0;
      let answered = false;
      const outgoing = httpRequest((current?.url ?? '') + '/hook', { method: 'POST', agent: false }, (response) => {
        answered = true;
        response.resume();
        resolve({
          status: response.statusCode ?? 0,
          requestId: Number(response.headers['x-ledgerdesk-request']),
          written,
        });
      });
      outgoing.on('error', (error) => {
        if (!answered) reject(error);
      });
      // Up to 64 MiB, one chunk at a time, until the answer comes: a bounded loop.
      const pump = (): void => {
        while (!answered && written < 64 * 1024 * 1024) {
          written += chunk.length;
          if (!outgoing.write(chunk)) {
            outgoing.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
    expect(answer.status).toBe(413);
    const kept = current.listener.request(answer.requestId);
    expect(kept?.outcome).toBe('too_large');
    expect(kept?.bodyTruncated).toBe(true);
    expect(Buffer.byteLength(kept?.bodyText ?? '')).toBeLessThanOrEqual(cap);
    // Counting stopped at the chunk that crossed the cap: nothing past it was read into memory.
    expect(kept?.bodyBytes).toBeLessThanOrEqual(cap + chunk.length);
    await stillServes(current);
  });

  it('a body that arrives too slowly: 408, and a record of what had arrived', async () => {
    current = await startTestListener({ settings: { bodyTimeoutMs: 150 } });
    const response = await rawExchange(
      current.port,
      `POST /slow HTTP/1.1\r\nHost: 127.0.0.1:${current.port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"event":`,
    );
    expect(response).toMatch(/^HTTP\/1\.1 408 /);
    const [kept] = current.listener.requests({ path: '/slow' });
    expect(kept).toMatchObject({ outcome: 'timeout', status: 408, bodyBytes: 9 });
    expect(kept?.bodyProblem).toMatch(/did not arrive within 150 ms/);
    await stillServes(current);
  });

  it('a sender that gives up mid-body: recorded as client_aborted', async () => {
    current = await startTestListener();
    await new Promise<void>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port: current?.port ?? 0 }, () => {
        socket.write(
          `POST /gone HTTP/1.1\r\nHost: localhost:${current?.port ?? 0}\r\nContent-Length: 100\r\n\r\n{"ev`,
          () => {
            setTimeout(() => {
              socket.destroy();
              resolve();
            }, 20);
          },
        );
      });
    });
    await eventually(() => current?.listener.requests({ path: '/gone' }).length === 1);
    expect(current.listener.requests({ path: '/gone' })[0]).toMatchObject({ outcome: 'client_aborted', status: null });
    await stillServes(current);
  });

  it('odd header encodings: Latin-1 and UTF-8 bytes kept as received, a non-ASCII Authorization is malformed', async () => {
    current = await startTestListener({ basic: { user: 'bank', secret: 's' } });
    const head = Buffer.concat([
      Buffer.from(`POST /odd HTTP/1.1\r\nHost: 127.0.0.1:${current.port}\r\nConnection: close\r\nX-Latin: caf`),
      Buffer.from([0xe9]),
      Buffer.from('\r\nX-Utf8: '),
      Buffer.from('żółw', 'utf8'),
      Buffer.from('\r\nAuthorization: Basic '),
      Buffer.from([0xff, 0xfe, 0x41]),
      Buffer.from('\r\nContent-Length: 2\r\n\r\n{}'),
    ]);
    const response = await rawExchange(current.port, head);
    expect(response).toMatch(/^HTTP\/1\.1 200 /);
    const [summary] = current.listener.requests({ path: '/odd' });
    const kept = current.listener.request(summary?.id ?? 0);
    expect(kept?.verdict).toBe('malformed_header');
    expect(kept?.headers).toContainEqual(['X-Latin', 'caf\u00e9']);
    expect(kept?.headers).toContainEqual(['X-Utf8', Buffer.from('żółw', 'utf8').toString('latin1')]);
    expect(kept?.headers).toContainEqual(['Authorization', 'Basic [redacted]']);
    await stillServes(current);
  });

  it('a header HTTP forbids (a control character): 400, recorded as bad_request', async () => {
    current = await startTestListener();
    const response = await rawExchange(
      current.port,
      `POST /ctl HTTP/1.1\r\nHost: 127.0.0.1:${current.port}\r\nX-Bad: a\u0001b\r\n\r\n`,
    );
    expect(response).toMatch(/^HTTP\/1\.1 400 /);
    await eventually(() => current?.listener.requests({ outcome: 'bad_request' }).length === 1);
    const [kept] = current.listener.requests({ outcome: 'bad_request' });
    expect(kept?.bodyProblem).toMatch(/^not valid HTTP \(HPE_/);
    await stillServes(current);
  });

  it('headers over 16 KiB: 431, recorded', async () => {
    current = await startTestListener();
    const response = await rawExchange(
      current.port,
      `GET /big HTTP/1.1\r\nHost: 127.0.0.1:${current.port}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(response).toMatch(/^HTTP\/1\.1 431 /);
    await eventually(() => current?.listener.requests({ outcome: 'bad_request' }).length === 1);
    await stillServes(current);
  });

  it('a Basic header with no colon, or invalid base64: malformed_header, and 401 when rejecting', async () => {
    current = await startTestListener({ basic: { user: 'bank', secret: 's' }, settings: { rejectUnverified: true } });
    for (const authorization of ['Basic ' + Buffer.from('bank-s').toString('base64'), 'Basic @@@@', 'Basic YQ']) {
      const answer = await postNotification(current.url + '/h', notificationOf('ach_1'), { authorization });
      expect(answer.status, authorization).toBe(401);
      expect(current.listener.request(answer.requestId)?.verdict, authorization).toBe('malformed_header');
    }
    const ok = await postNotification(current.url + '/h', notificationOf('ach_1'), {
      authorization: basicHeader('bank', 's'),
    });
    expect(ok.status).toBe(200);
  });

  it('a flood: every accepted request kept, the bounded parts stay bounded', async () => {
    // A forward target that never answers, so the forward queue would grow without its bound.
    const held = createServer(() => undefined);
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    const heldPort = (held.address() as { port: number }).port;
    current = await startTestListener({
      settings: { forwardTo: `http://127.0.0.1:${heldPort}/hook`, forwardTimeoutMs: 60_000 },
    });
    const total = 6000;
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    const heapBefore = process.memoryUsage().heapUsed;
    let accepted = 0;
    let peakQueue = 0;
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < total) {
        next += 1;
        const answer = await postNotification(
          (current?.url ?? '') + '/flood',
          notificationOf(`ach_${next}`),
          {},
          agent,
        );
        if (answer.status === 200) accepted += 1;
        peakQueue = Math.max(peakQueue, current?.listener.stats().forwardsQueued ?? 0);
      }
    };
    await Promise.all(Array.from({ length: 64 }, worker));
    agent.destroy();
    const stats = current.listener.stats();
    expect(accepted).toBe(total);
    expect(current.listener.count({ path: '/flood', outcome: 'answered' })).toBe(total);
    expect(peakQueue).toBeLessThanOrEqual(1000);
    expect(stats.unsettled).toBe(0);
    expect(stats.eventsWaiting).toBeLessThanOrEqual(10_000);
    // Forwards past the queue's bound are recorded as skipped, not held in memory.
    const skipped = current.database
      .prepare("SELECT COUNT(*) AS count FROM listener_deliveries WHERE error LIKE 'skipped:%'")
      .get() as { count: number };
    expect(skipped.count).toBeGreaterThan(0);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * 1024 * 1024);
    // Closing the handler fails the waiting forwards at once, so the listener can drain and close.
    held.closeAllConnections();
    await new Promise<void>((resolve) => {
      held.close(() => {
        resolve();
      });
    });
  });
});
