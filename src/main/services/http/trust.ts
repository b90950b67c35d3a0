/**
 * Which certificate authorities a connection trusts: Node's bundled roots, the operating
 * system's trust store (`tls.getCACertificates('system')`: where IT installs an organisation's
 * CA, and where a TLS-inspecting proxy's CA usually is), and, per profile, the CAs of a PEM
 * bundle file. Verification is always on: there is no switch that turns it off; a bank whose
 * certificate none of them vouches for is refused with a sentence that names the certificate.
 */
import { readFileSync, statSync } from 'node:fs';
import { X509Certificate, createHash } from 'node:crypto';
import tls from 'node:tls';
import type { ContractAnswer } from '../../../shared/ipc/contractAnswer.ts';

export class CaBundleProblem extends Error {
  readonly file: string;
  constructor(file: string, message: string) {
    super(message);
    this.name = 'CaBundleProblem';
    this.file = file;
  }

  get answer(): ContractAnswer {
    return { code: 'invalid_input', field: 'caFile' };
  }
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM text, each checked to parse; the subjects, for messages. */
function certificatesOf(text: string, file: string): { pem: string[]; subjects: string[] } {
  const blocks = text.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) {
    throw new CaBundleProblem(
      file,
      `${file} holds no certificate: give a PEM file (text starting with -----BEGIN CERTIFICATE-----), such as the CA certificate your IT department or proxy gives out.`,
    );
  }
  const subjects: string[] = [];
  for (const block of blocks) {
    try {
      subjects.push(new X509Certificate(block).subject.replace(/\n/g, ', '));
    } catch (error) {
      throw new CaBundleProblem(
        file,
        `${file} holds a certificate that cannot be read (${error instanceof Error ? error.message : String(error)}): export it again as PEM.`,
      );
    }
  }
  return { pem: blocks, subjects };
}

/** A CA bundle file, read and checked; throws CaBundleProblem naming the file. */
export function readCaBundle(file: string): { pem: string[]; subjects: string[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CaBundleProblem(
      file,
      code === 'ENOENT'
        ? `The CA bundle ${file} does not exist: give the path of the PEM file, or remove it from the profile.`
        : `The CA bundle ${file} cannot be read (${code ?? String(error)}).`,
    );
  }
  return certificatesOf(text, file);
}

let systemRoots: readonly string[] | null = null;

/** The OS trust store, read once per process (it does not change under a running app often enough to re-read). */
function systemCertificates(): readonly string[] {
  if (systemRoots === null) {
    try {
      systemRoots = tls.getCACertificates('system');
    } catch {
      // A platform without a readable store: Node's bundled roots still apply.
      systemRoots = [];
    }
  }
  return systemRoots;
}

export interface Trust {
  /** Made once per trust: bundled roots, the system's, and the profile's (parsing them per connection would cost each handshake). */
  secureContext: tls.SecureContext;
  /** A short tag that tells trusts apart for connection pooling. */
  key: string;
  /** The profile's CA file, when it has one (for messages). */
  caFile: string | null;
}

function contextOf(extra: readonly string[]): tls.SecureContext {
  return tls.createSecureContext({ ca: [...tls.rootCertificates, ...systemCertificates(), ...extra] });
}

const cached = new Map<string, { stamp: string; trust: Trust }>();

/** The trust for a profile's CA file (null: none), re-read when the file changes. */
export function trustFor(caFile: string | null): Trust {
  if (caFile === null) {
    const key = 'default';
    const hit = cached.get(key);
    if (hit !== undefined) return hit.trust;
    const trust: Trust = { secureContext: contextOf([]), key, caFile: null };
    cached.set(key, { stamp: '', trust });
    return trust;
  }
  let stamp: string;
  try {
    const stat = statSync(caFile);
    stamp = `${String(stat.mtimeMs)}:${String(stat.size)}`;
  } catch {
    stamp = 'missing';
  }
  const hit = cached.get(caFile);
  if (hit !== undefined && hit.stamp === stamp) return hit.trust;
  const bundle = readCaBundle(caFile);
  const key = createHash('sha256').update(bundle.pem.join('\n')).digest('hex').slice(0, 16);
  const trust: Trust = { secureContext: contextOf(bundle.pem), key, caFile };
  cached.set(caFile, { stamp, trust });
  return trust;
}
