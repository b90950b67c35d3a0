/** The verify walk's encoder writes exactly the canonical bytes the chain is made of (auditChain.ts). */
import { describe, expect, it } from 'vitest';
import {
  CanonicalEncoder,
  canonicalEntryBytes,
  type ChainedFields,
} from '../../../src/main/services/audit/auditChain.ts';

const entries: ChainedFields[] = [
  {
    id: 1,
    profileId: '',
    profileName: '',
    action: 'audit.chain.begin',
    target: '',
    at: '2026-01-01T00:00:00.000Z',
    result: 'ok',
    detail: null,
  },
  {
    id: 42,
    profileId: 'prof_1',
    profileName: 'Compliance EU — Zürich 🏦',
    action: 'review.escalated',
    target: 'pending-transaction:ptx_1',
    at: '2026-01-02T03:04:05.678Z',
    result: 'failed',
    detail: 'PATCH /webhook/{id} (409): the webhook was changed by someone else.',
    actor: 'app instance 123-abc; OS user ana; reviewer #0123456789ab',
  },
  {
    id: 9_007_199_254_740_991,
    profileId: 'p',
    profileName: 'x'.repeat(70_000),
    action: 'a',
    target: '\u0000\uffff',
    at: 't',
    result: 'refused',
    detail: '',
    actor: null,
  },
];

describe('CanonicalEncoder', () => {
  it('writes the same bytes as canonicalEntryBytes, entry after entry in one buffer', () => {
    const encoder = new CanonicalEncoder();
    for (const entry of [...entries, ...entries.slice().reverse()]) {
      const bytes = encoder.encode(
        entry.id,
        entry.profileId,
        entry.profileName,
        entry.action,
        entry.target,
        entry.at,
        entry.result,
        entry.detail,
        entry.actor ?? null,
      );
      expect(Buffer.compare(bytes, canonicalEntryBytes(entry))).toBe(0);
    }
  });
});
