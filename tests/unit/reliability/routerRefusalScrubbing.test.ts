/**
 * Found by the secret hygiene run: a call to an unknown channel, or from a page that is not
 * ours, put the caller's channel name or address into main's log and the answer unscrubbed,
 * so a known secret inside it reached the log file. Both are scrubbed like everything else.
 */
import { describe, expect, it } from 'vitest';
import { routerWith, trustedSender } from '../ipc/fixtures.ts';

const SECRET = 'sk_live_0123456789abcdef';

describe('refusals are scrubbed of known secrets', () => {
  it('in the channel name of an unknown channel', async () => {
    const { router, logged } = routerWith({}, { knownSecrets: () => [SECRET] });
    const answer = await router.dispatch(trustedSender, `x.${SECRET}`, {});
    expect(answer.ok).toBe(false);
    expect(JSON.stringify(answer)).not.toContain(SECRET);
    expect(logged.join('\n')).not.toContain(SECRET);
    expect(logged.join('\n')).toContain('[redacted]');
  });

  it('in the address of a sender that is not ours', async () => {
    const { router, logged } = routerWith({}, { knownSecrets: () => [SECRET] });
    const answer = await router.dispatch(
      { ...trustedSender, frameUrl: `https://${SECRET}.evil.example/` },
      'profiles.list',
      {},
    );
    expect(answer).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(JSON.stringify(answer)).not.toContain(SECRET);
    expect(logged.join('\n')).not.toContain(SECRET);
  });
});
