/**
 * The app's sandbox keeper (common/restartableSandbox.ts) on its own: what it says at each
 * step, that a restart stops the old process before starting the new one, that an exit it
 * caused is not news, and that a start that fails is said and leaves no sandbox behind. The
 * real sandbox process, stopped and restarted, is tests/integration/shell/sandboxRestart.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { RestartableSandbox } from '../../../src/main/app/restartableSandbox.ts';
import type { EmbeddedSandbox } from '../../../src/main/app/embeddedSandbox.ts';

interface FakeProcess {
  sandbox: EmbeddedSandbox;
  stopped: boolean;
  exit(code: number): void;
}

/** A stand-in for one sandbox process: an address, a stop, and an exit the test can cause. */
function fakeProcess(port: number, log: string[]): FakeProcess {
  const exitListeners: ((code: number) => void)[] = [];
  const made: FakeProcess = {
    stopped: false,
    exit: (code) => {
      for (const listener of exitListeners) listener(code);
    },
    sandbox: {
      baseUrl: `http://127.0.0.1:${String(port)}`,
      keyId: 'sandbox',
      keySecret: 'sk_sandbox_secret_value',
      stop: () => {
        log.push(`stop ${String(port)}`);
        made.stopped = true;
        made.exit(0);
        return Promise.resolve();
      },
      onExit: (listener) => {
        exitListeners.push(listener);
      },
    },
  };
  return made;
}

const clock = (): (() => Date) => {
  let tick = Date.UTC(2026, 10, 27, 9, 0, 0);
  return () => new Date((tick += 1000));
};

describe('RestartableSandbox', () => {
  it('starts, says it runs, restarts on a new address after stopping the old one, and tells who listens', async () => {
    const log: string[] = [];
    const processes: FakeProcess[] = [];
    const keeper = new RestartableSandbox({
      now: clock(),
      start: () => {
        const made = fakeProcess(4000 + processes.length, log);
        processes.push(made);
        log.push(`start ${made.sandbox.baseUrl}`);
        return Promise.resolve(made.sandbox);
      },
    });
    expect(keeper.state()).toMatchObject({ running: false, problem: 'Not started yet.' });
    const first = await keeper.start();
    expect(first?.baseUrl).toBe('http://127.0.0.1:4000');
    expect(keeper.state()).toMatchObject({ running: true, baseUrl: 'http://127.0.0.1:4000' });

    const told: string[] = [];
    keeper.onRestart((sandbox) => told.push(sandbox.baseUrl));
    const next = await keeper.restart();
    expect(next.baseUrl).toBe('http://127.0.0.1:4001');
    expect(log).toEqual(['start http://127.0.0.1:4000', 'stop 4000', 'start http://127.0.0.1:4001']);
    expect(told).toEqual(['http://127.0.0.1:4001']);
    // The old process's exit (caused by the restart) does not mark the new one stopped.
    expect(keeper.state()).toMatchObject({ running: true, baseUrl: 'http://127.0.0.1:4001' });
    expect(keeper.current()).toBe(next);
  });

  it('says when the sandbox stopped on its own, and a restart brings it back', async () => {
    const log: string[] = [];
    const processes: FakeProcess[] = [];
    const exits: number[] = [];
    const keeper = new RestartableSandbox({
      now: clock(),
      start: () => {
        const made = fakeProcess(5000 + processes.length, log);
        processes.push(made);
        return Promise.resolve(made.sandbox);
      },
      onUnexpectedExit: (code) => exits.push(code),
    });
    let toldStopped = 0;
    keeper.onStopped(() => (toldStopped += 1));
    await keeper.start();
    processes[0]?.exit(137);
    expect(exits).toEqual([137]);
    expect(toldStopped).toBe(1);
    expect(keeper.current()).toBeNull();
    const state = keeper.state();
    expect(state).toMatchObject({ running: false, problem: 'It stopped on its own (exit code 137).' });
    expect(state.running ? null : state.stoppedAt).not.toBeNull();
    await keeper.restart();
    expect(keeper.state()).toMatchObject({ running: true, baseUrl: 'http://127.0.0.1:5001' });
    expect(exits).toEqual([137]);
    expect(toldStopped).toBe(1);
  });

  it('keeps a start that fails as the problem, throws it from restart, and runs nothing', async () => {
    let fail = true;
    const keeper = new RestartableSandbox({
      now: clock(),
      start: () =>
        fail
          ? Promise.reject(new Error('The embedded sandbox bank could not start: the data file is locked'))
          : Promise.resolve(fakeProcess(6000, []).sandbox),
    });
    expect(await keeper.start()).toBeNull();
    expect(keeper.state()).toMatchObject({
      running: false,
      problem: 'It could not start: The embedded sandbox bank could not start: the data file is locked',
    });
    await expect(keeper.restart()).rejects.toThrow(/the data file is locked/);
    expect(keeper.current()).toBeNull();
    fail = false;
    await keeper.restart();
    expect(keeper.state()).toMatchObject({ running: true, baseUrl: 'http://127.0.0.1:6000' });
  });

  it('shares one restart between two asked at once', async () => {
    let starts = 0;
    const keeper = new RestartableSandbox({
      start: () => {
        starts += 1;
        return Promise.resolve(fakeProcess(7000 + starts, []).sandbox);
      },
    });
    await keeper.start();
    const [a, b] = await Promise.all([keeper.restart(), keeper.restart()]);
    expect(a).toBe(b);
    expect(starts).toBe(2);
  });

  it('after stop (quit), nothing runs and the exit is not reported as unexpected', async () => {
    const exits: number[] = [];
    const made = fakeProcess(8000, []);
    const keeper = new RestartableSandbox({
      start: () => Promise.resolve(made.sandbox),
      onUnexpectedExit: (code) => exits.push(code),
    });
    await keeper.start();
    await keeper.stop();
    expect(made.stopped).toBe(true);
    expect(keeper.current()).toBeNull();
    expect(keeper.state()).toMatchObject({ running: false, problem: 'Stopped.' });
    expect(exits).toEqual([]);
  });
});
