/**
 * The signed and chained bytes of a team event must never change under a refactor: a fixture
 * event, its signature and its hashes computed by an earlier build are pinned here. The laptop's
 * insert and the canonical encoding share one ordered field list (EVENT_FIELDS); this checks the
 * list still encodes the bytes that build signed and chained, and names every column once.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { privateKeyOfText, signIntent, verifyIntent } from '../../../src/main/services/team/crypto/officerKeys.ts';
import {
  chainHash,
  EVENT_FIELDS,
  eventBytes,
  intentBytes,
  type TeamEventRow,
} from '../../../src/main/services/team/crypto/teamCanonical.ts';
import { TEAM_MIGRATIONS } from '../../../src/main/services/team/server/teamSchemaSql.ts';

// Made once by an earlier build (before EVENT_FIELDS): a test key, and what it signed.
const FIXTURE_KEY = 'MC4CAQAwBQYDK2VwBCIEIJsnZghSd0JuPHSkaBRXZBk487fUnR1CPtq2tYvAARKH';
const FIXTURE_PUBLIC = '9b361815946996acaa6878c43f902cf973a8f9066fd3c70e33e7b44bf8cf2405';
const FIXTURE_SIGNATURE =
  'a3e193cd4b50ab366f98e37c577fad99ca859c899664af6420d0ec1638df0e1067e5fd5915a4626cbf3b448d2f630354135b65688b40d8177f97820c1cb7bb03';
const EVENT_DIGEST = '0ab75bc4823e100516fb5f34e425820ac2e5f0917a0c853ced69d532332e7ddc';
const CHAIN_HASH = '703813d9f3e4b53e81a2263b0472e19a29e8a2cf783870c219d9846ed0c16a24';
const INTENT_DIGEST = '8e0aa25a3e122685ddd5aefe90d6c0417b4e3053603aef0a5bb5b98f58a58673';

const intent = {
  id: '3f0c1b9e-8a4d-4c2b-9f1e-5d6a7b8c9d0e',
  workspace: 'acme-compliance',
  kind: 'application',
  ref: 'app_123',
  action: 'propose',
  disposition: 'closed',
  assignee: null,
  baseVersion: 2,
  keyVersion: 1,
  clientAt: '2026-11-26T10:00:00.000Z',
  sealed: new Uint8Array([1, 2, 3, 250]),
};
const event: Omit<TeamEventRow, 'prevHash' | 'hash'> = {
  ...intent,
  seq: 7,
  officer: 'alice',
  at: '2026-11-26T10:00:01.000001Z',
  result: 'ok',
  detail: null,
  newVersion: 3,
  newState: 'proposed',
  signature: new Uint8Array(64).fill(7),
};

describe('the canonical bytes of a team event', () => {
  it('still verify the fixture signature an earlier build made', () => {
    const signature = Buffer.from(FIXTURE_SIGNATURE, 'hex');
    expect(createHash('sha256').update(intentBytes(intent)).digest('hex')).toBe(INTENT_DIGEST);
    expect(verifyIntent(Buffer.from(FIXTURE_PUBLIC, 'hex'), intentBytes(intent), signature)).toBe(true);
    // Ed25519 is deterministic: the same key signs the same bytes identically.
    expect(signIntent(privateKeyOfText(FIXTURE_KEY), intentBytes(intent)).toString('hex')).toBe(FIXTURE_SIGNATURE);
    expect(
      verifyIntent(Buffer.from(FIXTURE_PUBLIC, 'hex'), intentBytes({ ...intent, ref: 'app_124' }), signature),
    ).toBe(false);
  });

  it('still encode and chain the fixture event as an earlier build did', () => {
    expect(createHash('sha256').update(eventBytes(event)).digest('hex')).toBe(EVENT_DIGEST);
    expect(chainHash(Buffer.alloc(32, 9), event).toString('hex')).toBe(CHAIN_HASH);
    expect(
      createHash('sha256')
        .update(eventBytes({ ...event, seq: 8 }))
        .digest('hex'),
    ).not.toBe(EVENT_DIGEST);
  });

  it('names each field and each column once, in the server’s order', () => {
    const fields = EVENT_FIELDS.map(([field]) => field);
    const columns = EVENT_FIELDS.map(([, column]) => column);
    expect(new Set(fields).size).toBe(fields.length);
    // The server's team.canonical() (team migration 1, made PL/pgSQL by migration 3) reads the
    // columns in this order too.
    const first = TEAM_MIGRATIONS[0]?.sql ?? '';
    const third = TEAM_MIGRATIONS[2]?.sql ?? '';
    for (const canonical of [
      first.slice(first.indexOf('CREATE FUNCTION team.canonical'), first.indexOf('CREATE FUNCTION team.is_member')),
      third.slice(
        third.indexOf('CREATE OR REPLACE FUNCTION team.canonical'),
        third.indexOf('CREATE OR REPLACE FUNCTION team.push'),
      ),
    ]) {
      expect(canonical).toContain('team.canonical');
      expect([...canonical.matchAll(/\be\.([a-z_]+)/g)].map((match) => match[1])).toEqual(columns);
    }
    expect(columns).toEqual([
      'workspace',
      'seq',
      'event_id',
      'officer',
      'at',
      'client_at',
      'kind',
      'ref',
      'action',
      'disposition',
      'assignee',
      'base_version',
      'key_version',
      'result',
      'detail',
      'new_version',
      'new_state',
      'sealed',
      'signature',
    ]);
  });
});
