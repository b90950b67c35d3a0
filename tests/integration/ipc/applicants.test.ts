/**
 * The `applicants` domain (issue 24) through the real router and bridge, on the real services,
 * cache and sandbox bank: an application's people and business masked, one applicant named by
 * several applications, a per-field reveal handed over only with its audit entry, the
 * applications list found by an applicant's name, email and business name and filtered by
 * creation date, and every bad input refused with its field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerdeskApi } from '../../../src/shared/ipc/bridge.ts';
import type { ApplicantView } from '../../../src/shared/ipc/domains/applicants.ts';
import { refusal } from '../../support/refusal.ts';
import { openApplicationsOverIpc, type ApplicationsOverIpc } from './support/applicationsOverIpc.ts';

let services: ApplicationsOverIpc;
let api: LedgerdeskApi;
let profileId: string;

beforeAll(async () => {
  services = await openApplicationsOverIpc('applicants');
  ({ api, profileId } = services);
});

afterAll(() => services.close());

const clearRecord = (applicantId: string): Promise<Record<string, unknown>> => services.clearRecord(applicantId);

async function people(): Promise<ApplicantView[]> {
  return (await api.applicants.list({ profileId, kind: 'person', limit: 500 })).rows;
}

describe('the applicants domain', () => {
  it("shows an application's people and business with every personal field masked", async () => {
    const { rows: applications } = await api.accountApplications.list({ profileId, limit: 500 });
    expect(applications.length).toBeGreaterThan(0);
    const personal = applications.find((row) => row.primary_person_application_id !== null);
    const named = await api.applicants.ofApplication({ profileId, applicationId: personal?.id ?? '' });
    expect(named.rows.length).toBeGreaterThan(0);
    expect(named.asOf).not.toBeNull();
    const primary = named.rows.find((row) => row.applicantId === personal?.primary_person_application_id);
    expect(primary?.roles).toContain('primary');
    const applicant = primary?.applicant;
    expect(applicant?.state).toBe('received');
    const record = applicant?.record ?? {};
    const clear = await clearRecord(primary?.applicantId ?? '');
    expect(record['first_name']).toBe(clear['first_name']);
    expect(record['date_of_birth']).toBe(`•••• ${String(clear['date_of_birth']).slice(0, 4)}`);
    expect(record['date_of_birth']).not.toBe(clear['date_of_birth']);
    expect(String(record['phone_number'])).toMatch(/^•+[0-9]{4}$/);
    expect(String(record['email_address'])).toMatch(/^.•••@/);
    expect((record['physical_address'] as Record<string, unknown>)['street_line_1']).toBe('••••••');
    expect(applicant?.maskedFields).toEqual(
      expect.arrayContaining(['date_of_birth', 'phone_number', 'email_address', 'physical_address.street_line_1']),
    );
    expect(applicant?.age).toBeGreaterThanOrEqual(0);
    // Nothing of the clear personal values anywhere in what the renderer receives.
    const sent = JSON.stringify(named);
    for (const field of ['date_of_birth', 'phone_number', 'email_address'] as const) {
      expect(sent).not.toContain(String(clear[field]));
    }
    expect(sent).not.toContain(String((clear['physical_address'] as Record<string, unknown>)['street_line_1']));
  });

  it('shows a business with its tax id masked', async () => {
    const { rows: businesses } = await api.applicants.list({ profileId, kind: 'business', limit: 500 });
    expect(businesses.length).toBeGreaterThan(0);
    const business = businesses.find((row) => typeof row.record?.['tin'] === 'string');
    expect(String(business?.record?.['tin'])).toMatch(/^[•-]+[0-9]{4}$/);
    expect(business?.age).toBeNull();
    expect(business?.applications.length).toBeGreaterThan(0);
  });

  it('is one applicant with a link to each application naming it', async () => {
    const everyone = await people();
    const shared = everyone.find((person) => person.applications.length > 1) ?? everyone[0];
    const { applicant } = await api.applicants.get({ profileId, applicantId: shared?.applicantId ?? '' });
    expect(applicant?.applications).toEqual(shared?.applications);
    for (const link of applicant?.applications ?? []) {
      const named = await api.applicants.ofApplication({ profileId, applicationId: link.applicationId });
      expect(named.rows.map((row) => row.applicantId)).toContain(shared?.applicantId);
    }
    expect(await api.applicants.get({ profileId, applicantId: 'apsn_nobody' })).toEqual({ applicant: null });
  });

  it('reveals one field in clear only with its entry in the audit chain (who, which field of which applicant)', async () => {
    const [person] = await people();
    const applicantId = person?.applicantId ?? '';
    const clear = await clearRecord(applicantId);
    const revealed = await api.applicants.reveal({ profileId, applicantId, field: 'date_of_birth' });
    expect(revealed.value).toBe(clear['date_of_birth']);
    const street = await api.applicants.reveal({ profileId, applicantId, field: 'physical_address.street_line_1' });
    expect(street.value).toBe((clear['physical_address'] as Record<string, unknown>)['street_line_1']);
    const log = await api.audit.list({ profileId, action: 'applicant.reveal', limit: 10 });
    const entry = log.rows.find((row) => row.id === revealed.auditEntryId);
    expect(entry).toMatchObject({
      target: `applicant:${applicantId}`,
      result: 'ok',
      message: 'revealed date_of_birth',
    });
    expect(entry?.actor).toMatch(/app instance .*; OS user .*; reviewer /);
    // The value itself is nowhere in the log.
    expect(JSON.stringify(log.rows)).not.toContain(String(clear['date_of_birth']));
    expect((await api.audit.verify()).ok).toBe(true);
    // What is shown stays masked: a reveal is the drawer's, not the cache's.
    const again = await api.applicants.get({ profileId, applicantId });
    expect(again.applicant?.record?.['date_of_birth']).not.toBe(clear['date_of_birth']);
  });

  it('finds applications by an applicant name, email and business name, and filters them by creation date', async () => {
    const [person] = await people();
    const clear = await clearRecord(person?.applicantId ?? '');
    const byName = await api.accountApplications.list({
      profileId,
      search: `${String(clear['first_name'])} ${String(clear['last_name'])}`,
      limit: 500,
    });
    const expected = (person?.applications ?? []).map((link) => link.applicationId).sort();
    expect(byName.rows.map((row) => row.id)).toEqual(expect.arrayContaining(expected));
    const byEmail = await api.accountApplications.list({
      profileId,
      search: String(clear['email_address']),
      limit: 500,
    });
    expect(byEmail.rows.map((row) => row.id)).toEqual(expect.arrayContaining(expected));
    const byPersonId = await api.accountApplications.count({ profileId, search: person?.applicantId ?? '' });
    expect(byPersonId.count).toBeGreaterThanOrEqual(expected.length);
    const { rows: businesses } = await api.applicants.list({ profileId, kind: 'business', limit: 1 });
    const businessName = String((await clearRecord(businesses[0]?.applicantId ?? ''))['name']);
    const byBusiness = await api.accountApplications.list({ profileId, search: businessName, limit: 500 });
    expect(byBusiness.rows.map((row) => row.id)).toEqual(
      expect.arrayContaining((businesses[0]?.applications ?? []).map((link) => link.applicationId)),
    );
    expect((await api.accountApplications.count({ profileId, search: 'Nobody Byquitethisname' })).count).toBe(0);

    const { rows: all } = await api.accountApplications.list({ profileId, limit: 500, sortBy: 'created_at' });
    const days = [...new Set(all.map((row) => String(row.created_at).slice(0, 10)))].sort();
    const day = days[Math.floor(days.length / 2)] ?? '';
    const from = await api.accountApplications.list({ profileId, fromDate: day, limit: 500 });
    const before = await api.accountApplications.list({ profileId, toDate: day, limit: 500 });
    expect(from.rows.every((row) => String(row.created_at) >= day)).toBe(true);
    expect(before.rows.every((row) => String(row.created_at) < day)).toBe(true);
    expect(from.rows.length + before.rows.length).toBe(all.length);
    expect((await api.accountApplications.count({ profileId, fromDate: day })).count).toBe(from.rows.length);
  });

  it('refuses every bad input with its field', async () => {
    const [person] = await people();
    expect(
      await refusal(
        api.applicants.reveal({ profileId, applicantId: person?.applicantId ?? '', field: 'first_name' as never }),
      ),
    ).toMatchObject({ code: 'invalid_input', field: 'field' });
    expect(
      await refusal(api.applicants.reveal({ profileId, applicantId: 'apsn_nobody', field: 'date_of_birth' })),
    ).toMatchObject({ code: 'not_found', field: 'applicantId' });
    expect(await refusal(api.applicants.get({ profileId: 'prof_missing', applicantId: 'x' }))).toMatchObject({
      code: 'not_found',
    });
    expect(await refusal(api.applicants.list({ profileId, limit: 0 }))).toMatchObject({
      code: 'invalid_input',
      field: 'limit',
    });
    expect(await refusal(api.applicants.ofApplication({ profileId } as never))).toMatchObject({
      code: 'invalid_input',
      field: 'applicationId',
    });
    expect(await refusal(api.accountApplications.list({ profileId, fromDate: '2026-13-40' }))).toMatchObject({
      code: 'invalid_input',
      field: 'fromDate',
    });
    // A refused reveal leaves no entry.
    const log = await api.audit.list({ profileId, action: 'applicant.reveal', search: 'apsn_nobody', limit: 10 });
    expect(log.rows).toEqual([]);
  });
});
