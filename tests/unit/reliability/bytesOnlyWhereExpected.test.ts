/**
 * Found by the IPC fuzzing benchmark: an empty Uint8Array passed for the whole input (or for
 * a nested object whose fields are all optional) was read by the schema library as `{}` and
 * reached the handler — `profiles.list`, `listener.countRequests`, `exports.auditLog`, a
 * replay `filter`. Bytes are now accepted only in a field named `bytes` (files.upload).
 */
import { describe, expect, it, vi } from 'vitest';
import { inspectUntrustedInput } from '../../../src/main/ipc/untrustedInput.ts';
import { routerWith, trustedSender } from '../ipc/fixtures.ts';

describe('bytes only where the contract takes bytes', () => {
  it.each([
    ['the whole input', 'profiles.list', new Uint8Array(0)],
    ['the whole input, as a Buffer', 'listener.countRequests', Buffer.alloc(0)],
    ['a nested object of optional fields', 'listener.configure', { retention: new Uint8Array(0) }],
    ['a replay filter', 'listener.replay', { filter: new Uint8Array(0), targetUrl: 'http://127.0.0.1:9/' }],
    ['bytes inside an array', 'listener.replay', { requestIds: [new Uint8Array(1)], targetUrl: 'http://127.0.0.1:9/' }],
  ])('refuses an empty or stray Uint8Array as %s', async (_name, channel, input) => {
    const handler = vi.fn(() => ({}));
    const [domain = '', method = ''] = channel.split('.');
    const { router } = routerWith({ [domain]: { [method]: handler } });
    const answer = await router.dispatch(trustedSender, channel, input);
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(handler).not.toHaveBeenCalled();
  });

  it('still takes bytes in the field named bytes', () => {
    expect(inspectUntrustedInput({ profileId: 'p', contentType: 'image/png', bytes: new Uint8Array(8) })).toBeNull();
    expect(inspectUntrustedInput({ request: { bytes: new Uint8Array(8) } })).toBeNull();
    expect(inspectUntrustedInput({ other: new Uint8Array(8) })).toEqual({
      field: 'other',
      problem: 'must not be bytes (bytes go only in a field named bytes)',
    });
  });
});
