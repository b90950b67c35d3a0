/** The parent's side of the sandbox utility process: start, report, stop cleanly or kill. */
import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { Profiles } from '../../../src/main/services/profiles/profiles.ts';
import { InMemoryProfileStorage } from '../../../src/main/services/profiles/profileStorage.ts';
import {
  embeddedSandboxIsLean,
  startEmbeddedSandbox,
  type SandboxChild,
  type SandboxCommand,
} from '../../../src/main/app/embeddedSandbox.ts';

const KEY = { keyId: 'key_embedded_test', keySecret: 'a-random-secret-from-the-keychain' };

function fakeChild(answer: (command: SandboxCommand, child: EventEmitter) => void) {
  const emitter = new EventEmitter();
  const posted: SandboxCommand[] = [];
  const kill = vi.fn(() => {
    emitter.emit('exit', 1);
    return true;
  });
  const child = {
    postMessage: (command: SandboxCommand) => {
      posted.push(command);
      answer(command, emitter);
    },
    on: (event: string, listener: (value: unknown) => void) => emitter.on(event, listener),
    kill,
  } as unknown as SandboxChild;
  return { child, posted, kill };
}

describe('startEmbeddedSandbox', () => {
  it('starts with the data file, resolves with the address, and stops on request', async () => {
    const { child, posted, kill } = fakeChild((command, emitter) => {
      if (command.type === 'start') {
        queueMicrotask(() =>
          emitter.emit('message', { type: 'ready', baseUrl: 'http://127.0.0.1:5000', keyId: 'k', keySecret: 's' }),
        );
      } else {
        queueMicrotask(() => emitter.emit('message', { type: 'stopped' }));
      }
    });
    const sandbox = await startEmbeddedSandbox({ fork: () => child, dataFile: '/data/sandbox.db', key: KEY });
    expect(sandbox.baseUrl).toBe('http://127.0.0.1:5000');
    await sandbox.stop();
    // The key is the parent's (kept in the keychain): the child is told it, never makes one.
    expect(posted).toEqual([{ type: 'start', dataFile: '/data/sandbox.db', ...KEY, lean: false }, { type: 'stop' }]);
    expect(kill).not.toHaveBeenCalled();
  });

  it("tells the child to answer in the real service's lean shapes when asked", async () => {
    const { child, posted } = fakeChild((command, emitter) => {
      if (command.type === 'start') {
        queueMicrotask(() =>
          emitter.emit('message', { type: 'ready', baseUrl: 'http://127.0.0.1:5001', keyId: 'k', keySecret: 's' }),
        );
      } else {
        queueMicrotask(() => emitter.emit('message', { type: 'stopped' }));
      }
    });
    const sandbox = await startEmbeddedSandbox({ fork: () => child, dataFile: '/d.db', key: KEY, lean: true });
    await sandbox.stop();
    expect(posted[0]).toEqual({ type: 'start', dataFile: '/d.db', ...KEY, lean: true });
  });

  it("reads the embedded sandbox profile's lean setting, and starts full when the settings cannot be read", () => {
    const storage = new InMemoryProfileStorage();
    expect(embeddedSandboxIsLean(storage)).toBe(false);
    new Profiles(storage).update('local-sandbox', { lean: true });
    expect(embeddedSandboxIsLean(storage)).toBe(true);
    expect(
      embeddedSandboxIsLean({
        get: () => {
          throw new Error('unreadable');
        },
        set: () => undefined,
      }),
    ).toBe(false);
  });

  it('rejects with the reason when the sandbox cannot start', async () => {
    const { child } = fakeChild((_command, emitter) => {
      queueMicrotask(() => emitter.emit('message', { type: 'failed', message: 'database is locked' }));
    });
    await expect(startEmbeddedSandbox({ fork: () => child, dataFile: 'x', key: KEY })).rejects.toThrow(
      'database is locked',
    );
  });

  it('ignores malformed messages and gives up after the start timeout', async () => {
    const { child, kill } = fakeChild((_command, emitter) => {
      queueMicrotask(() => emitter.emit('message', { type: 'ready', baseUrl: 42 }));
    });
    await expect(
      startEmbeddedSandbox({ fork: () => child, dataFile: 'x', key: KEY, startTimeoutMs: 20 }),
    ).rejects.toThrow('did not start in time');
    expect(kill).toHaveBeenCalled();
  });

  it('kills a sandbox that does not stop within the grace period', async () => {
    const { child, kill } = fakeChild((command, emitter) => {
      if (command.type === 'start') {
        queueMicrotask(() =>
          emitter.emit('message', { type: 'ready', baseUrl: 'http://127.0.0.1:1', keyId: 'k', keySecret: 's' }),
        );
      }
    });
    const sandbox = await startEmbeddedSandbox({ fork: () => child, dataFile: 'x', key: KEY, stopTimeoutMs: 20 });
    await sandbox.stop();
    expect(kill).toHaveBeenCalled();
  });
});

describe('an embedded sandbox that ends', () => {
  it('reports an exit on its own, but not one it was asked for', async () => {
    const emitters: EventEmitter[] = [];
    const { child } = fakeChild((command, emitter) => {
      emitters.push(emitter);
      if (command.type === 'start') {
        queueMicrotask(() =>
          emitter.emit('message', { type: 'ready', baseUrl: 'http://127.0.0.1:1', keyId: 'k', keySecret: 's' }),
        );
      } else {
        queueMicrotask(() => {
          emitter.emit('message', { type: 'stopped' });
          emitter.emit('exit', 0);
        });
      }
    });
    const sandbox = await startEmbeddedSandbox({ fork: () => child, dataFile: 'x', key: KEY });
    const exits: number[] = [];
    sandbox.onExit((code) => exits.push(code));
    emitters[0]?.emit('exit', 3);
    expect(exits).toEqual([3]);

    const second = await startEmbeddedSandbox({ fork: () => child, dataFile: 'x', key: KEY });
    const secondExits: number[] = [];
    second.onExit((code) => secondExits.push(code));
    await second.stop();
    expect(secondExits).toEqual([]);
  });
});
