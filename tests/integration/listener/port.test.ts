/** Where the listener binds: loopback by default, a remembered port, a clear message when it is taken. */
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ExposureRefusedError, PortTakenError } from '../../../src/main/services/listener/listenAddress.ts';
import { startTestListener, temporaryFolder, type TestListener } from './support.ts';

let current: TestListener | null = null;
const blockers: Server[] = [];
afterEach(async () => {
  await current?.close();
  current = null;
  for (const blocker of blockers.splice(0)) await new Promise((resolve) => blocker.close(resolve));
});

async function occupy(port = 0): Promise<number> {
  const blocker = createServer();
  blockers.push(blocker);
  await new Promise<void>((resolve) => blocker.listen({ host: '127.0.0.1', port, exclusive: true }, resolve));
  return (blocker.address() as { port: number }).port;
}

describe('listening address', () => {
  it('binds loopback and accepts any path', async () => {
    current = await startTestListener();
    expect(current.listener.state).toMatchObject({ running: true, host: '127.0.0.1' });
    expect(current.url).toBe(`http://127.0.0.1:${current.port}`);
  });

  it('says when the port is taken and offers the next free one', async () => {
    const taken = await occupy();
    current = await startTestListener({ start: false });
    const failure = await current.listener.start({ port: taken }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PortTakenError);
    const error = failure as PortTakenError;
    expect(error.port).toBe(taken);
    expect(error.nextFreePort).toBeGreaterThan(taken);
    expect(error.message).toContain(`Port ${taken} on 127.0.0.1 is already in use`);
    expect(error.message).toContain(`--port ${error.nextFreePort}`);
    // The offered port does work.
    const state = await current.listener.start({ port: error.nextFreePort ?? 0 });
    expect(state.port).toBe(error.nextFreePort);
  });

  it('remembers the port across restarts', async () => {
    const temporary = temporaryFolder();
    try {
      const free = await occupy();
      await new Promise((resolve) => blockers.pop()?.close(resolve));
      const first = await startTestListener({ folder: temporary.folder, port: free });
      expect(first.port).toBe(free);
      await first.close();
      current = await startTestListener({ folder: temporary.folder, start: false });
      expect(current.listener.settings.port).toBe(free);
      const state = await current.listener.start();
      expect(state.port).toBe(free);
    } finally {
      await current?.close();
      current = null;
      temporary.remove();
    }
  });

  it('does not remember port 0 (any free port)', async () => {
    current = await startTestListener({ port: 0 });
    expect(current.listener.settings.port).toBeNull();
  });

  it('refuses a non-loopback interface unless opted in, and warns when it is', async () => {
    current = await startTestListener({ start: false });
    await expect(current.listener.start({ host: '0.0.0.0', port: 0 })).rejects.toBeInstanceOf(ExposureRefusedError);
    const state = await current.listener.start({ host: '0.0.0.0', port: 0, allowNonLoopback: true });
    expect(state.running).toBe(true);
    await current.listener.idle();
    const warnings = current.batches.flatMap((batch) => batch.items.filter((item) => item.type === 'warning'));
    expect(warnings).toHaveLength(1);
  });
});
