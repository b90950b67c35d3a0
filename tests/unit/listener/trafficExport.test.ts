/** Exports as JSONL and cURL: faithful, and never carrying a secret. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlOf, exportLines, shellQuote } from '../../../src/main/services/listener/trafficExport.ts';
import type { ReceivedRequest } from '../../../src/main/services/listener/receivedRequest.ts';

const request: ReceivedRequest = {
  id: 7,
  receivedAt: '2026-01-02T03:04:05.678Z',
  method: 'POST',
  path: '/hooks/a',
  query: 'x=1',
  remoteAddress: '127.0.0.1',
  headers: [
    ['Host', '127.0.0.1:4880'],
    ['Content-Type', 'application/json'],
    ['Authorization', 'Basic [redacted]'],
    ['X-Odd', 'it\'s "quoted" $HOME `x`'],
  ],
  bodyText: '{"event":"ach.update","op":"update","id":"ach_1","url":"http://b/ach/ach_1","note":"it\'s"}',
  bodyBase64: null,
  bodyBytes: 80,
  declaredBytes: 80,
  bodyTruncated: false,
  bodyProblem: null,
  notification: null,
  event: 'ach.update',
  objectId: 'ach_1',
  op: 'update',
  verdict: 'ok',
  presentedUser: 'bank',
  outcome: 'answered',
  status: 200,
  ruleId: null,
  durationMs: 1,
  occurrence: 1,
  outOfOrder: false,
  snapshot: null,
  snapshotAt: null,
  snapshotError: null,
};

describe('shellQuote', () => {
  it('survives a round trip through sh for awkward text', () => {
    const text = `a'b"c $HOME \`id\` \\ \n end`;
    expect(execFileSync('sh', ['-c', `printf %s ${shellQuote(text)}`]).toString()).toBe(text);
  });
});

describe('curlOf', () => {
  it('re-sends method, path, query, headers and body, with the secret read from the environment', () => {
    const command = curlOf(request, 'http://127.0.0.1:9999/');
    expect(command).toContain(`'POST' 'http://127.0.0.1:9999/hooks/a?x=1'`);
    expect(command).toContain(`-H 'Content-Type: application/json'`);
    expect(command).not.toMatch(/Host:/);
    expect(command).not.toMatch(/redacted/);
    expect(command).toContain(`-u 'bank:'"$LEDGERDESK_BASIC_SECRET"`);
    expect(command.split('\n')[0]).toMatch(/^# request 7/);
  });

  it('decodes a binary body in the shell', () => {
    const binary = { ...request, bodyText: null, bodyBase64: Buffer.from([0xff, 0x00, 0x01]).toString('base64') };
    expect(curlOf(binary, 'http://h')).toMatch(/printf %s '\/wAB' \| base64 -d \| curl .* --data-binary @-/);
  });
});

describe('exportLines', () => {
  it('writes one JSON object per line', () => {
    const lines = [...exportLines([request, { ...request, id: 8 }], 'jsonl', 'http://h')];
    expect(lines).toHaveLength(2);
    expect(lines.map((line) => (JSON.parse(line) as { id: number }).id)).toEqual([7, 8]);
    expect(lines.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
  });
});
