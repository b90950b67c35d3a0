/**
 * Certificates made at test time (openssl, into a temp dir): a CA of the test's own, and a
 * server certificate it signed for 127.0.0.1 and localhost. Nothing is committed: each run
 * has fresh keys, and a certificate that expired on disk cannot fail a run months later.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificates {
  folder: string;
  /** The CA's certificate (PEM file): what a client adds to trust the server. */
  caFile: string;
  caPem: string;
  /** The server's certificate and key (PEM files). */
  certFile: string;
  keyFile: string;
  cert: string;
  key: string;
  remove(): void;
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A CA named `caName` and a server certificate for 127.0.0.1, ::1 and localhost signed by it. */
export function makeCertificates(caName = 'Ledgerdesk Test CA'): TestCertificates {
  const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-certs-'));
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      `/CN=${caName}/O=Ledgerdesk tests`,
    ],
    folder,
  );
  openssl(
    ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1'],
    folder,
  );
  writeFileSync(
    join(folder, 'server.ext'),
    'subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n',
  );
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.pem',
      '-days',
      '2',
      '-extfile',
      'server.ext',
    ],
    folder,
  );
  const caFile = join(folder, 'ca.pem');
  const certFile = join(folder, 'server.pem');
  const keyFile = join(folder, 'server.key');
  return {
    folder,
    caFile,
    caPem: readFileSync(caFile, 'utf8'),
    certFile,
    keyFile,
    cert: readFileSync(certFile, 'utf8'),
    key: readFileSync(keyFile, 'utf8'),
    remove: () => {
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
