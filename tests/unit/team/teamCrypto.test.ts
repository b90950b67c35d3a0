/**
 * Team mode's cryptography without a server: the chain verifier names the first bad event,
 * signatures bind every field of the intent, sealed notes are bound to their event, wrapped team
 * keys open only for their recipient, and two laptops name one bank record identically.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ChainVerifier, fixedSigners } from '../../../src/main/services/team/chainVerifier.ts';
import { generateOfficerKeys, signIntent, verifyIntent } from '../../../src/main/services/team/crypto/officerKeys.ts';
import {
  chainHash,
  intentBytes,
  TEAM_GENESIS,
  type TeamEventRow,
  type TeamIntent,
} from '../../../src/main/services/team/crypto/teamCanonical.ts';
import {
  newTeamKey,
  openInvite,
  sealForInvite,
  sealIdentity,
  TeamKeyring,
  unwrapTeamKey,
  wrapTeamKey,
} from '../../../src/main/services/team/crypto/teamKey.ts';

const alice = generateOfficerKeys();

function chain(length: number): TeamEventRow[] {
  const events: TeamEventRow[] = [];
  let previous: Buffer = TEAM_GENESIS;
  for (let seq = 1; seq <= length; seq += 1) {
    const intent: TeamIntent = {
      id: randomUUID(),
      workspace: 'w',
      kind: 'application',
      ref: `app_${String(seq)}`,
      action: 'propose',
      disposition: 'flagged',
      assignee: null,
      baseVersion: 0,
      keyVersion: null,
      clientAt: '2026-11-26T10:00:00.000Z',
      sealed: null,
    };
    const partial = {
      ...intent,
      seq,
      officer: 'alice',
      at: '2026-11-26T10:00:01.000001Z',
      result: 'ok' as const,
      detail: null,
      newVersion: 1,
      newState: 'flagged',
      signature: signIntent(alice.signPrivate, intentBytes(intent)),
    };
    const hash = chainHash(previous, partial);
    events.push({ ...partial, prevHash: previous, hash });
    previous = hash;
  }
  return events;
}

describe('the chain verifier', () => {
  const keys = new Map([['alice', alice.signPublic]]);

  it('accepts a good chain, across a page boundary (9, 10, 11 in order)', () => {
    const verifier = new ChainVerifier({ seq: 0, hash: TEAM_GENESIS }, fixedSigners(keys));
    for (const event of chain(12)) verifier.accept(event);
    expect(verifier.seq).toBe(12);
  });

  it('names a gap, a broken link, an edited field and a forged signature', () => {
    const events = chain(4);
    const at = (from: number) => {
      const verifier = new ChainVerifier({ seq: 0, hash: TEAM_GENESIS }, fixedSigners(keys));
      for (const event of events.slice(0, from)) verifier.accept(event);
      return verifier;
    };
    expect(() => {
      at(1).accept(events[2] as TeamEventRow);
    }).toThrow(/gap: event 3 of w comes after event 1/);
    expect(() => {
      at(2).accept({ ...(events[2] as TeamEventRow), prevHash: Buffer.alloc(32, 1) });
    }).toThrow(/broken at event 3 of w: it does not follow/);
    expect(() => {
      at(2).accept({ ...(events[2] as TeamEventRow), detail: 'edited' });
    }).toThrow(/broken at event 3 of w: its content does not match/);
    const forged = { ...(events[2] as TeamEventRow), signature: Buffer.alloc(64, 7) };
    forged.hash = chainHash(forged.prevHash, forged);
    expect(() => {
      at(2).accept(forged);
    }).toThrow(/forged at event 3 of w: it is not signed by alice/);
    expect(() => {
      at(2).accept({ ...(events[2] as TeamEventRow), officer: 'mallory' });
    }).toThrow(/not match its hash|not signed/);
  });

  it('verifies a page with its signatures on the thread pool, naming the first bad event in seq order', async () => {
    const events = chain(8);
    const good = new ChainVerifier({ seq: 0, hash: TEAM_GENESIS }, fixedSigners(keys));
    await good.acceptPage(events.slice(0, 5));
    await good.acceptPage(events.slice(5));
    expect(good.seq).toBe(8);
    expect(good.hash.equals(events[7]?.hash ?? Buffer.alloc(0))).toBe(true);

    const forgedAt = (index: number): TeamEventRow => {
      const forged = { ...(events[index] as TeamEventRow), signature: Buffer.alloc(64, 7) };
      return forged;
    };
    // A forged signature (event 3) before an edited event (event 6): the forgery is named.
    const page = [...events];
    const forged = forgedAt(2);
    // Re-chain from the forgery on, so only its signature is wrong.
    let previous = (events[1] as TeamEventRow).hash;
    for (let index = 2; index < page.length; index += 1) {
      const event = index === 2 ? forged : { ...(page[index] as TeamEventRow) };
      event.prevHash = previous;
      event.hash = chainHash(previous, event);
      page[index] = event;
      previous = event.hash;
    }
    page[5] = { ...(page[5] as TeamEventRow), detail: 'edited' };
    const first = new ChainVerifier({ seq: 0, hash: TEAM_GENESIS }, fixedSigners(keys));
    await expect(first.acceptPage(page)).rejects.toThrow(/forged at event 3 of w: it is not signed by alice/);
    expect(first.seq).toBe(0); // nothing of a bad page is taken

    // An edited event (event 2) before a forged one (event 4): the edit is named.
    const second = new ChainVerifier({ seq: 0, hash: TEAM_GENESIS }, fixedSigners(keys));
    const edited = [...events];
    edited[1] = { ...(edited[1] as TeamEventRow), detail: 'edited' };
    edited[3] = forgedAt(3);
    await expect(second.acceptPage(edited)).rejects.toThrow(/broken at event 2 of w: its content does not match/);

    // The caller's own check (an anchor) runs in the chain pass and stops the page.
    const third = new ChainVerifier({ seq: 0, hash: TEAM_GENESIS }, fixedSigners(keys));
    await expect(
      third.acceptPage(events, (event) => {
        if (event.seq === 4) throw new Error('anchor moved at 4');
      }),
    ).rejects.toThrow('anchor moved at 4');
    expect(third.seq).toBe(0);
  });

  it('a signature binds every field of the intent', () => {
    const event = chain(1)[0] as TeamEventRow;
    expect(verifyIntent(alice.signPublic, intentBytes(event), event.signature)).toBe(true);
    for (const change of [
      { disposition: 'cleared' },
      { ref: 'app_2' },
      { baseVersion: 1 },
      { clientAt: '2026-11-26T10:00:00.001Z' },
      { assignee: 'bob' },
      { sealed: Buffer.from([1]) },
    ])
      expect(verifyIntent(alice.signPublic, intentBytes({ ...event, ...change }), event.signature)).toBe(false);
    expect(verifyIntent(generateOfficerKeys().signPublic, intentBytes(event), event.signature)).toBe(false);
  });
});

describe('the team key', () => {
  it('seals a note bound to its event, and opens it only there', () => {
    const keyring = new TeamKeyring(new Map([[1, newTeamKey()]]), 1);
    const identity = sealIdentity('e1', 'w', 'application', 'app_1');
    const sealed = keyring.seal('a private note', identity);
    expect(sealed.toString('latin1')).not.toContain('private');
    expect(keyring.open(sealed, identity, 1)).toBe('a private note');
    expect(() => keyring.open(sealed, sealIdentity('e2', 'w', 'application', 'app_1'), 1)).toThrow(/does not open/);
    expect(() => new TeamKeyring(new Map([[1, newTeamKey()]]), 1).open(sealed, identity, 1)).toThrow(/does not open/);
  });

  it('names a bank record the same on two laptops holding the same team key, differently for another team', () => {
    const key = newTeamKey();
    const laptopA = new TeamKeyring(new Map([[1, key]]), 1);
    const laptopB = new TeamKeyring(
      new Map([
        [1, Buffer.from(key)],
        [2, newTeamKey()],
      ]),
      2,
    );
    const record = 'pending transaction: acct_1: 2026-11-26T10:00:00Z 12.34 ACH Rent';
    expect(laptopA.itemDigest(record)).toBe(laptopB.itemDigest(record));
    expect(new TeamKeyring(new Map([[1, newTeamKey()]]), 1).itemDigest(record)).not.toBe(laptopA.itemDigest(record));
  });

  it('wraps the team key for one officer only, and seals it in an invite for its secret only', () => {
    const key = newTeamKey();
    const bob = generateOfficerKeys();
    const wrapped = wrapTeamKey(key, bob.boxPublic, 'w', 1, 'bob');
    expect(unwrapTeamKey(wrapped, bob.boxPrivate, bob.boxPublic, 'w', 1, 'bob').equals(key)).toBe(true);
    expect(() => unwrapTeamKey(wrapped, alice.boxPrivate, alice.boxPublic, 'w', 1, 'bob')).toThrow(/does not open/);
    expect(() => unwrapTeamKey(wrapped, bob.boxPrivate, bob.boxPublic, 'w', 2, 'bob')).toThrow(/does not open/);
    const invite = sealForInvite(new Map([[1, key]]), 'one-time-secret-of-at-least-32-characters', 'w', 'bob');
    expect(openInvite(invite, 'one-time-secret-of-at-least-32-characters', 'w', 'bob').get(1)?.equals(key)).toBe(true);
    expect(() => openInvite(invite, 'another-secret-of-at-least-32-characters!', 'w', 'bob')).toThrow(/does not open/);
  });
});
