/**
 * The tolerant reader (response.ts): one rule for every resource. Only an object's id and a
 * list's data are required; a field that is present is still checked; unknown fields are
 * kept; aliases are read under the interface's name; drift is measured by name.
 */
import { describe, expect, it } from 'vitest';
import {
  accountApplicationResponse,
  cardArtFileOf,
  cardProductResponse,
  documentResponse,
  driftOf,
  listResponseOf,
  parseWith,
  pendingTransactionResponse,
  webhookResponse,
  webhookSendResponse,
  fileResponse,
  accountResponse,
  withAliasesResolved,
} from '../../../src/shared/bank/index.ts';
import { samplePendingTransaction } from './sample.ts';

const EVERY_RESOURCE_WITH_AN_ID = [
  ['document', documentResponse],
  ['account application', accountApplicationResponse],
  ['webhook', webhookResponse],
  ['webhook send', webhookSendResponse],
  ['file', fileResponse],
  ['account', accountResponse],
  ['card product', cardProductResponse],
] as const;

describe('response schemas', () => {
  it.each(EVERY_RESOURCE_WITH_AN_ID)(
    'a %s needs only its id; everything else may be missing or null',
    (_, response) => {
      expect(parseWith(response.schema, { id: 'x_1' }).ok).toBe(true);
      const allNull = Object.fromEntries(response.expectedFields.map((name) => [name, null]));
      expect(parseWith(response.schema, { ...allNull, id: 'x_1' }).ok).toBe(true);
      const missing = parseWith(response.schema, {});
      expect(missing.ok).toBe(false);
      if (!missing.ok) expect(missing.problems.join()).toMatch(/^id: /);
    },
  );

  it('a pending transaction (no id of its own) needs nothing, and a present field is still checked by name', () => {
    expect(parseWith(pendingTransactionResponse.schema, {}).ok).toBe(true);
    const wrong = parseWith(pendingTransactionResponse.schema, { ...samplePendingTransaction(), amount: '1.5' });
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.fields).toEqual(['amount']);
  });

  it('keeps unknown fields as sent', () => {
    const parsed = parseWith(documentResponse.schema, { id: 'doc_1', retention: { days: 30 } });
    expect(parsed.ok && parsed.value['retention']).toEqual({ days: 30 });
  });

  it('reads org_id as organization_id and greendot_deposit_id as partner_deposit_id', () => {
    const document = parseWith(documentResponse.schema, { id: 'doc_1', org_id: 'org_9' });
    expect(document.ok && document.value).toEqual({ id: 'doc_1', organization_id: 'org_9' });
    const { partner_deposit_id: _interfaceName, ...real } = samplePendingTransaction();
    const row = parseWith(pendingTransactionResponse.schema, {
      ...real,
      greendot_deposit_id: 'gdep_1',
    });
    expect(row.ok && row.value.partner_deposit_id).toBe('gdep_1');
    expect(row.ok && 'greendot_deposit_id' in row.value).toBe(false);
  });

  it("keeps the interface's name when both names came", () => {
    expect(withAliasesResolved({ org_id: 'a', organization_id: 'b' }, { org_id: 'organization_id' })).toEqual({
      organization_id: 'b',
    });
    expect(withAliasesResolved(['not', 'an', 'object'], { org_id: 'organization_id' })).toEqual([
      'not',
      'an',
      'object',
    ]);
  });

  it('reads the real card product shape and the sandbox one, and finds the art in either', () => {
    const real = {
      created_at: '2021-05-18T23:17:47Z',
      updated_at: '2021-05-18T23:17:47Z',
      card_back_image_file_id: null,
      type: 'physical',
      card_front_image_file_id: 'file_front',
      status: 'active',
      id: 'cdpt_11ga8jrv2hfe90',
      userdata: null,
    };
    const parsedReal = parseWith(cardProductResponse.schema, real);
    if (!parsedReal.ok) throw new Error(parsedReal.problems.join('; '));
    expect(cardArtFileOf(parsedReal.value, 'front')).toBe('file_front');
    expect(cardArtFileOf(parsedReal.value, 'back')).toBeNull();
    expect(cardArtFileOf(parsedReal.value, 'thumbnail')).toBeNull();
    const sandbox = parseWith(cardProductResponse.schema, {
      id: 'cdpt_2',
      name: 'Classic',
      card_art: { front: null, back: 'file_back', thumbnail: 'file_thumb' },
    });
    if (!sandbox.ok) throw new Error(sandbox.problems.join('; '));
    expect(cardArtFileOf(sandbox.value, 'back')).toBe('file_back');
    expect(cardArtFileOf(sandbox.value, 'thumbnail')).toBe('file_thumb');
  });

  it('reads a list with only data, or with total_estimated and no page_next, and refuses one without data', () => {
    const list = listResponseOf(webhookResponse.schema);
    expect(parseWith(list, { data: [] }).ok).toBe(true);
    expect(parseWith(list, { data: [{ id: 'wh_1' }], total_estimated: 10 }).ok).toBe(true);
    const noData = parseWith(list, { total_estimated: 10 });
    expect(noData.ok).toBe(false);
    if (!noData.ok) expect(noData.fields).toEqual(['data']);
    const noId = parseWith(list, { data: [{ url: 'https://x' }] });
    if (!noId.ok) expect(noId.fields).toEqual(['data[0].id']);
    expect(noId.ok).toBe(false);
  });
});

describe('drift', () => {
  it('names the expected fields left out and the unknown fields sent, never values', () => {
    const drift = driftOf(documentResponse, {
      id: 'doc_1',
      type: 'passport',
      name: 'scan.png',
      file_id: 'file_1',
      fields: {},
      bankdata: {},
      userdata: {},
      org_id: 'org_secretish',
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      retention: 'forever',
    });
    expect(drift.missing).toEqual(['bank_id', 'description']);
    expect(drift.unknown).toEqual(['retention']);
    expect(JSON.stringify(drift)).not.toContain('org_secretish');
  });

  it("does not count the sandbox's own extras as missing from a real card product", () => {
    const drift = driftOf(cardProductResponse, {
      id: 'cdpt_1',
      type: 'virtual',
      status: 'active',
      card_front_image_file_id: null,
      card_back_image_file_id: null,
      userdata: null,
      created_at: '2021-05-18T23:17:46Z',
      updated_at: '2021-05-18T23:17:46Z',
    });
    expect(drift).toEqual({ missing: [], unknown: [] });
  });

  it('measures nothing of a body that is not an object', () => {
    expect(driftOf(webhookResponse, null)).toEqual({ missing: [], unknown: [] });
  });
});
