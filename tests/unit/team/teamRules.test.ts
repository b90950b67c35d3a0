/**
 * The team's rules as each laptop runs them (issue 35), without a server: the signed terms of
 * membership events are parsed strictly and a join's proof holds only with its invite's key; who
 * counts as which person for four-eyes; a weaker policy waits for a second lead who is another
 * person; an item's decision and its sentences; and the CLI's sentence for a row altered in the
 * cache file.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RowAltered } from '../../../src/main/services/cache/rowMacs.ts';
import { oneLine } from '../../../src/main/cli/ledger/runLedger.ts';
import { generateOfficerKeys } from '../../../src/main/services/team/crypto/officerKeys.ts';
import type { TeamEventRow } from '../../../src/main/services/team/crypto/teamCanonical.ts';
import { decideItem, NEW_ITEM, type ItemContext } from '../../../src/main/services/team/rules/itemRules.ts';
import {
  inviteKeyOf,
  joinProof,
  joinProofHolds,
  keyText,
  parseTerms,
  termsText,
} from '../../../src/main/services/team/rules/memberTerms.ts';
import { MembershipBroken, TeamMembership } from '../../../src/main/services/team/rules/teamMembership.ts';

const WS = 'unit-team';
let seq = 0;

function event(
  fields: Partial<TeamEventRow> & Pick<TeamEventRow, 'officer' | 'kind' | 'ref' | 'action'>,
): TeamEventRow {
  seq += 1;
  return {
    id: randomUUID(),
    workspace: WS,
    disposition: null,
    assignee: null,
    baseVersion: null,
    keyVersion: null,
    clientAt: '2026-12-01T10:00:00.000Z',
    sealed: null,
    seq,
    at: '2026-12-01T10:00:00.000001Z',
    result: 'ok',
    detail: null,
    newVersion: null,
    newState: null,
    signature: Buffer.alloc(64),
    prevHash: Buffer.alloc(32),
    hash: Buffer.alloc(32, seq),
    ...fields,
  };
}

/** A workspace founded by alice with bob as a founding officer, both joined; a fresh membership. */
function founded(): TeamMembership {
  seq = 0;
  const alice = generateOfficerKeys();
  const bob = generateOfficerKeys();
  const bobSecret = 'b'.repeat(43);
  const membership = new TeamMembership(WS, { keys: new Map(), roles: new Map() });
  const genesis = event({
    officer: 'alice',
    kind: 'workspace',
    ref: WS,
    action: 'genesis',
    disposition: termsText('genesis', {
      v: 1,
      lead: 'alice',
      sign: keyText(alice.signPublic),
      box: keyText(alice.boxPublic),
      rules: ['escalated>cleared', 'escalated>closed', 'flagged>cleared'],
      members: [
        {
          login: 'bob',
          role: 'officer',
          inviteKey: keyText(inviteKeyOf(bobSecret, WS, 'bob').public),
          expires: '2026-12-08T10:00:00.000Z',
        },
      ],
    }),
  });
  membership.decide(genesis);
  const terms = {
    v: 1 as const,
    invite: genesis.id,
    sign: keyText(bob.signPublic),
    box: keyText(bob.boxPublic),
    proof: joinProof(
      inviteKeyOf(bobSecret, WS, 'bob').private,
      WS,
      'bob',
      genesis.id,
      keyText(bob.signPublic),
      keyText(bob.boxPublic),
    ),
  };
  expect(
    membership.decide(
      event({ officer: 'bob', kind: 'member', ref: 'bob', action: 'join', disposition: termsText('join', terms) }),
    ),
  ).toMatchObject({ newState: 'bob' });
  return membership;
}

describe('signed terms', () => {
  it('parse strictly: an unknown field or a wrong type is no terms at all', () => {
    const good = termsText('confirm', { v: 1, sign: keyText(Buffer.alloc(32, 1)) });
    expect(parseTerms('confirm', good)).toEqual({ v: 1, sign: keyText(Buffer.alloc(32, 1)) });
    expect(parseTerms('confirm', good.replace('}', ',"extra":1}'))).toBeNull();
    expect(parseTerms('confirm', '{"v":2,"sign":"x"}')).toBeNull();
    expect(parseTerms('confirm', 'not json')).toBeNull();
    expect(parseTerms('confirm', null)).toBeNull();
  });

  it("a join's proof holds with its invite's key only", () => {
    const keys = generateOfficerKeys();
    const invite = inviteKeyOf('s'.repeat(43), WS, 'dave');
    const terms = {
      v: 1 as const,
      invite: randomUUID(),
      sign: keyText(keys.signPublic),
      box: keyText(keys.boxPublic),
      proof: '',
    };
    terms.proof = joinProof(invite.private, WS, 'dave', terms.invite, terms.sign, terms.box);
    expect(joinProofHolds(keyText(invite.public), WS, 'dave', terms)).toBe(true);
    expect(joinProofHolds(keyText(inviteKeyOf('t'.repeat(43), WS, 'dave').public), WS, 'dave', terms)).toBe(false);
    expect(joinProofHolds(keyText(invite.public), WS, 'dave', { ...terms, sign: keyText(Buffer.alloc(32, 9)) })).toBe(
      false,
    );
    // The same secret gives the same key: the invite file alone carries it.
    expect(inviteKeyOf('s'.repeat(43), WS, 'dave').public.equals(invite.public)).toBe(true);
  });
});

describe('membership and persons', () => {
  it('founding members are people of their own; a later invitee counts as the inviting lead until another person confirms them', () => {
    const membership = founded();
    expect(membership.personOf('bob')).toBe('bob');
    const invite = event({
      officer: 'alice',
      kind: 'member',
      ref: 'alice_two',
      action: 'invite',
      disposition: termsText('invite', {
        v: 1,
        role: 'officer',
        inviteKey: keyText(inviteKeyOf('a'.repeat(43), WS, 'alice_two').public),
        expires: '2026-12-08T10:00:00.000Z',
      }),
    });
    expect(membership.decide(invite)).toMatchObject({ newState: 'alice' });
    expect(membership.personOf('alice_two')).toBe('alice');
    // Only a lead invites.
    expect(() =>
      membership.decide({ ...invite, id: randomUUID(), officer: 'bob', ref: 'mallory', seq: invite.seq + 1 }),
    ).toThrow(MembershipBroken);
  });

  it('the genesis is the first event only, and names its signer as the lead', () => {
    const membership = founded();
    expect(() =>
      membership.decide(event({ officer: 'alice', kind: 'workspace', ref: WS, action: 'genesis', disposition: '{}' })),
    ).toThrow(/founded by its first event only/);
  });

  it('a weaker policy waits; the proposer cannot approve it; a stricter one is in force at once', () => {
    const membership = founded();
    expect(
      membership.decide(event({ officer: 'alice', kind: 'workspace', ref: WS, action: 'policy', disposition: '' })),
    ).toMatchObject({ newState: 'pending' });
    expect(membership.rules).toEqual(['escalated>cleared', 'escalated>closed', 'flagged>cleared']);
    const hash = membership.pendingPolicy?.hash ?? '';
    expect(() =>
      membership.decide(
        event({ officer: 'alice', kind: 'workspace', ref: WS, action: 'policy-approve', disposition: hash }),
      ),
    ).toThrow(/needs a second lead/);
    expect(
      membership.decide(
        event({ officer: 'alice', kind: 'workspace', ref: WS, action: 'policy-reject', disposition: hash }),
      ),
    ).toMatchObject({ newState: 'withdrawn' });
    expect(
      membership.decide(
        event({
          officer: 'alice',
          kind: 'workspace',
          ref: WS,
          action: 'policy',
          disposition: 'escalated>cleared,escalated>closed,flagged>cleared,unreviewed>cleared',
        }),
      ),
    ).toMatchObject({ newState: 'in-force' });
    expect(membership.rules).toContain('unreviewed>cleared');
  });
});

describe('item decisions', () => {
  const context = (persons: Record<string, string> = {}): ItemContext => ({
    workspace: WS,
    rules: new Set(['flagged>cleared']),
    signedMembership: true,
    isLead: (login) => login === 'alice',
    isActiveMember: () => true,
    personOf: (login) => persons[login] ?? login,
  });

  it('a proposal that needs a second officer waits; one by a second login of the same person is refused', () => {
    const flagged = {
      ...NEW_ITEM,
      state: 'flagged',
      version: 1,
      lastAction: 'propose',
      lastBy: 'alice',
      lastDisposition: 'flagged',
    };
    const propose = event({
      officer: 'alice',
      kind: 'application',
      ref: 'a',
      action: 'propose',
      disposition: 'cleared',
      baseVersion: 1,
    });
    expect(decideItem(flagged, propose, context())).toEqual({
      result: 'ok',
      detail: null,
      newState: 'proposed',
      newVersion: 2,
    });
    const proposed = {
      ...flagged,
      state: 'proposed',
      priorState: 'flagged',
      proposedBy: 'alice',
      proposedDisposition: 'cleared',
      version: 2,
      proposalHash: 'ab'.repeat(32),
    };
    const approve = event({
      officer: 'alice_two',
      kind: 'application',
      ref: 'a',
      action: 'approve',
      baseVersion: 2,
      disposition: 'ab'.repeat(32),
    });
    expect(decideItem(proposed, approve, context({ alice_two: 'alice' }))).toEqual({
      result: 'refused',
      detail:
        'four-eyes counts people: alice_two and alice count as one person (alice) until another member confirms them',
      newState: 'proposed',
      newVersion: 2,
    });
    expect(decideItem(proposed, { ...approve, officer: 'bob' }, context())).toMatchObject({
      result: 'ok',
      newState: 'cleared',
      newVersion: 3,
    });
    // The approval names the proposal it answers.
    expect(decideItem(proposed, { ...approve, officer: 'bob', disposition: 'cd'.repeat(32) }, context())).toMatchObject(
      {
        result: 'refused',
        detail: 'the proposal awaiting a second officer is not the one this approve names: review again',
      },
    );
    // An old version is a conflict, in the server's words.
    expect(decideItem(proposed, { ...approve, officer: 'bob', baseVersion: 1 }, context())).toEqual({
      result: 'conflict',
      detail: 'alice proposed flagged on version 2 (you saw version 1): review again',
      newState: 'proposed',
      newVersion: 2,
    });
  });
});

describe('the CLI names a row altered in the cache file', () => {
  it('with what to do, never as an unexpected failure', () => {
    const line = oneLine(new RowAltered('The review of pending-transaction pt_1'));
    expect(line).toBe(
      'The review of pending-transaction pt_1 was changed in the cache file outside Ledgerdesk (it no longer matches its seal), so it is not shown. Run `ledger audit verify` to list every altered row; restore the cache file from a trusted copy.',
    );
    expect(line).not.toContain('unexpected failure');
  });
});
