/** Web mode compresses the renderer's text files for a browser on another machine only, each file once. */
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, createCompressor, isLoopback } from '../../../src/main/web/compressedFiles.ts';

const SCRIPT = new TextEncoder().encode('export const rows = [];\n'.repeat(200));

describe('compressedFiles', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.5.0.9', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['192.168.1.20', false],
    ['::ffff:10.0.0.2', false],
    ['fe80::1', false],
    [undefined, false],
  ])('%s is this machine: %s', (address, loopback) => {
    expect(isLoopback(address)).toBe(loopback);
  });

  it.each([
    ['gzip, deflate, br, zstd', true],
    ['br;q=1.0, gzip;q=0.5', true],
    ['*', true],
    ['gzip;q=0', false],
    ['br', false],
    ['', false],
    [undefined, false],
  ])('Accept-Encoding %j takes gzip: %s', (header, takes) => {
    expect(acceptsGzip(header)).toBe(takes);
  });

  it('compresses a script to bytes that give it back, once, and again after it changed', () => {
    const compressor = createCompressor();
    const gzipped = compressor.gzipOf('/assets/index-B5TJy-D5.js', 'text/javascript; charset=utf-8', SCRIPT);
    expect(gzipped).not.toBeNull();
    expect(gzipped?.byteLength).toBeLessThan(SCRIPT.byteLength / 5);
    expect(new Uint8Array(gunzipSync(gzipped ?? new Uint8Array()))).toEqual(SCRIPT);
    // Kept: the same bytes give the very same answer.
    expect(compressor.gzipOf('/assets/index-B5TJy-D5.js', 'text/javascript', SCRIPT)).toBe(gzipped);
    // Rebuilt under the running server: the new bytes are compressed, never the old ones served.
    const rebuilt = new TextEncoder().encode('export const other = 1;\n'.repeat(200));
    const again = compressor.gzipOf('/assets/index-B5TJy-D5.js', 'text/javascript', rebuilt);
    expect(new Uint8Array(gunzipSync(again ?? new Uint8Array()))).toEqual(rebuilt);
  });

  it('leaves small files and binary ones as they are', () => {
    const compressor = createCompressor();
    expect(compressor.gzipOf('/tiny.js', 'text/javascript', new TextEncoder().encode('export {};'))).toBeNull();
    expect(compressor.gzipOf('/pdfjs/cmaps/UniJIS-UTF8-H.bcmap', 'application/octet-stream', SCRIPT)).toBeNull();
    expect(compressor.gzipOf('/pdfjs/standard_fonts/a.ttf', 'font/ttf', SCRIPT)).toBeNull();
  });
});
