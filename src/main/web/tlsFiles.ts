/**
 * Web mode over TLS (review W3): `--tls-cert` and `--tls-key` name a PEM certificate and its
 * key. Read once at start, with a sentence naming the file that cannot be read; the
 * certificate's names say which address the browser opens (it must be one of them).
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { TlsFiles } from './webServer.ts';

export class TlsFilesUnreadable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TlsFilesUnreadable';
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The certificate and key files, read and checked: a certificate that does not parse is refused here. */
export function readTlsFiles(certFile: string, keyFile: string): TlsFiles {
  let cert: Buffer;
  let key: Buffer;
  try {
    cert = readFileSync(certFile);
  } catch (error) {
    throw new TlsFilesUnreadable(`--tls-cert ${certFile} cannot be read: ${messageOf(error)}`);
  }
  try {
    key = readFileSync(keyFile);
  } catch (error) {
    throw new TlsFilesUnreadable(`--tls-key ${keyFile} cannot be read: ${messageOf(error)}`);
  }
  try {
    new X509Certificate(cert);
  } catch {
    throw new TlsFilesUnreadable(`--tls-cert ${certFile} is not a PEM certificate.`);
  }
  return { cert, key };
}

/** The names a certificate is for (its subjectAltName DNS and IP entries), lower case, no wildcards. */
export function certificateNames(cert: string | Buffer): string[] {
  const alternatives = new X509Certificate(cert).subjectAltName ?? '';
  return alternatives
    .split(',')
    .map((entry) => entry.trim())
    .flatMap((entry) => {
      const [kind, ...rest] = entry.split(':');
      const value = rest.join(':').trim().toLowerCase();
      return (kind === 'DNS' || kind === 'IP Address') && value !== '' && !value.includes('*') ? [value] : [];
    });
}
