/** Starts web mode's sandbox process (sandboxChild.ts) as a Node child with an IPC pipe. */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { SandboxChild } from '../shell/embeddedSandbox.ts';

export function forkSandboxChild(): SandboxChild {
  const child = fork(join(import.meta.dirname, 'sandboxChild.ts'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'json',
  });
  return {
    postMessage: (message) => {
      if (child.connected) child.send(message);
    },
    on: (event: 'message' | 'exit', listener: (value: never) => void) => {
      if (event === 'message') child.on('message', listener as (message: unknown) => void);
      else {
        child.on('exit', (code) => {
          (listener as (code: number) => void)(code ?? 1);
        });
      }
      return child;
    },
    kill: () => child.kill(),
  };
}
