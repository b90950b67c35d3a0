/** Personal data masked until revealed (issue 24): one implementation for every surface. */
import { describe, expect, it } from 'vitest';
import {
  ageOn,
  maskApplicantRecord,
  maskDateOfBirth,
  maskDigits,
  maskEmail,
  PERSONAL_FIELDS,
} from '../../../src/shared/personalData/masking.ts';

const person = {
  id: 'apsn_1',
  first_name: 'Frances',
  last_name: 'Knuth',
  date_of_birth: '1997-05-18',
  email_address: 'frances.knuth@example.com',
  phone_number: '2025551111',
  tin: '123-45-6789',
  citizenship: 'US',
  physical_address: { street_line_1: '1600 Pennsylvania Ave', street_line_2: 'Apt 2', city: 'Washington', state: 'DC' },
  mailing_address: null,
};

describe('masking personal data', () => {
  it('shows the year of birth, the last four digits, the first letter and domain of an email, nothing of a street', () => {
    expect(maskDateOfBirth('1997-05-18')).toBe('•••• 1997');
    expect(maskDigits('123-45-6789')).toBe('•••-••-6789');
    expect(maskDigits('11-3344555')).toBe('••-•••4555');
    expect(maskDigits('2025551111')).toBe('••••••1111');
    expect(maskEmail('frances.knuth@example.com')).toBe('f•••@example.com');
    expect(maskEmail('not-an-email')).toBe('••••••');
  });

  it('masks every personal field of a record, keeps names, city and citizenship, and leaves the record untouched', () => {
    const masked = maskApplicantRecord(person);
    expect(masked).toMatchObject({
      first_name: 'Frances',
      last_name: 'Knuth',
      citizenship: 'US',
      date_of_birth: '•••• 1997',
      email_address: 'f•••@example.com',
      phone_number: '••••••1111',
      tin: '•••-••-6789',
      physical_address: { street_line_1: '••••••', street_line_2: '••••••', city: 'Washington', state: 'DC' },
      mailing_address: null,
    });
    expect(JSON.stringify(masked)).not.toMatch(/1600|05-18|frances\.knuth|202555|123-45/);
    expect(person.date_of_birth).toBe('1997-05-18');
  });

  it('shows in full only the fields revealed', () => {
    const masked = maskApplicantRecord(person, new Set(['date_of_birth', 'physical_address.street_line_1']));
    expect(masked['date_of_birth']).toBe('1997-05-18');
    expect((masked['physical_address'] as Record<string, unknown>)['street_line_1']).toBe('1600 Pennsylvania Ave');
    expect((masked['physical_address'] as Record<string, unknown>)['street_line_2']).toBe('••••••');
    expect(masked['phone_number']).toBe('••••••1111');
  });

  it('hides a malformed value whole (a number where text belongs) and lists the fields it masks', () => {
    expect(maskApplicantRecord({ phone_number: 2025551111 })['phone_number']).toBe('••••••');
    expect(PERSONAL_FIELDS).toContain('date_of_birth');
  });

  it('counts age in whole years on a day', () => {
    expect(ageOn('1997-05-18', '2026-05-17')).toBe(28);
    expect(ageOn('1997-05-18', '2026-05-18')).toBe(29);
    expect(ageOn('18/05/1997', '2026-05-18')).toBeNull();
  });
});
