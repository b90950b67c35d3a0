/**
 * Applicants in exports and review reports (issue 24, item 4), through the real router on the
 * real services, cache and sandbox bank: an application export (CSV and JSON lines) names each
 * application's applicants with every personal field masked by default; the profile setting
 * unmasks exactly the chosen classes and nothing else; changing it is written to the audit
 * chain with its actor; the review report follows the same setting; bad settings are refused.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExportHandlers } from '../../../src/main/ipc/exportHandlers.ts';
import { exportCsv } from '../../../src/main/services/cache/exportViews.ts';
import type { LedgerServices } from '../../../src/main/services/ledgerServices.ts';
import { reportCsv } from '../../../src/main/services/review/reportCsv.ts';
import { buildReviewReport } from '../../../src/main/services/review/reviewReport.ts';
import { unmaskedFieldsOf } from '../../../src/shared/personalData/exportDisclosure.ts';
import type { LedgerdeskApi } from '../../../src/shared/ipc/bridge.ts';
import { refusal } from '../../support/refusal.ts';
import { openApplicationsOverIpc, type ApplicationsOverIpc } from './support/applicationsOverIpc.ts';

let services: ApplicationsOverIpc;
let ledger: LedgerServices;
let api: LedgerdeskApi;
let profileId: string;

beforeAll(async () => {
  services = await openApplicationsOverIpc('export-unmasking', (wired) => createExportHandlers(wired));
  ({ ledger, api, profileId } = services);
});

afterAll(() => services.close());

const clearRecord = (applicantId: string): Promise<Record<string, unknown>> => services.clearRecord(applicantId);

interface ExportedRow {
  id: string;
  primary_person_application_id: string | null;
  applicants: Record<string, unknown>[];
}

async function exportedRows(): Promise<ExportedRow[]> {
  const saved = await api.exports.accountApplications({ profileId, format: 'jsonl' });
  expect(saved.saved).toBe(true);
  const text = readFileSync(saved.path ?? '', 'utf8');
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ExportedRow);
}

/** The first exported application naming a person, that person as exported, and in clear. */
async function aPerson(): Promise<{ exported: Record<string, unknown>; clear: Record<string, unknown> }> {
  const rows = await exportedRows();
  const row = rows.find((entry) => entry.primary_person_application_id !== null);
  const exported = row?.applicants.find((entry) => entry['applicant_id'] === row.primary_person_application_id);
  expect(exported).toBeDefined();
  return { exported: exported ?? {}, clear: await clearRecord(row?.primary_person_application_id ?? '') };
}

describe('applicants in exports and reports', () => {
  it('exports every application with its applicants named and every personal field masked by default', async () => {
    expect((await api.applicants.exportUnmasked({ profileId })).classes).toEqual([]);
    const rows = await exportedRows();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => Array.isArray(row.applicants))).toBe(true);
    const { exported, clear } = await aPerson();
    expect(exported['name']).toBe(`${String(clear['first_name'])} ${String(clear['last_name'])}`.replace(/\s+/g, ' '));
    expect(exported['date_of_birth']).toBe(`•••• ${String(clear['date_of_birth']).slice(0, 4)}`);
    expect(exported['email_address']).not.toBe(clear['email_address']);
    expect(String(exported['email_address'])).toMatch(/^.•••@/);
    expect(exported['phone_number']).not.toBe(clear['phone_number']);
    const street = (exported['physical_address'] as Record<string, unknown>)['street_line_1'];
    expect(street).toBe('••••••');
    // Nothing personal in clear anywhere in the file.
    const whole = JSON.stringify(rows);
    for (const field of ['date_of_birth', 'email_address', 'phone_number', 'ssn']) {
      const value = clear[field];
      if (typeof value === 'string' && value !== '') expect(whole).not.toContain(value);
    }
    const clearStreet = (clear['physical_address'] as Record<string, unknown>)['street_line_1'];
    expect(whole).not.toContain(String(clearStreet));
  });

  it('unmasks exactly the chosen class once the profile says so, and audits the change with its actor', async () => {
    const before = (await api.audit.list({ profileId, limit: 500 })).rows.length;
    const answer = await api.applicants.setExportUnmasked({ profileId, classes: ['email', 'date_of_birth'] });
    // Kept in the canonical order, whatever order they were given in.
    expect(answer.classes).toEqual(['date_of_birth', 'email']);
    expect(ledger.profiles.find(profileId).exportUnmasked).toEqual(['date_of_birth', 'email']);
    const { exported, clear } = await aPerson();
    expect(exported['date_of_birth']).toBe(clear['date_of_birth']);
    expect(exported['email_address']).toBe(clear['email_address']);
    expect(exported['phone_number']).not.toBe(clear['phone_number']);
    expect((exported['physical_address'] as Record<string, unknown>)['street_line_1']).toBe('••••••');

    const entries = (await api.audit.list({ profileId, limit: 500 })).rows;
    expect(entries.length).toBe(before + 1);
    const change = entries.find((entry) => entry.action === 'profile.export-unmasked');
    expect(change?.message).toBe('exports and reports show unmasked: date of birth, email (was: nothing)');
    expect(change?.actor ?? '').not.toBe('');
    const chain = await ledger.cache.audit.verify();
    expect(chain.ok).toBe(true);
  });

  it("writes the CLI's CSV export with the same masking", async () => {
    await api.applicants.setExportUnmasked({ profileId, classes: ['tax_id'] });
    const file = join(services.folder, 'cli-applications.csv');
    const profile = ledger.profiles.find(profileId);
    await exportCsv(
      ledger.cache,
      { kind: 'account-applications', query: { profileId }, unmasked: unmaskedFieldsOf(profile.exportUnmasked ?? []) },
      file,
    );
    const csv = readFileSync(file, 'utf8');
    expect(csv.split('\r\n')[0]).toMatch(/,applicants$/);
    const { clear } = await aPerson();
    expect(csv).not.toContain(String(clear['date_of_birth']));
    expect(csv).toContain(`•••• ${String(clear['date_of_birth']).slice(0, 4)}`);
    if (typeof clear['ssn'] === 'string') expect(csv).toContain(clear['ssn']);
  });

  it("prints the review report's applicants by name, masked as the profile says", async () => {
    await api.applicants.setExportUnmasked({ profileId, classes: [] });
    const rows = await exportedRows();
    const row = rows.find((entry) => entry.primary_person_application_id !== null);
    ledger.reviews.give({ profileId, kind: 'application', refs: [row?.id ?? ''], disposition: 'flagged' });
    const { clear } = await aPerson();
    const masked = reportCsv(
      await buildReviewReport(ledger.cache, ledger.reviews, { profileId, profileName: 'Sandbox' }),
    );
    expect(masked).toContain(String(clear['last_name']));
    expect(masked).toContain(`born •••• ${String(clear['date_of_birth']).slice(0, 4)}`);
    expect(masked).not.toContain(String(clear['date_of_birth']));
    const shown = reportCsv(
      await buildReviewReport(ledger.cache, ledger.reviews, {
        profileId,
        profileName: 'Sandbox',
        unmasked: ['date_of_birth'],
      }),
    );
    expect(shown).toContain(`born ${String(clear['date_of_birth'])}`);
    expect(shown).not.toContain(String(clear['email_address']));
  });

  it('refuses a setting it does not know, a class named twice and an unknown profile, changing nothing', async () => {
    await api.applicants.setExportUnmasked({ profileId, classes: ['phone'] });
    const unknown = await refusal(api.applicants.setExportUnmasked({ profileId, classes: ['passport' as never] }));
    expect(unknown.code).toBe('invalid_input');
    expect(unknown.field ?? '').toContain('classes');
    const twice = await refusal(api.applicants.setExportUnmasked({ profileId, classes: ['email', 'email'] }));
    expect(twice.code).toBe('invalid_input');
    expect(twice.message).toContain('once');
    const nobody = await refusal(api.applicants.setExportUnmasked({ profileId: 'prof_nobody', classes: [] }));
    expect(nobody.code).toBe('not_found');
    expect((await api.applicants.exportUnmasked({ profileId })).classes).toEqual(['phone']);
  });
});
