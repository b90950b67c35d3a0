/**
 * What names a cached applicant: its kind, and the identity its sealed body is bound to (the
 * sealer refuses a body moved to another applicant's row). Its own file because the applicants
 * table and the field digests both need it, and neither should import the other for it.
 */
export type ApplicantKind = 'person' | 'business';

export function applicantIdentityOf(profileId: string, applicantId: string): string {
  return `applicant\u0000${profileId}\u0000${applicantId}`;
}
