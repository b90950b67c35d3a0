/**
 * Watch rule conditions on an application's people (issue 24): the schema takes an age in whole
 * years and a list of two-letter citizenship codes and refuses anything else, naming the field;
 * a person record matches on its age counted on the day given and its citizenship.
 */
import { describe, expect, it } from 'vitest';
import { personMatches } from '../../../src/main/services/cache/applicantRuleMatch.ts';
import { parseWith } from '../../../src/shared/bank/index.ts';
import { citizenshipsOf, describeRule, watchRule } from '../../../src/shared/review/watchRule.ts';

const TODAY = '2026-11-27';
const MINOR = { date_of_birth: '2010-11-28', citizenship: 'US' };
const ELDER = { date_of_birth: '1920-01-01', citizenship: 'ca' };

describe('applicant conditions of a watch rule', () => {
  it('takes an age and a citizenship list, and says each in words', () => {
    const parsed = parseWith(watchRule, {
      name: 'people',
      kind: 'application',
      applicantYoungerThan: 18,
      citizenshipOutside: 'us, CA ,MX',
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(describeRule(parsed.value)).toBe(
      "application: an applicant younger than 18 and an applicant's citizenship outside US, CA, MX",
    );
    expect(citizenshipsOf('us, CA ,MX us')).toEqual(['US', 'CA', 'MX']);
  });

  it('refuses a bad age, a bad country list, and people conditions on another kind', () => {
    for (const [rule, field] of [
      [{ applicantOlderThan: 0 }, 'applicantOlderThan'],
      [{ applicantOlderThan: 151 }, 'applicantOlderThan'],
      [{ applicantYoungerThan: 17.5 }, 'applicantYoungerThan'],
      [{ citizenshipOutside: 'USA' }, 'citizenshipOutside'],
      [{ citizenshipOutside: 'US;CA' }, 'citizenshipOutside'],
      [{ citizenshipOutside: '' }, 'citizenshipOutside'],
    ] as const) {
      const parsed = parseWith(watchRule, { name: 'bad', kind: 'application', ...rule });
      expect(parsed.ok, JSON.stringify(rule)).toBe(false);
      if (!parsed.ok) expect(parsed.problems.join('; ')).toContain(field);
    }
    const misplaced = parseWith(watchRule, { name: 'bad', kind: 'webhook-send', applicantYoungerThan: 18 });
    expect(misplaced.ok).toBe(false);
    if (!misplaced.ok) expect(misplaced.problems.join('; ')).toContain('is not a condition of a webhook-send rule');
  });

  it('matches a person on age counted on the day, and on citizenship outside the list', () => {
    expect(personMatches(MINOR, { today: TODAY, youngerThan: 18 })).toBe(true);
    // Eighteen tomorrow is 17 today (younger than 18); eighteen today is not.
    expect(personMatches({ ...MINOR, date_of_birth: '2008-11-28' }, { today: TODAY, youngerThan: 18 })).toBe(true);
    expect(personMatches({ ...MINOR, date_of_birth: '2008-11-27' }, { today: TODAY, youngerThan: 18 })).toBe(false);
    expect(personMatches(ELDER, { today: TODAY, olderThan: 100 })).toBe(true);
    expect(personMatches(MINOR, { today: TODAY, olderThan: 100 })).toBe(false);
    expect(personMatches(ELDER, { today: TODAY, citizenships: ['US'] })).toBe(true);
    expect(personMatches(ELDER, { today: TODAY, citizenships: ['US', 'CA'] })).toBe(false);
    // Every condition given must hold.
    expect(personMatches(ELDER, { today: TODAY, olderThan: 100, citizenships: ['CA'] })).toBe(false);
    // A person without the field never matches on it.
    expect(personMatches({ citizenship: 'US' }, { today: TODAY, youngerThan: 18 })).toBe(false);
    expect(personMatches({ date_of_birth: 'not a date' }, { today: TODAY, olderThan: 1 })).toBe(false);
    expect(personMatches({ date_of_birth: '2000-01-01' }, { today: TODAY, citizenships: ['US'] })).toBe(false);
  });
});
