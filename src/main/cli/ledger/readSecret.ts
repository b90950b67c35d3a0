/**
 * Secrets come from standard input only, never from an argument (arguments show up in `ps`
 * and in shell history). Piped: the whole input, minus one trailing line break. On a
 * terminal: one line, typed without echo.
 */
import type { Readable, Writable } from 'node:stream';

export class SecretInputProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretInputProblem';
  }
}

const MAX_SECRET_BYTES = 16 * 1024;

export interface SecretInput {
  stdin: Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  /** Where the question goes (standard error): only written to. */
  prompt: Pick<Writable, 'write'>;
}

export async function readSecret(input: SecretInput, what: string): Promise<string> {
  const secret = await readOptionalSecret(input, what);
  if (secret === '')
    throw new SecretInputProblem(`No ${what} on standard input: pipe it in, e.g. printf %s "$SECRET" | ledger …`);
  return secret;
}

/** Like readSecret, but nothing given (empty input, or Enter on a terminal) is '' rather than an error. */
export async function readOptionalSecret(input: SecretInput, what: string): Promise<string> {
  const text = input.stdin.isTTY === true ? await readHidden(input, what) : await readAll(input.stdin);
  return text.replace(/\r?\n$/, '');
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > MAX_SECRET_BYTES) throw new SecretInputProblem('Standard input is too long to be a secret.');
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function readHidden(input: SecretInput, what: string): Promise<string> {
  const { stdin, prompt } = input;
  prompt.write(`${what} (not shown): `);
  stdin.setRawMode?.(true);
  stdin.resume();
  try {
    return await new Promise<string>((resolve, reject) => {
      let typed = '';
      const onData = (chunk: Buffer | string): void => {
        for (const character of chunk.toString()) {
          if (character === '\r' || character === '\n') {
            stdin.off('data', onData);
            prompt.write('\n');
            resolve(typed);
            return;
          }
          if (character === '\u0003') {
            stdin.off('data', onData);
            prompt.write('\n');
            reject(new SecretInputProblem('Cancelled.'));
            return;
          }
          if (character === '\u007f' || character === '\b') typed = typed.slice(0, -1);
          else typed += character;
        }
      };
      stdin.on('data', onData);
    });
  } finally {
    stdin.setRawMode?.(false);
    stdin.pause();
  }
}
