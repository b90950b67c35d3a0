/** Starts web mode's sandbox process (sandboxChild.ts) as a Node child with an IPC pipe. */
import { fork } from 'node:child_process';
import { getCompileCacheDir } from 'node:module';
import type { SandboxChild } from '../app/embeddedSandbox.ts';
import { sandboxChildFile } from './builtFiles.ts';

export function forkSandboxChild(): SandboxChild {
  // The compile cache web mode's launcher turned on (scripts/serve.mjs), for the sandbox's code too.
  const compileCache = getCompileCacheDir();
  const child = fork(sandboxChildFile(), [], {
    env: compileCache === undefined ? process.env : { ...process.env, NODE_COMPILE_CACHE: compileCache },
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
