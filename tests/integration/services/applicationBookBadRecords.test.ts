/**
 * One bad record must not fail the book (issue 24, "Bad input, faults"). A real sandbox bank
 * serves, from its own data file, an application with a status this client does not know, an
 * application with a field of the wrong type, a malformed person and a malformed business,
 * beside its well-formed book. The book sync completes; each bad record is kept as received
 * with its problem named (the drift ledger counts it by field, never by value); every other
 * record is synced as usual; the window, through the real router and its output schemas, lists
 * and opens the bad applications with the problem and what was received; opening one by id
 * works too; and a resync rewrites nothing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccountApplicationHandlers } from '../../../src/main/ipc/accountApplicationHandlers.ts';
import { createApplicantHandlers } from '../../../src/main/ipc/applicantHandlers.ts';
import { createExportHandlers } from '../../../src/main/ipc/exportHandlers.ts';
import { exportCsv } from '../../../src/main/services/cache/exportViews.ts';
import { startSandbox } from '../../../src/sandbox/index.ts';
import { freshId } from '../../../src/sandbox/random.ts';
import { openServicesOverIpc, type ServicesOverIpc } from '../ipc/support/servicesOverIpc.ts';
import { basicOf, startBank, type RunningSandbox } from './support/sandboxBank.ts';
import { makeTempFolder } from './support/tempFolder.ts';

let temp: { folder: string; remove: () => void };
let bank: RunningSandbox;
let over: ServicesOverIpc;
const bad = { unknownStatus: '', wrongType: '', person: '', business: '' };

/** Records as a bank might send them, written into the sandbox's own record table. */
function seedBadRecords(dataFile: string): void {
  const database = new DatabaseSync(dataFile);
  try {
    const template = (kind: string, where = ''): Record<string, unknown> => {
      const row = database.prepare(`SELECT body FROM record WHERE kind = ? ${where} LIMIT 1`).get(kind) as
        { body: string } | undefined;
      if (row === undefined) throw new Error(`the sandbox seeded no ${kind}`);
      return JSON.parse(row.body) as Record<string, unknown>;
    };
    const insert = database.prepare('INSERT INTO record (kind, id, created_at, body) VALUES (?, ?, ?, ?)');
    const put = (kind: string, body: Record<string, unknown>): string => {
      insert.run(kind, String(body['id']), String(body['created_at']), JSON.stringify(body));
      return String(body['id']);
    };
    const created = '2026-11-20T10:00:00Z';
    const stamps = { created_at: created, updated_at: created };
    const application = template('account_application', `AND body LIKE '%"ownership_type":"personal"%'`);
    const business = template('business_application');
    bad.person = put('person_application', {
      ...template('person_application'),
      ...stamps,
      id: freshId('personApplication'),
      date_of_birth: 19970518,
    });
    bad.business = put('business_application', {
      ...business,
      ...stamps,
      id: freshId('businessApplication'),
      established_on: 'last spring',
    });
    bad.unknownStatus = put('account_application', {
      ...application,
      ...stamps,
      id: freshId('accountApplication'),
      status: 'pending_review',
    });
    bad.wrongType = put('account_application', {
      ...application,
      ...stamps,
      id: freshId('accountApplication'),
      status: 'submitted',
      primary_person_application_id: bad.person,
      person_applications: 'owner and signer',
      business_application_id: bad.business,
    });
  } finally {
    database.close();
  }
}

beforeEach(async () => {
  temp = makeTempFolder();
  const dataFile = join(temp.folder, 'bank.sqlite');
  const seeded = await startSandbox({ port: 0, dataFile, accounts: 1, pendingTransactionsPerAccount: 10 });
  await seeded.close();
  seedBadRecords(dataFile);
  bank = await startBank({ dataFile, accounts: 1, pendingTransactionsPerAccount: 10 });
  over = await openServicesOverIpc({
    folderPrefix: 'bad-records',
    bank,
    domains: (wired) => ({
      ...createAccountApplicationHandlers(wired),
      ...createApplicantHandlers(wired),
      ...createExportHandlers(wired),
    }),
  });
});

afterEach(async () => {
  await over.close();
  await bank.close();
  temp.remove();
});

async function bankIds(path: string): Promise<string[]> {
  const answer = await fetch(`${bank.baseUrl}${path}?page_size=1000`, { headers: { authorization: basicOf(bank) } });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { data: { id: string }[] }).data.map((entry) => entry.id);
}

async function syncBook() {
  const outcome = await over.ledger.sync.start({ kind: 'applications', profileId: over.profileId }).done;
  expect(outcome.error ?? null).toBeNull();
  expect(outcome.state).toBe('done');
  return outcome;
}

describe('one bad record does not fail the book', () => {
  it('keeps each bad application, person and business as received, names the problem, and syncs the rest', async () => {
    const applications = await bankIds('/apply/account_application');
    expect(applications).toContain(bad.unknownStatus);
    expect(applications).toContain(bad.wrongType);
    await syncBook();
    const { api, profileId, ledger } = over;

    // Every application the bank lists is cached, the bad ones included, and the window lists them.
    const listed = await api.accountApplications.list({ profileId, limit: 500 });
    expect(listed.rows.map((row) => row.id).sort()).toEqual([...applications].sort());
    const malformedRows = listed.rows.filter((row) => row.malformed !== undefined).map((row) => row.id);
    expect(malformedRows.sort()).toEqual([bad.unknownStatus, bad.wrongType].sort());

    // The unknown status: shown empty, what was received beside it, the problem named without the value.
    const unknown = await api.accountApplications.get({ profileId, id: bad.unknownStatus });
    expect(unknown.application?.status).toBeNull();
    expect(unknown.application?.malformed?.received).toEqual({ status: '"pending_review"' });
    expect(unknown.application?.malformed?.problems.join(' ')).toMatch(/^status: /);
    expect(unknown.application?.malformed?.problems.join(' ')).not.toContain('pending_review');
    expect(unknown.history.map((version) => version.status)).toEqual(['pending_review']);
    // Its other fields read as usual, and the people it names are linked and synced.
    expect(unknown.application?.ownership_type).toBe('personal');
    const itsPeople = await api.applicants.ofApplication({ profileId, applicationId: bad.unknownStatus });
    expect(itsPeople.rows.length).toBeGreaterThan(0);
    expect(itsPeople.rows.every((entry) => entry.applicant?.state === 'received')).toBe(true);

    // The wrong type: that field emptied, the rest kept; its primary person and business still linked.
    const wrong = await api.accountApplications.get({ profileId, id: bad.wrongType });
    expect(wrong.application?.person_applications).toBeNull();
    expect(wrong.application?.status).toBe('submitted');
    expect(wrong.application?.malformed?.received).toEqual({ person_applications: '"owner and signer"' });
    const named = ledger.cache.applicants.ofApplication(profileId, bad.wrongType);
    expect(named.map((entry) => [entry.applicantId, entry.applicant?.state]).sort()).toEqual(
      [
        [bad.person, 'malformed'],
        [bad.business, 'malformed'],
      ].sort(),
    );

    // The malformed person and business: kept as received, each problem named by field.
    const person = ledger.cache.applicants.get(profileId, bad.person);
    expect(person?.record?.['date_of_birth']).toBe(19970518);
    expect(person?.problems.join(' ')).toMatch(/date_of_birth/);
    const business = ledger.cache.applicants.get(profileId, bad.business);
    expect(business?.record?.['established_on']).toBe('last spring');
    expect(business?.problems.join(' ')).toMatch(/established_on/);
    expect(business?.problems.join(' ')).not.toContain('last spring');

    // The drift ledger counts each by field.
    const drift = ledger.drift.report(profileId);
    const malformedOf = (resource: string): string[] =>
      (drift.resources.find((entry) => entry.resource === resource)?.malformed ?? [])
        .map((entry) => entry.field)
        .sort();
    expect(malformedOf('account_application')).toEqual(['person_applications', 'status']);
    expect(malformedOf('person_application')).toEqual(['date_of_birth']);
    expect(malformedOf('business_application')).toEqual(['established_on']);

    // Every well-formed person and business the bank lists is kept as received.
    for (const id of [
      ...(await bankIds('/apply/person_application')),
      ...(await bankIds('/apply/business_application')),
    ]) {
      const kept = ledger.cache.applicants.get(profileId, id);
      expect(kept?.state, id).toBe([bad.person, bad.business].includes(id) ? 'malformed' : 'received');
    }

    // The CSV export carries the status as the bank sent it, and every application.
    const file = join(temp.folder, 'applications.csv');
    const exported = await exportCsv(ledger.cache, { kind: 'account-applications', query: { profileId } }, file);
    expect(exported.rows).toBe(applications.length);
    const line = readFileSync(file, 'utf8')
      .split('\r\n')
      .find((row) => row.includes(bad.unknownStatus));
    expect(line).toContain('pending_review');
    // And the window's Export (JSON lines): the status as sent, the problem beside it.
    const saved = await api.exports.accountApplications({ profileId, format: 'jsonl' });
    expect(saved.rows).toBe(applications.length);
    const exportedBad = readFileSync(saved.path ?? '', 'utf8')
      .split('\n')
      .filter((text) => text !== '')
      .map((text) => JSON.parse(text) as { id: string; status: string | null; malformed?: { problems: string[] } })
      .find((row) => row.id === bad.unknownStatus);
    expect(exportedBad?.status).toBe('pending_review');
    expect(exportedBad?.malformed?.problems.join(' ')).toMatch(/^status: /);

    // A resync with nothing new writes nothing: a bad record's digest is as stable as any.
    const again = await syncBook();
    expect(again.written).toBe(0);
  });

  it('opens a malformed application by its id', async () => {
    const outcome = await over.ledger.sync.start({
      kind: 'account-application',
      profileId: over.profileId,
      applicationId: bad.unknownStatus,
    }).done;
    expect(outcome.error ?? null).toBeNull();
    expect(outcome.state).toBe('done');
    const opened = await over.api.accountApplications.get({ profileId: over.profileId, id: bad.unknownStatus });
    expect(opened.application?.malformed?.received['status']).toBe('"pending_review"');
    expect(opened.history.map((version) => version.status)).toEqual(['pending_review']);
  });
});
