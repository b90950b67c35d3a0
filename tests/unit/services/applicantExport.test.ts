/**
 * Masking by the profile's export setting (issue 24, item 4): an exported applicant carries its
 * name in clear, every personal field masked by default, and exactly the chosen classes in clear;
 * the report's one-line form carries no more than the exported applicant; and the setting's
 * schema refuses what it does not know.
 */
import { describe, expect, it } from 'vitest';
import { applicantLine, exportedApplicantOf } from '../../../src/main/services/applicants/applicantExport.ts';
import type { NamedApplicant } from '../../../src/main/services/cache/applicantsTable.ts';
import {
  disclosureText,
  exportDisclosure,
  unmaskedFieldsOf,
} from '../../../src/shared/personalData/exportDisclosure.ts';

const FRANCES = {
  id: 'apsn_frances',
  first_name: 'Frances',
  middle_name: null,
  last_name: 'Knuth',
  date_of_birth: '1997-05-18',
  ssn: '123-45-6789',
  email_address: 'frances@example.com',
  phone_number: '2025551111',
  physical_address: { street_line_1: '1600 Pennsylvania Ave', street_line_2: 'Apt 2', city: 'Washington', state: 'DC' },
  mailing_address: { street_line_1: 'PO Box 12', city: 'Washington', state: 'DC' },
};

function named(
  record: Record<string, unknown> | null,
  state: 'received' | 'not-returned' = 'received',
): NamedApplicant {
  return {
    applicantId: 'apsn_frances',
    kind: 'person',
    roles: ['primary', 'owner'],
    applicant: {
      applicantId: 'apsn_frances',
      kind: 'person',
      state,
      record,
      problems: [],
      fetchedAt: '2026-11-26T10:00:00.000Z',
      applications: [],
    },
  };
}

describe('applicants as exports print them', () => {
  it('masks every personal field by default and keeps the name', () => {
    const exported = exportedApplicantOf(named(FRANCES), unmaskedFieldsOf([]));
    expect(exported).toMatchObject({
      applicant_id: 'apsn_frances',
      roles: ['primary', 'owner'],
      state: 'received',
      name: 'Frances Knuth',
      date_of_birth: '•••• 1997',
      ssn: '•••-••-6789',
      email_address: 'f•••@example.com',
      phone_number: '••••••1111',
    });
    expect(exported.physical_address).toMatchObject({
      street_line_1: '••••••',
      street_line_2: '••••••',
      city: 'Washington',
    });
    expect(exported.mailing_address).toMatchObject({ street_line_1: '••••••' });
    const text = JSON.stringify(exported);
    for (const clear of ['1997-05-18', '123-45-6789', 'frances@example.com', '2025551111', 'Pennsylvania', 'PO Box'])
      expect(text).not.toContain(clear);
  });

  it.each([
    ['date_of_birth', ['1997-05-18'], ['123-45-6789', 'frances@', '2025551111', 'Pennsylvania']],
    ['tax_id', ['123-45-6789'], ['1997-05-18', 'frances@', '2025551111', 'Pennsylvania']],
    ['phone', ['2025551111'], ['1997-05-18', '123-45-6789', 'frances@', 'Pennsylvania']],
    ['email', ['frances@example.com'], ['1997-05-18', '123-45-6789', '2025551111', 'Pennsylvania']],
    [
      'street_lines',
      ['1600 Pennsylvania Ave', 'Apt 2', 'PO Box 12'],
      ['1997-05-18', '123-45-6789', 'frances@', '2025551111'],
    ],
  ] as const)('unmasks %s only', (chosen, shown, hidden) => {
    const exported = exportedApplicantOf(named(FRANCES), unmaskedFieldsOf([chosen]));
    const text = JSON.stringify(exported) + applicantLine(exported);
    for (const value of shown) expect(text).toContain(value);
    for (const value of hidden) expect(text).not.toContain(value);
  });

  it('says what is missing rather than dropping an applicant', () => {
    expect(exportedApplicantOf({ ...named(null), applicant: null }, new Set())).toEqual({
      applicant_id: 'apsn_frances',
      kind: 'person',
      roles: ['primary', 'owner'],
      state: 'not-fetched',
      name: null,
    });
    expect(exportedApplicantOf(named(null, 'not-returned'), new Set()).state).toBe('not-returned');
  });

  it("writes the report's line from the masked applicant", () => {
    const line = applicantLine(exportedApplicantOf(named(FRANCES), new Set()));
    expect(line).toBe(
      'primary/owner Frances Knuth (person; born •••• 1997; ssn •••-••-6789; phone ••••••1111; email f•••@example.com; address ••••••, ••••••, Washington, DC; mailing ••••••, Washington, DC)',
    );
  });
});

describe('the export setting', () => {
  it('keeps the classes once each, in canonical order, and names them', () => {
    expect(exportDisclosure.parse(['email', 'date_of_birth'])).toEqual(['date_of_birth', 'email']);
    expect(exportDisclosure.parse([])).toEqual([]);
    expect(disclosureText([])).toBe('nothing');
    expect(disclosureText(['tax_id', 'street_lines'])).toBe('tax id, street lines');
  });

  it('refuses an unknown class, a class twice and anything not a list', () => {
    expect(exportDisclosure.safeParse(['passport']).success).toBe(false);
    expect(exportDisclosure.safeParse(['email', 'email']).success).toBe(false);
    expect(exportDisclosure.safeParse('email').success).toBe(false);
    expect(exportDisclosure.safeParse(null).success).toBe(false);
  });
});
