/**
 * A write is never made twice (issue 14, item 4): a document create whose answer cannot be
 * read (cut short, or not the shape the app reads), or that gets no answer in time, keeps its
 * idempotency key; the next try of the same write sends it again, and the bank answers with
 * the document it made the first time. Against the real sandbox (it implements idempotency),
 * in its default and its lean (real) shapes, through a proxy that spoils the first answer;
 * and against a replay of a lean real answer from a bank of its own.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BankError } from '../../../src/main/services/bank/bankError.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { LedgerServices } from '../../../src/main/services/ledgerServices.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import type { Profile } from '../../../src/main/services/profiles/profile.ts';
import { basicOf, startBank, type RunningSandbox } from './support/sandboxBank.ts';
import { startTamperingProxy, type TamperingProxy } from './support/tamperingProxy.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function servicesAt(
  baseUrl: string,
  key: { keyId: string; keySecret: string },
  options: { responseMs?: number; attempts?: number } = {},
): Promise<{ services: LedgerServices; profile: Profile }> {
  const temp = makeTempFolder();
  cleanups.push(temp.remove);
  const services = await LedgerServices.open({
    dataFolder: temp.folder,
    secretStore: new InMemorySecretStore(),
    profileStorage: new FileProfileStorage(temp.folder),
    retry: {
      baseDelayMs: 5,
      maxDelayMs: 20,
      ...(options.attempts === undefined ? {} : { maxAttempts: options.attempts }),
    },
    ...(options.responseMs === undefined ? {} : { timeouts: { responseMs: options.responseMs } }),
    ping: { firstDelayMs: 20, maxDelayMs: 200 },
  });
  cleanups.push(() => services.close());
  const profile = await services.addProfile(
    { name: 'Bank', baseUrl, authScheme: 'basic', keyId: key.keyId, production: false },
    key.keySecret,
  );
  return { services, profile };
}

async function bankBehindProxy(lean: boolean): Promise<{ sandbox: RunningSandbox; proxy: TamperingProxy }> {
  const sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 5, lean });
  cleanups.push(() => sandbox.close());
  const proxy = await startTamperingProxy(sandbox.baseUrl);
  cleanups.push(() => proxy.close());
  return { sandbox, proxy };
}

/** The documents the bank holds with this name: asked of the bank itself, not through the app. */
async function documentsNamed(sandbox: RunningSandbox, name: string): Promise<string[]> {
  const answer = await fetch(`${sandbox.baseUrl}/document?page_size=1000`, {
    headers: { authorization: basicOf(sandbox) },
  });
  const body = (await answer.json()) as { data: { id: string; name: string }[] };
  return body.data.filter((document) => document.name === name).map((document) => document.id);
}

function documentCreate(sandbox: RunningSandbox, name: string) {
  const [, , , passportScan] = sandbox.demo.files;
  if (passportScan === undefined) throw new Error('no demo scan');
  return { type: 'passport' as const, name, file_id: passportScan, fields: { date_of_birth: '1990-01-31' } };
}

const postsOfDocument = (proxy: TamperingProxy) =>
  proxy.forwarded.filter((entry) => entry.method === 'POST' && entry.path === '/document');

describe('a document create whose answer is not understood, tried twice, leaves one document at the bank', () => {
  for (const lean of [false, true]) {
    const shapes = lean ? 'the lean (real) shapes' : 'its own shapes';

    it(`answer cut short — the sandbox in ${shapes}`, async () => {
      const { sandbox, proxy } = await bankBehindProxy(lean);
      const { services, profile } = await servicesAt(proxy.baseUrl, sandbox);
      const request = documentCreate(sandbox, `Passport cut short (${String(lean)})`);
      // The first answer to the create loses its end on the way.
      proxy.spoil((forwarded, index) =>
        forwarded.path === '/document' && index === proxy.forwarded.findIndex((entry) => entry.path === '/document')
          ? { body: forwarded.answer.slice(0, 40) }
          : null,
      );

      const first = await services.writes.createDocument(profile.id, request).catch((error: unknown) => error);
      expect(first).toBeInstanceOf(BankError);
      const firstError = first as BankError;
      const madeId = firstError.unread?.objectId ?? null;
      expect(madeId, 'the id the cut answer still showed').toMatch(/^doc_/);
      expect(firstError.remedy).toMatch(/Trying again returns that same object/);
      const [entry] = services.cache.audit.list({ profileId: profile.id }).rows;
      expect(entry).toMatchObject({ action: 'document.create', result: 'ok', target: madeId });
      expect(entry?.detail).toMatch(/^created; the answer was not understood \(id doc_/);
      expect(services.unsettledWrites.list(profile.id)).toMatchObject([
        { action: 'document.create', reason: 'unread', objectId: madeId, tries: 1 },
      ]);

      const second = await services.writes.createDocument(profile.id, request);
      expect(second.id).toBe(madeId);
      const [firstPost, secondPost] = postsOfDocument(proxy);
      expect(secondPost?.headers['x-idempotency-key']).toBe(firstPost?.headers['x-idempotency-key']);
      expect(await documentsNamed(sandbox, request.name)).toEqual([madeId]);
      expect(services.unsettledWrites.list(profile.id)).toEqual([]);
      const [retried] = services.cache.audit.list({ profileId: profile.id }).rows;
      expect(retried).toMatchObject({ action: 'document.create', result: 'ok', target: madeId });
      expect(retried?.detail).toMatch(/idempotency key of a try whose answer was not understood/);
      // Kept in the cache once, as the bank answered it the second time.
      expect(services.cache.uploads.documents({ profileId: profile.id }).rows.map((row) => row.id)).toEqual([madeId]);
    });
  }

  it('answer of another shape (no id to read) — the sandbox', async () => {
    const { sandbox, proxy } = await bankBehindProxy(false);
    const { services, profile } = await servicesAt(proxy.baseUrl, sandbox);
    const request = documentCreate(sandbox, 'Passport, answer reshaped');
    let spoiled = false;
    proxy.spoil((forwarded) => {
      if (forwarded.path !== '/document' || spoiled) return null;
      spoiled = true;
      // Valid JSON, but what the bank made is behind a wrapper the app does not know.
      return { body: JSON.stringify({ document: JSON.parse(forwarded.answer) as unknown }) };
    });
    const first = await services.writes.createDocument(profile.id, request).catch((error: unknown) => error);
    expect((first as BankError).kind).toBe('schema-violation');
    expect((first as BankError).unread).toEqual({ status: 200, objectId: null });
    const [entry] = services.cache.audit.list({ profileId: profile.id }).rows;
    expect(entry?.detail).toMatch(/^created; the answer was not understood \(it named no id\): id: /);
    const second = await services.writes.createDocument(profile.id, request);
    expect(await documentsNamed(sandbox, request.name)).toEqual([second.id]);
  });

  it('no answer in time — the sandbox made it, the connection dropped', async () => {
    const { sandbox, proxy } = await bankBehindProxy(false);
    const { services, profile } = await servicesAt(proxy.baseUrl, sandbox, { responseMs: 300, attempts: 1 });
    const request = documentCreate(sandbox, 'Passport, no answer');
    let held = false;
    proxy.spoil((forwarded) => {
      if (forwarded.path !== '/document' || held) return null;
      held = true;
      return { holdMs: 2000 };
    });
    const first = await services.writes.createDocument(profile.id, request).catch((error: unknown) => error);
    expect((first as BankError).kind).toBe('timeout');
    const [entry] = services.cache.audit.list({ profileId: profile.id }).rows;
    expect(entry).toMatchObject({ action: 'document.create', result: 'failed' });
    expect(entry?.detail).toMatch(/The bank may have acted: trying again reuses its idempotency key/);
    expect(await documentsNamed(sandbox, request.name)).toHaveLength(1);
    const second = await services.writes.createDocument(profile.id, request);
    expect(await documentsNamed(sandbox, request.name)).toEqual([second.id]);
  });

  it('a different document is a different write: it gets a key of its own', async () => {
    const { sandbox, proxy } = await bankBehindProxy(false);
    const { services, profile } = await servicesAt(proxy.baseUrl, sandbox);
    let spoiled = false;
    proxy.spoil((forwarded) => {
      if (forwarded.path !== '/document' || spoiled) return null;
      spoiled = true;
      return { body: '{"id":' };
    });
    await services.writes.createDocument(profile.id, documentCreate(sandbox, 'First')).catch(() => undefined);
    await services.writes.createDocument(profile.id, documentCreate(sandbox, 'Second'));
    const [firstPost, secondPost] = postsOfDocument(proxy);
    expect(secondPost?.headers['x-idempotency-key']).not.toBe(firstPost?.headers['x-idempotency-key']);
    expect(services.unsettledWrites.list(profile.id)).toHaveLength(1);
  });
});

describe('a replay of a lean real answer', () => {
  it('a lean document answer cut short, then sent whole to the same key: one document, read with what the bank left out', async () => {
    // The real service's document answer (conventions.md): no bank_id, organization_id or description.
    const made = new Map<string, Record<string, unknown>>();
    const keys: string[] = [];
    const server: Server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const key = String(request.headers['x-idempotency-key'] ?? '');
        keys.push(key);
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        let document = made.get(key);
        const first = document === undefined;
        document ??= {
          id: `doc_lean${String(made.size + 1)}`,
          type: body['type'],
          name: body['name'],
          file_id: body['file_id'],
          fields: body['fields'],
          bankdata: {},
          userdata: {},
          created_at: '2026-01-02T03:04:05Z',
          updated_at: '2026-01-02T03:04:05Z',
        };
        made.set(key, document);
        const text = JSON.stringify(document);
        response.writeHead(200, { 'content-type': 'application/json;charset=utf-8', pragma: 'no-cache', expires: '0' });
        response.end(first ? text.slice(0, text.length - 30) : text);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => {
            resolve();
          });
        }),
    );
    const { port } = server.address() as AddressInfo;
    const { services, profile } = await servicesAt(`http://127.0.0.1:${String(port)}`, {
      keyId: 'key_lean',
      keySecret: 'secret-of-the-lean-bank',
    });
    const request = { type: 'passport' as const, name: 'Lean passport', file_id: 'file_lean1', fields: {} };

    const first = await services.writes.createDocument(profile.id, request).catch((error: unknown) => error);
    expect((first as BankError).kind).toBe('malformed-response');
    expect((first as BankError).unread?.objectId).toBe('doc_lean1');
    const second = await services.writes.createDocument(profile.id, request);

    expect(made.size, 'documents the bank made').toBe(1);
    expect(new Set(keys).size, 'one idempotency key for both tries').toBe(1);
    expect(second.id).toBe('doc_lean1');
    const [cached] = services.cache.uploads.documents({ profileId: profile.id }).rows;
    expect(cached?.id).toBe('doc_lean1');
    expect(cached !== undefined && 'bank_id' in cached).toBe(false);
    expect(cached !== undefined && 'description' in cached).toBe(false);
    const drift = services.drift.report(profile.id).resources.find((resource) => resource.resource === 'document');
    expect(drift?.missing.map((field) => field.field).sort()).toEqual(['bank_id', 'description', 'organization_id']);
  });
});
