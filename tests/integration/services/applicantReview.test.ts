/**
 * Review covers the applicants (issue 24, item 6), against the real sandbox bank with a real
 * cache file (and, under scripts/with-keyring.sh, the real Secret Service): a reviewed
 * application comes back as changed when a person it names moves, even though the application
 * did not, with a field-by-field diff that shows what moved and never a street line in clear;
 * watch rules flag applications reaching manual_review, naming a person older or younger than
 * an age, or a citizenship outside a list, each exactly the applications the bank's data says.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeyringSecretStore } from '../../../src/main/services/credentials/keyringSecretStore.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { LedgerServices } from '../../../src/main/services/ledgerServices.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import type { Profile } from '../../../src/main/services/profiles/profile.ts';
import type { AccountApplication, PersonApplication } from '../../../src/shared/bank/index.ts';
import { ageOn } from '../../../src/shared/personalData/masking.ts';
import { basicOf, simulate, startBank, type RunningSandbox } from './support/sandboxBank.ts';
import { makeTempFolder } from './support/tempFolder.ts';

let sandbox: RunningSandbox;
let temp: { folder: string; remove: () => void };
let services: LedgerServices;
let profile: Profile;

beforeEach(async () => {
  sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 2 });
  temp = makeTempFolder();
  const folder = join(temp.folder, 'data');
  services = await LedgerServices.open({
    dataFolder: folder,
    secretStore:
      process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1' ? new KeyringSecretStore() : new InMemorySecretStore(),
    profileStorage: new FileProfileStorage(folder),
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    syncParallelism: 3,
  });
  profile = await services.addProfile(
    { name: 'Sandbox', baseUrl: sandbox.baseUrl, authScheme: 'basic', keyId: sandbox.keyId, production: false },
    sandbox.keySecret,
  );
});

afterEach(async () => {
  await services.close();
  await sandbox.close();
  temp.remove();
});

async function bankList<Item>(path: string): Promise<Item[]> {
  const answer = await fetch(`${sandbox.baseUrl}${path}?page_size=1000`, {
    headers: { authorization: basicOf(sandbox) },
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { data: Item[] }).data;
}

async function syncBook(): Promise<void> {
  const outcome = await services.sync.start({ kind: 'applications', profileId: profile.id }).done;
  expect(outcome.error ?? null).toBeNull();
  expect(outcome.state).toBe('done');
}

function flaggedBy(rule: string): string[] {
  const page = services.reviews.list({ profileId: profile.id, kind: 'application', limit: 500 });
  return page.rows
    .filter((row) => row.byRule === rule)
    .map((row) => row.ref)
    .sort();
}

function peopleOf(application: AccountApplication): string[] {
  return [
    application.primary_person_application_id,
    ...(application.person_applications ?? []).map((person) => person.id),
  ].filter((id): id is string => typeof id === 'string');
}

describe('review covers the applicants', () => {
  it('brings a reviewed application back when a person it names moves, with a field-by-field diff kept masked', async () => {
    await syncBook();
    const applications = await bankList<AccountApplication>('/apply/account_application');
    const application = applications.find((entry) => entry.ownership_type === 'personal');
    const ref = application?.id ?? '';
    const person = application?.primary_person_application_id ?? '';
    services.reviews.give({ profileId: profile.id, kind: 'application', refs: [ref], disposition: 'cleared' });
    // A resync with nothing new leaves it reviewed.
    await syncBook();
    expect(services.reviews.table.get(profile.id, 'application', ref)?.state).toBe('cleared');

    const address = { street_line_1: '7 New Road', city: 'Arlington', state: 'VA', postal_code: '22201' };
    await simulate(sandbox, 'person_application.update', { person_application_id: person, physical_address: address });
    await syncBook();
    const review = services.reviews.table.get(profile.id, 'application', ref);
    expect(review?.state).toBe('changed');
    const fields = review?.changes.map((change) => change.field) ?? [];
    expect(fields).toContain(`applicants.${person}.physical_address.city`);
    expect(fields).toContain(`applicants.${person}.personal_data`);
    const city = review?.changes.find((change) => change.field === `applicants.${person}.physical_address.city`);
    expect(city?.after).toBe('"Arlington"');
    // The street line moved too, but is never in the diff in clear.
    expect(JSON.stringify(review?.changes)).not.toContain('7 New Road');
    // The application itself did not move.
    expect(fields.some((field) => field === 'status' || field === 'updated_at')).toBe(false);
  });

  it('flags applications by status, by an applicant age and by citizenship, exactly as the bank data says', async () => {
    const people = new Map(
      (await bankList<PersonApplication>('/apply/person_application')).map((person) => [person.id, person]),
    );
    const today = new Date().toISOString().slice(0, 10);
    const ages = [...people.values()].map((person) => ageOn(person.date_of_birth, today) ?? 0).sort((a, b) => a - b);
    const middle = ages[Math.floor(ages.length / 2)] ?? 30;
    // The citizenship most people share: a list of it flags the others.
    const citizenships = [...people.values()].map((person) => person.citizenship);
    const common =
      citizenships.sort(
        (a, b) => citizenships.filter((c) => c === b).length - citizenships.filter((c) => c === a).length,
      )[0] ?? 'US';
    for (const rule of [
      { name: 'manual', kind: 'application' as const, applicationStatus: 'manual_review' as const },
      { name: 'older', kind: 'application' as const, applicantOlderThan: middle },
      { name: 'younger', kind: 'application' as const, applicantYoungerThan: middle },
      { name: 'foreign', kind: 'application' as const, citizenshipOutside: `${common}, ZZ` },
    ]) {
      services.reviews.saveRule(profile.id, rule);
    }
    await syncBook();
    const applications = await bankList<AccountApplication>('/apply/account_application');
    const expected = (test: (person: PersonApplication) => boolean): string[] =>
      applications
        .filter((application) =>
          peopleOf(application).some((id) => {
            const person = people.get(id);
            return person !== undefined && test(person);
          }),
        )
        .map((application) => application.id)
        .sort();
    expect(flaggedBy('manual')).toEqual(
      applications
        .filter((application) => application.status === 'manual_review')
        .map((application) => application.id)
        .sort(),
    );
    const older = expected((person) => (ageOn(person.date_of_birth, today) ?? 0) > middle);
    const younger = expected((person) => (ageOn(person.date_of_birth, today) ?? 0) < middle);
    expect(older.length + younger.length).toBeGreaterThan(0);
    // An application flagged by one rule is not flagged again by another: each rule's flags are those it found first.
    const flagged = new Set([
      ...flaggedBy('manual'),
      ...flaggedBy('older'),
      ...flaggedBy('younger'),
      ...flaggedBy('foreign'),
    ]);
    for (const ref of [...older, ...younger]) expect(flagged.has(ref)).toBe(true);
    for (const ref of flaggedBy('older')) expect(older).toContain(ref);
    for (const ref of flaggedBy('younger')) expect(younger).toContain(ref);
    const foreign = expected((person) => person.citizenship !== common);
    for (const ref of flaggedBy('foreign')) expect(foreign).toContain(ref);
    const unflagged = applications.map((application) => application.id).filter((id) => !flagged.has(id));
    for (const ref of unflagged) {
      expect(older).not.toContain(ref);
      expect(younger).not.toContain(ref);
      expect(foreign).not.toContain(ref);
    }
  });
});
