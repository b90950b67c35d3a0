/** One-time confirmations of Production writes: bound to the channel and the input, spent once, expiring. */
import { describe, expect, it } from 'vitest';
import { CONFIRMATION_LIFETIME_MS, WriteConfirmations, writeDigest } from '../../../src/main/web/writeConfirmations.ts';

const input = { profileId: 'p1', request: { url: 'https://a.example', event: 'ach.create' }, confirmProduction: true };

describe('WriteConfirmations', () => {
  it('lets the exact write through once', () => {
    const confirmations = new WriteConfirmations();
    const issued = confirmations.issue('webhooks.create', input);
    expect(confirmations.redeem(issued, 'webhooks.create', input)).toBe(true);
    expect(confirmations.redeem(issued, 'webhooks.create', input)).toBe(false);
  });

  it('refuses another channel, another input, a made-up confirmation or none', () => {
    const confirmations = new WriteConfirmations();
    expect(confirmations.redeem(confirmations.issue('webhooks.create', input), 'webhooks.delete', input)).toBe(false);
    const other = { ...input, request: { ...input.request, url: 'https://b.example' } };
    expect(confirmations.redeem(confirmations.issue('webhooks.create', input), 'webhooks.create', other)).toBe(false);
    expect(confirmations.redeem('x'.repeat(43), 'webhooks.create', input)).toBe(false);
    expect(confirmations.redeem(null, 'webhooks.create', input)).toBe(false);
  });

  it('spends a confirmation on a wrong try, so the right write cannot follow', () => {
    const confirmations = new WriteConfirmations();
    const issued = confirmations.issue('webhooks.create', input);
    expect(confirmations.redeem(issued, 'webhooks.delete', input)).toBe(false);
    expect(confirmations.redeem(issued, 'webhooks.create', input)).toBe(false);
  });

  it('expires', () => {
    let now = 1_000;
    const confirmations = new WriteConfirmations(() => now);
    const issued = confirmations.issue('webhooks.create', input);
    now += CONFIRMATION_LIFETIME_MS + 1;
    expect(confirmations.redeem(issued, 'webhooks.create', input)).toBe(false);
  });

  it('digests the input whatever its key order, without the page flag', () => {
    const reordered = {
      confirmProduction: true,
      request: { event: 'ach.create', url: 'https://a.example' },
      profileId: 'p1',
    };
    expect(writeDigest('webhooks.create', reordered)).toBe(writeDigest('webhooks.create', input));
    const { confirmProduction: _flag, ...withoutFlag } = input;
    expect(writeDigest('webhooks.create', withoutFlag)).toBe(writeDigest('webhooks.create', input));
  });
});
