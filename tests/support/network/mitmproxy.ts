/**
 * A real TLS-inspecting proxy for tests, as a corporate one behaves: Debian's mitmdump, on a
 * free 127.0.0.1 port, with a confdir of its own where it makes its CA on first start
 * (`mitmproxy-ca-cert.pem`). It trusts the test's own CA upstream, so it can reach the HTTPS
 * sandbox; a client that does not trust mitmproxy's CA fails the handshake.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, untilListening } from './freePort.ts';

export const MITMDUMP = '/usr/bin/mitmdump';

export interface RunningMitmproxy {
  port: number;
  url: string;
  /** mitmproxy's CA certificate (PEM file), made at its first start. */
  caFile: string;
  stop(): Promise<void>;
}

export async function startMitmproxy(options: { upstreamCaFile: string }): Promise<RunningMitmproxy> {
  if (!existsSync(MITMDUMP)) throw new Error(`${MITMDUMP} is missing: apt-get install mitmproxy (.ci/run does).`);
  const confdir = mkdtempSync(join(tmpdir(), 'ledgerdesk-mitmproxy-'));
  const port = await freePort();
  const child: ChildProcess = spawn(
    MITMDUMP,
    [
      '--listen-host',
      '127.0.0.1',
      '-p',
      String(port),
      '--set',
      `confdir=${confdir}`,
      '--set',
      `ssl_verify_upstream_trusted_ca=${options.upstreamCaFile}`,
      '-q',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let exited = false;
  let said = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (said += chunk));
  child.once('exit', () => {
    exited = true;
  });
  try {
    await untilListening(port, 'mitmdump', 600, () => exited);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(confdir, { recursive: true, force: true });
    throw new Error(`${error instanceof Error ? error.message : String(error)}: ${said}`, { cause: error });
  }
  return {
    port,
    url: `http://127.0.0.1:${String(port)}`,
    caFile: join(confdir, 'mitmproxy-ca-cert.pem'),
    stop: async () => {
      if (!exited) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(confdir, { recursive: true, force: true });
    },
  };
}
