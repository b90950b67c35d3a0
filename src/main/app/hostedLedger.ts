/**
 * A `ledger` command sent over the control socket (controlSocket.ts), run in the process that
 * holds the data folder: on its own open services when it has them (the desktop app, web mode,
 * the listener with a bank), with the output caught and given back with the exit code, as if the
 * command had run in the terminal that sent it.
 */
import { Readable, Writable } from 'node:stream';
import type { LedgerServices } from '../services/ledgerServices.ts';
import type { SecretStore } from '../services/credentials/secretStore.ts';
import type { CommandAnswer } from './controlSocket.ts';

function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

export async function runHostedLedger(
  args: readonly string[],
  stdin: string | null,
  host: { services: LedgerServices | null; secretStore: SecretStore | null; env: NodeJS.ProcessEnv },
): Promise<CommandAnswer> {
  // Loaded on the first command only: an app nobody sends a command to never loads the command line.
  const { runLedger } = await import('../cli/ledger/runLedger.ts');
  const stdout = collector();
  const stderr = collector();
  const code = await runLedger(args, {
    stdin: Readable.from(stdin === null ? [] : [Buffer.from(stdin)]),
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: host.env,
    ...(host.secretStore === null ? {} : { secretStore: host.secretStore }),
    hosted: { services: host.services },
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
