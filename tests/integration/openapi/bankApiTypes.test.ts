/**
 * The committed client types (bankApi.ts) are what openapi-typescript makes of the document a
 * sandbox serves now. When the document changes (a schema in src/shared/bank, a route), this
 * fails until they are regenerated, and then `npm run typecheck` judges the typed client code
 * (typedClient.test.ts) against the new types: a type that no longer fits the server fails
 * the build.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BANK_API_TYPES_FILE, bankApiTypesOf, servedDocument } from './bankApiTypes.ts';

describe('the generated client types', () => {
  it('are those of the document the sandbox serves', async () => {
    const generated = await bankApiTypesOf(await servedDocument());
    const committed = readFileSync(BANK_API_TYPES_FILE, 'utf8');
    expect(
      committed,
      'tests/integration/openapi/bankApi.ts is stale: run `node tests/integration/openapi/bankApiTypes.ts`, then `npm run typecheck`',
    ).toBe(generated);
  });

  it('name every operation by its operationId and type its answers', () => {
    const committed = readFileSync(BANK_API_TYPES_FILE, 'utf8');
    for (const operationId of [
      'listPendingTransactions',
      'createDocument',
      'uploadFile',
      'uploadCardArt',
      'getAccountApplication',
      'listWebhookSends',
      'createWebhook',
    ]) {
      // `operations` holds one entry per operationId, and each path's method points at it.
      expect(committed).toMatch(new RegExp(`^  ${operationId}: \\{$`, 'm'));
      expect(committed).toMatch(new RegExp(`(get|post): operations\\['${operationId}'\\];`));
    }
    // Not method names made from paths.
    expect(committed).not.toMatch(/getAccountAccountId|postDocument/);
  });
});
