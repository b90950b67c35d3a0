/**
 * gzip for the renderer's files when the browser is on another machine (`--expose`): there the
 * bytes cross a network and the 0.5 MB of the first screen's scripts shrink to a third. On
 * loopback (the default) the bytes cost nothing to move and compressing them only costs CPU on
 * the critical path of the first screen, so they go as they are. Each file is compressed once
 * and kept beside the bytes it was made from (a rebuild under a running server is compressed again).
 */
import { isIP } from 'node:net';
import { gzipSync } from 'node:zlib';

/** Worth compressing: text (HTML, scripts, styles, JSON, SVG), and more than a packet of it. */
const COMPRESSIBLE = /^(?:text\/|application\/json|image\/svg\+xml)/;
const SMALLEST = 1024;

/** Whether a request from `remoteAddress` comes from this machine. */
export function isLoopback(remoteAddress: string | undefined): boolean {
  if (remoteAddress === undefined) return false;
  const address = remoteAddress.startsWith('::ffff:') ? remoteAddress.slice('::ffff:'.length) : remoteAddress;
  if (isIP(address) === 4) return address.startsWith('127.');
  return address === '::1';
}

/** Whether the request's Accept-Encoding takes gzip (and does not refuse it with q=0). */
export function acceptsGzip(acceptEncoding: string | string[] | undefined): boolean {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : (acceptEncoding ?? '');
  return header.split(',').some((entry) => {
    const [name, ...parameters] = entry.trim().toLowerCase().split(';');
    if (name !== 'gzip' && name !== '*') return false;
    const quality = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith('q='));
    return quality === undefined || Number(quality.slice(2)) > 0;
  });
}

interface Compressor {
  /** The gzip of `body` (a file at `path` of media type `type`), or null when it goes as it is. */
  gzipOf(path: string, type: string, body: Uint8Array): Uint8Array | null;
}

export function createCompressor(): Compressor {
  const kept = new Map<string, { source: Buffer; gzipped: Uint8Array }>();
  return {
    gzipOf(path, type, body) {
      if (body.byteLength < SMALLEST || !COMPRESSIBLE.test(type)) return null;
      const source = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
      const known = kept.get(path);
      if (known?.source.equals(source) === true) return known.gzipped;
      const gzipped = new Uint8Array(gzipSync(source));
      kept.set(path, { source: Buffer.from(source), gzipped });
      return gzipped;
    },
  };
}
