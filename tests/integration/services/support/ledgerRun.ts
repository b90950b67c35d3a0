/** Runs `ledger` in this process with captured output, for command-line tests. */
import { Readable, Writable } from 'node:stream';
import { runLedger } from '../../../../src/main/cli/ledger/runLedger.ts';
import type { SecretStore } from '../../../../src/main/services/credentials/secretStore.ts';

export interface LedgerResult {
  code: number;
  stdout: string;
  stderr: string;
}

function collector(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  return {
    stream: new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        chunks.push(chunk.toString());
        done();
      },
    }),
    text: () => chunks.join(''),
  };
}

export async function ledger(argv: string[], secretStore: SecretStore, stdin = ''): Promise<LedgerResult> {
  const stdout = collector();
  const stderr = collector();
  const code = await runLedger(argv, {
    stdin: Readable.from(stdin === '' ? [] : [Buffer.from(stdin)]),
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: {},
    secretStore,
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
