/**
 * Issue 37: every outbound call of the main process goes through the one HTTP transport
 * (src/main/services/http), so every call honours the profile's proxy and trust. This fails
 * when a file of src/main outside that folder opens a connection of its own: axios (or another
 * HTTP client), the global fetch, http(s).request/get or an Agent of their own, net/tls connect,
 * a WebSocket client. Servers (createServer, a WebSocketServer) are not outbound and pass.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const MAIN = join(ROOT, 'src', 'main');
const TRANSPORT = join(MAIN, 'services', 'http');

const OUTBOUND: readonly { rule: string; pattern: RegExp }[] = [
  { rule: 'an HTTP client library', pattern: /from\s+['"](axios|undici|node-fetch|got|superagent|request)['"]/ },
  { rule: 'the global fetch', pattern: /(^|[^.#\w])fetch\s*\(/m },
  { rule: 'http(s).request / get', pattern: /\bhttps?\s*\.\s*(request|get)\s*\(/ },
  { rule: 'an http(s) Agent of its own', pattern: /\b(new|extends)\s+(https?\s*\.\s*)?Agent\b/ },
  {
    rule: 'request/get/Agent imported from node:http(s)',
    pattern: /import\s*\{[^}]*\b(request|get|Agent)\b[^}]*\}\s*from\s*['"](node:)?https?['"]/,
  },
  { rule: 'a raw connection', pattern: /\b(net|tls)\s*\.\s*(connect|createConnection)\s*\(/ },
  {
    rule: 'connect imported from node:net/tls',
    pattern: /import\s*\{[^}]*\b(connect|createConnection)\b[^}]*\}\s*from\s*['"](node:)?(net|tls)['"]/,
  },
  { rule: 'a WebSocket client', pattern: /\bnew\s+WebSocket\s*\(/ },
];

/** What a file of src/main does that only the transport may do: one line per finding. */
export function outboundFindings(text: string): string[] {
  // Comments may name what they like.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  return OUTBOUND.flatMap(({ rule, pattern }) => (pattern.test(code) ? [rule] : []));
}

/**
 * Files that connect only to a local socket path, never a host: the control socket a `ledger`
 * command uses to reach the app holding its data folder (issue 34). Each must call
 * `createConnection(path)` with a path and nothing else.
 */
const LOCAL_SOCKET_CLIENTS = new Map([[join(MAIN, 'app', 'controlSocket.ts'), /createConnection\(path\)/]]);

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return path === TRANSPORT ? [] : sourceFiles(path);
    return /\.(ts|mts|mjs|js)$/.test(entry.name) ? [path] : [];
  });
}

describe('one HTTP transport for the main process', () => {
  it('flags each way of calling out on its own (so the check below can fail)', () => {
    expect(outboundFindings("import axios from 'axios';")).toEqual(['an HTTP client library']);
    expect(outboundFindings('const answer = await fetch(url);')).toEqual(['the global fetch']);
    expect(outboundFindings('https.request(url, options)')).toEqual(['http(s).request / get']);
    expect(outboundFindings('http.get(url)')).toEqual(['http(s).request / get']);
    expect(outboundFindings('const agent = new https.Agent({ keepAlive: true });')).toEqual([
      'an http(s) Agent of its own',
    ]);
    expect(outboundFindings("import { request } from 'node:https';")).toEqual([
      'request/get/Agent imported from node:http(s)',
    ]);
    expect(outboundFindings('class Pool extends https.Agent {}')).toEqual(['an http(s) Agent of its own']);
    expect(outboundFindings('tls.connect({ host })')).toEqual(['a raw connection']);
    expect(outboundFindings("import { connect } from 'node:net';")).toEqual(['connect imported from node:net/tls']);
    expect(outboundFindings('const socket = new WebSocket(url);')).toEqual(['a WebSocket client']);
    // Not outbound: servers, a method named fetch, comments.
    expect(outboundFindings("import { createServer } from 'node:http';\nthis.#fetch(url);\n// fetch(x)")).toEqual([]);
  });

  it('is the only thing in src/main that calls out', () => {
    const offenders = sourceFiles(MAIN).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const localCall = LOCAL_SOCKET_CLIENTS.get(file);
      const findings = outboundFindings(text).filter(
        (rule) => !(localCall?.test(text) === true && rule === 'connect imported from node:net/tls'),
      );
      return findings.map((rule) => `${relative(ROOT, file)}: ${rule}`);
    });
    expect(offenders, 'use HttpTransport (src/main/services/http) instead').toEqual([]);
  });
});
