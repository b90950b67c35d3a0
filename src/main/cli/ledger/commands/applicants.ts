/**
 * `ledger list applicants --profile NAME [--search TEXT] [--limit N]`: the people and
 * businesses the cached applications name, from the offline cache, with their personal data
 * masked (src/shared/personalData/masking.ts): the command line never prints a date of birth,
 * tax id, phone, email or street line in full. An applicant the bank did not return is listed
 * as such; a malformed one with the fields at fault.
 */
import { maskApplicantRecord } from '../../../../shared/personalData/masking.ts';
import type { CachedApplicant } from '../../../services/cache/applicantsTable.ts';
import { table } from '../cliOutput.ts';
import type { CommandContext } from '../triggerCommand.ts';

const STATE_WORDS = {
  received: 'as received',
  malformed: 'malformed (kept as received)',
  'not-returned': 'applicant not returned by the bank',
} as const;

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The applicant as the command line shows it: masked, with how many applications name it. */
function shownApplicant(applicant: CachedApplicant): Record<string, unknown> {
  const record = applicant.record === null ? null : maskApplicantRecord(applicant.record);
  const name =
    record === null
      ? ''
      : applicant.kind === 'person'
        ? [record['first_name'], record['middle_name'], record['last_name']].map(text).filter(Boolean).join(' ')
        : text(record['name']);
  return {
    id: applicant.applicantId,
    kind: applicant.kind,
    state: applicant.state,
    name,
    dateOfBirth: record === null ? null : (record['date_of_birth'] ?? null),
    email: record === null ? null : (record['email_address'] ?? null),
    phone: record === null ? null : (record['phone_number'] ?? null),
    taxId: record === null ? null : (record['tin'] ?? record['identification_number'] ?? null),
    citizenship: record === null ? null : (record['citizenship'] ?? record['incorporation_state'] ?? null),
    problems: applicant.problems,
    applications: applicant.applications,
    fetchedAt: applicant.fetchedAt,
  };
}

export async function listApplicants(context: CommandContext): Promise<number> {
  const services = await context.open();
  const profile = await context.profile(services, false);
  const { options } = context.arguments;
  const search = typeof options.search === 'string' ? options.search : undefined;
  const limit = typeof options.limit === 'string' ? Number(options.limit) : undefined;
  const applicants = services.cache.applicants.list({
    profileId: profile.id,
    ...(search === undefined ? {} : { search }),
    ...(limit === undefined || !Number.isFinite(limit) ? {} : { limit }),
  });
  const shown = applicants.map(shownApplicant);
  if (context.arguments.json) {
    context.printJson({ profile: profile.name, source: 'cache', masked: true, rows: shown });
    return 0;
  }
  const total = services.cache.applicants.count(profile.id);
  context.print(
    `${String(shown.length)} of ${total.toLocaleString('en-US')} applicants from the offline cache${search === undefined ? '' : ` matching "${search}"`} (personal data masked).`,
  );
  if (shown.length > 0) {
    context.print(
      table(
        ['ID', 'KIND', 'NAME', 'BORN', 'EMAIL', 'PHONE', 'APPLICATIONS', 'STATE'],
        shown.map((row) => [
          text(row['id']),
          text(row['kind']),
          text(row['name']),
          text(row['dateOfBirth']),
          text(row['email']),
          text(row['phone']),
          String((row['applications'] as unknown[]).length),
          STATE_WORDS[row['state'] as keyof typeof STATE_WORDS],
        ]),
      ),
    );
  }
  return 0;
}
