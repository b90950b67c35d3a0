/**
 * What a review of an account application remembers (issue 24): the application together with
 * the people and business it names, so "changed since review" notices an applicant's new
 * address or a status change even when the application itself did not move.
 *
 * A review's record is shown back to the officer (what changed, field by field) and can go into
 * a report: applicants are kept in it masked (personal data masked until revealed, everywhere).
 * A change to a masked field would then be invisible, so each applicant also carries a keyed
 * digest of its personal fields: `personal_data` changes when any of them does, without saying
 * what they were. Its digest covers the application's and every applicant's stored digest, so
 * comparing a review with the cache still opens no sealed body.
 */
import type { DatabaseSync } from 'node:sqlite';
import { maskApplicantRecord } from '../../../shared/personalData/masking.ts';
import { applicantIdentityOf } from '../cache/applicantsTable.ts';
import type { RecordSealer } from '../cache/sealing.ts';
import { Statements } from '../cache/statements.ts';
import { personalFieldsOf, personalValueOf } from '../applicants/applicantView.ts';

interface LinkRow {
  application_id: string;
  applicant_id: string;
  roles: string;
  state: string | null;
  body_digest: string | null;
  body: Uint8Array | null;
}

const LINKS_SQL = `SELECT link.application_id, link.applicant_id, link.roles, a.state, a.body_digest,
    CASE WHEN ? THEN a.body ELSE NULL END AS body
  FROM application_applicants AS link
  LEFT JOIN applicants AS a ON a.profile_id = link.profile_id AND a.applicant_id = link.applicant_id
  WHERE link.profile_id = ? AND link.application_id IN (SELECT value FROM json_each(?))
  ORDER BY link.application_id, link.applicant_id`;

export class ApplicationSnapshots {
  readonly #sealer: () => RecordSealer;
  readonly #statements: Statements;

  constructor(database: DatabaseSync, sealer: () => RecordSealer) {
    this.#sealer = sealer;
    this.#statements = new Statements(database);
  }

  /** The digest of an application with its applicants, from the digests the cache keeps. */
  digestOf(
    applicationDigest: string,
    links: readonly Pick<LinkRow, 'applicant_id' | 'state' | 'body_digest'>[],
  ): string {
    const parts = links.map((link) => `${link.applicant_id}:${link.state ?? 'unfetched'}:${link.body_digest ?? ''}`);
    return this.#sealer().keyedHash(`review-application: ${applicationDigest} ${parts.join(' ')}`, 12);
  }

  /** The digests of these applications with their applicants, by application id. */
  digests(profileId: string, applicationDigests: ReadonlyMap<string, string>): Map<string, string> {
    const links = this.#links(profileId, [...applicationDigests.keys()], false);
    const digests = new Map<string, string>();
    for (const [applicationId, digest] of applicationDigests)
      digests.set(applicationId, this.digestOf(digest, links.get(applicationId) ?? []));
    return digests;
  }

  /** The applicants of these applications as a review keeps them (masked, with the digest of their personal data). */
  applicantsOf(
    profileId: string,
    applicationIds: readonly string[],
  ): Map<string, { links: LinkRow[]; applicants: Record<string, unknown> }> {
    const sealer = this.#sealer();
    const result = new Map<string, { links: LinkRow[]; applicants: Record<string, unknown> }>();
    for (const [applicationId, links] of this.#links(profileId, applicationIds, true)) {
      const applicants: Record<string, unknown> = {};
      for (const link of links) {
        const roles = JSON.parse(link.roles) as string[];
        if (link.body === null) {
          applicants[link.applicant_id] = { roles, state: link.state ?? 'not fetched' };
          continue;
        }
        const record = sealer.openJson(link.body, applicantIdentityOf(profileId, link.applicant_id)) as Record<
          string,
          unknown
        >;
        const personal = personalFieldsOf(record).map((field) => [field, personalValueOf(record, field)]);
        applicants[link.applicant_id] = {
          roles,
          state: link.state,
          ...maskApplicantRecord(record),
          personal_data: sealer.keyedHash(`review-personal: ${JSON.stringify(personal)}`, 6),
        };
      }
      result.set(applicationId, { links, applicants });
    }
    return result;
  }

  #links(profileId: string, applicationIds: readonly string[], withBodies: boolean): Map<string, LinkRow[]> {
    const rows = this.#statements
      .get(LINKS_SQL)
      .all(withBodies ? 1 : 0, profileId, JSON.stringify(applicationIds)) as unknown as LinkRow[];
    const byApplication = new Map<string, LinkRow[]>();
    for (const row of rows) {
      const list = byApplication.get(row.application_id) ?? [];
      list.push(row);
      byApplication.set(row.application_id, list);
    }
    return byApplication;
  }
}
