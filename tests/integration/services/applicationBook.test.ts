/**
 * The application book (issue 24) against the real sandbox bank, normal and `--lean`, through a
 * proxy that counts (and, where a test says so, spoils) what the bank answers, with a real
 * cache file and (under scripts/with-keyring.sh) the real Secret Service: every application and
 * every person and business it names, each kept once; a resync with nothing new writes nothing
 * and asks far fewer requests than there are applicants; an applicant the bank does not return
 * is kept and shown as such; a malformed person is kept as received with its problem in the
 * drift ledger; the bank moving an application and changing a person's address is seen by the
 * next resync; clearing the profile's data removes the applicants.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeyringSecretStore } from '../../../src/main/services/credentials/keyringSecretStore.ts';
import { InMemorySecretStore, type SecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { LedgerServices } from '../../../src/main/services/ledgerServices.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import type { Profile } from '../../../src/main/services/profiles/profile.ts';
import type { AccountApplication, PersonApplication } from '../../../src/shared/bank/index.ts';
import { basicOf, simulate, startBank, type RunningSandbox } from './support/sandboxBank.ts';
import { startTamperingProxy, type TamperingProxy } from './support/tamperingProxy.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';

let sandbox: RunningSandbox;
let proxy: TamperingProxy;
let temp: { folder: string; remove: () => void };
let secrets: SecretStore;
let services: LedgerServices;
let profile: Profile;

async function open(lean: boolean): Promise<void> {
  sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 10, lean });
  proxy = await startTamperingProxy(sandbox.baseUrl);
  temp = makeTempFolder();
  secrets = secretServiceHere ? new KeyringSecretStore() : new InMemorySecretStore();
  const folder = join(temp.folder, 'data');
  services = await LedgerServices.open({
    dataFolder: folder,
    secretStore: secrets,
    profileStorage: new FileProfileStorage(folder),
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    syncParallelism: 3,
  });
  profile = await services.addProfile(
    { name: 'Sandbox', baseUrl: proxy.baseUrl, authScheme: 'basic', keyId: sandbox.keyId, production: false },
    sandbox.keySecret,
  );
}

afterEach(async () => {
  await services.close();
  await proxy.close();
  await sandbox.close();
  temp.remove();
});

async function bank<Answer>(method: string, path: string, body?: unknown): Promise<Answer> {
  const answer = await fetch(sandbox.baseUrl + path, {
    method,
    headers: { authorization: basicOf(sandbox), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  if (answer.status !== 200) throw new Error(`${method} ${path}: ${String(answer.status)} ${text}`);
  return JSON.parse(text) as Answer;
}

async function bankList<Item>(path: string): Promise<Item[]> {
  return (await bank<{ data: Item[] }>('GET', `${path}?page_size=1000`)).data;
}

async function syncBook(extra: { status?: 'manual_review' } = {}) {
  const outcome = await services.sync.start({ kind: 'applications', profileId: profile.id, ...extra }).done;
  expect(outcome.error ?? null).toBeNull();
  expect(outcome.state).toBe('done');
  return outcome;
}

function namedIds(applications: readonly AccountApplication[]): Set<string> {
  return new Set(
    applications.flatMap((application) => [
      application.primary_person_application_id,
      ...(application.person_applications ?? []).map((person) => person.id),
      ...(application.business_application_id === null ? [] : [application.business_application_id]),
    ]),
  );
}

describe.each([{ lean: false }, { lean: true }])('the application book (lean: $lean)', ({ lean }) => {
  beforeEach(async () => {
    await open(lean);
  });

  it('syncs every application and every applicant it names, each once, and a resync writes nothing', async () => {
    const applications = await bankList<AccountApplication>('/apply/account_application');
    const named = namedIds(applications);
    const first = await syncBook();
    expect(first.written).toBeGreaterThan(0);
    const cached = services.cache.accountApplications.list({ profileId: profile.id, withTotal: true, limit: 500 });
    expect(cached.total).toBe(applications.length);
    expect(services.cache.applicants.count(profile.id)).toBe(named.size);
    for (const id of named) {
      const applicant = services.cache.applicants.get(profile.id, id);
      expect(applicant?.state, id).toBe('received');
      expect(applicant?.record?.['id']).toBe(id);
    }
    // A person named by several applications is one applicant with a link to each.
    const counts = new Map<string, string[]>();
    for (const application of applications) {
      for (const id of namedIds([application])) counts.set(id, [...(counts.get(id) ?? []), application.id]);
    }
    for (const [id, naming] of counts) {
      expect(
        services.cache.applicants
          .get(profile.id, id)
          ?.applications.map((link) => link.applicationId)
          .sort(),
      ).toEqual([...naming].sort());
    }
    // Persons' records carry their documents in full; --lean leaves them out.
    const person = [...named].find((id) => id.startsWith('apsn_')) ?? '';
    const record = services.cache.applicants.get(profile.id, person)?.record ?? {};
    expect('document_ids' in record).toBe(!lean);

    proxy.forwarded.length = 0;
    const again = await syncBook();
    expect(again.written).toBe(0);
    const asked = proxy.forwarded.filter((entry) => entry.method === 'GET');
    // Pages of the three lists (and the walks' probes), never one request per applicant.
    expect(asked.every((entry) => !/\/apply\/(person|business)_application\/[^?]/.test(entry.path))).toBe(true);
    expect(asked.length).toBeLessThan(named.size);
  });

  it('keeps an applicant the bank does not return, and shows it as not returned, without dropping the application', async () => {
    const [person] = sandbox.demo.personApplications;
    const created = await bank<AccountApplication>('POST', '/apply/account_application', {
      primary_person_application_id: person,
      account_product_id: 'apt_11ha1payax7044',
      business_application_id: 'abus_ghost00000001',
    });
    await syncBook();
    expect(services.cache.accountApplications.get(profile.id, created.id)).not.toBeNull();
    const ghost = services.cache.applicants.get(profile.id, 'abus_ghost00000001');
    expect(ghost).toMatchObject({ state: 'not-returned', record: null, kind: 'business' });
    expect(ghost?.applications.map((link) => link.applicationId)).toEqual([created.id]);
    const named = services.cache.applicants.ofApplication(profile.id, created.id);
    expect(named.map((entry) => [entry.kind, entry.applicant?.state])).toEqual([
      ['person', 'received'],
      ['business', 'not-returned'],
    ]);
    // Asked once in that run, and once again in the next (it may come back), not more.
    proxy.forwarded.length = 0;
    await syncBook();
    expect(
      proxy.forwarded.filter((entry) => entry.path.startsWith('/apply/business_application/abus_ghost')),
    ).toHaveLength(1);
  });

  it('keeps a malformed person as received, names the problem in the drift ledger, and syncs the rest', async () => {
    const [target] = await bankList<PersonApplication>('/apply/person_application');
    proxy.spoil((forwarded) => {
      if (!forwarded.path.startsWith('/apply/person_application?')) return null;
      const body = JSON.parse(forwarded.answer) as { data: Record<string, unknown>[] };
      body.data = body.data.map((entry) =>
        entry['id'] === target?.id ? { ...entry, date_of_birth: '18/05/1997' } : entry,
      );
      return { body: JSON.stringify(body) };
    });
    await syncBook();
    const kept = services.cache.applicants.get(profile.id, target?.id ?? '');
    expect(kept?.state).toBe('malformed');
    expect(kept?.record?.['date_of_birth']).toBe('18/05/1997');
    expect(kept?.problems.join(' ')).toMatch(/date_of_birth/);
    expect(kept?.problems.join(' ')).not.toContain('18/05/1997');
    const drift = services.drift.report(profile.id);
    const person = drift.resources.find((resource) => resource.resource === 'person_application');
    // Named by field, counted per record read (the walk's probes read records too).
    expect(person?.malformed.map((entry) => entry.field)).toEqual(['date_of_birth']);
    expect(person?.malformed[0]?.count).toBeGreaterThanOrEqual(1);
    expect(
      services.cache.applicants
        .list({ profileId: profile.id, limit: 500 })
        .filter((entry) => entry.state === 'received').length,
    ).toBeGreaterThan(0);
  });

  it('sees the bank move an application and change a person address on the next resync, with the history kept', async () => {
    await syncBook();
    const applications = await bankList<AccountApplication>('/apply/account_application');
    const submitted = applications.find((entry) => entry.status === 'submitted' && entry.ownership_type !== 'business');
    expect(submitted).toBeDefined();
    for (const status of ['kyc', 'manual_review']) {
      await simulate(sandbox, 'account_application.update_status', {
        account_application_id: submitted?.id,
        status,
      });
    }
    // A person named by an application that did not move changes address.
    const unmoved = applications.find((entry) => entry.id !== submitted?.id && entry.ownership_type !== 'business');
    const person = unmoved?.primary_person_application_id ?? '';
    const address = { street_line_1: '7 New Road', city: 'Arlington', state: 'VA', postal_code: '22201' };
    await simulate(sandbox, 'person_application.update', { person_application_id: person, physical_address: address });
    const before = services.cache.accountApplications.history(profile.id, submitted?.id ?? '').rows.length;
    const again = await syncBook();
    expect(again.written).toBe(2);
    const history = services.cache.accountApplications.history(profile.id, submitted?.id ?? '');
    expect(history.rows.length).toBe(before + 1);
    expect(history.rows.at(-1)?.status).toBe('manual_review');
    expect(services.cache.applicants.get(profile.id, person)?.record?.['physical_address']).toEqual(address);
  });

  it('finds applications and applicants by an applicant name and email, and clearing the profile removes them', async () => {
    await syncBook();
    const [someone] = await bankList<PersonApplication>('/apply/person_application');
    const name = `${someone?.first_name ?? ''} ${someone?.last_name ?? ''}`;
    const found = services.cache.applicants.list({ profileId: profile.id, search: name });
    expect(found.map((entry) => entry.applicantId)).toContain(someone?.id);
    for (const entry of found) {
      expect(entry.record?.['last_name']).toBe(someone?.last_name);
    }
    expect(
      services.cache.applicants
        .list({ profileId: profile.id, search: someone?.email_address ?? '' })
        .map((entry) => entry.applicantId),
    ).toContain(someone?.id);
    const byName = services.cache.accountApplications.list({ profileId: profile.id, search: name, limit: 500 });
    expect(byName.rows.length).toBeGreaterThan(0);
    expect(services.cache.applicants.list({ profileId: profile.id, search: 'nobody-by-this-name' })).toEqual([]);
    await services.clearCachedData(profile.id);
    expect(services.cache.applicants.count(profile.id)).toBe(0);
    expect(services.cache.applicants.list({ profileId: profile.id, search: name })).toEqual([]);
  });
});
