/** Test helpers: a started sandbox and a tiny fetch wrapper that speaks its auth. */
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../../src/sandbox/index.ts';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

export function basicOf(keyId: string, keySecret: string): string {
  return 'Basic ' + Buffer.from(`${keyId}:${keySecret}`).toString('base64');
}

export interface SandboxClient {
  sandbox: RunningSandbox;
  basic: string;
  call(
    method: string,
    path: string,
    init?: { body?: unknown; headers?: Record<string, string>; raw?: string | Buffer },
  ): Promise<Reply>;
  get(path: string, headers?: Record<string, string>): Promise<Reply>;
}

export async function request(url: string, init: RequestInit): Promise<Reply> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

export function clientOf(sandbox: RunningSandbox): SandboxClient {
  const basic = basicOf(sandbox.keyId, sandbox.keySecret);
  const call: SandboxClient['call'] = (method, path, init = {}) => {
    const headers: Record<string, string> = { authorization: basic, ...init.headers };
    let body: string | Buffer | undefined = init.raw;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    return request(sandbox.baseUrl + path, { method, headers, body });
  };
  return { sandbox, basic, call, get: (path, headers) => call('GET', path, { headers: headers ?? {} }) };
}

export async function startClient(options: SandboxOptions = {}): Promise<SandboxClient> {
  return clientOf(await startSandbox(options));
}

/** Polls `check` every few ms until it returns a value, at most `attempts` times. */
export async function eventually<Value>(
  check: () => Value | undefined | Promise<Value | undefined>,
  what: string,
  attempts = 400,
  pauseMs = 25,
): Promise<Value> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  throw new Error(`Gave up waiting for ${what}.`);
}
