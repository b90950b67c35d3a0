/**
 * `npm run bench -- applicants`: the application book's reads (issue 24) over a large cache —
 * 100,000 applications by default (LEDGERDESK_BENCH_APPLICATIONS=N for another size), each
 * naming one of 20,000 people (so each person is named by 5 applications), sealed and indexed
 * as the book's sync writes them:
 *   1. searching the applications list by an applicant's full name (keyed word hashes, no
 *      record opened to find one), a page of 50 as the list handler reads it, p95 — against the
 *      same page with no search, in the same run;
 *   2. opening an applicant named by 5 applications, as `applicants.get` answers it (the
 *      sealed record opened, masked, its age counted, its 5 links), p95 — against opening one
 *      application by id.
 * No figure here is asserted by a test: targets are reported, met or not.
 */
import { applicantViewOf } from '../../src/main/services/applicants/applicantView.ts';
import { OfflineCache } from '../../src/main/services/cache/offlineCache.ts';
import { Statements } from '../../src/main/services/cache/statements.ts';
import { executeBatches } from '../../src/main/services/cache/writeBatch.ts';
import { Credentials } from '../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import type { AccountApplicationResponse } from '../../src/shared/bank/index.ts';
import { percentile, type BenchFigure, type Benchmark } from './benchmark.ts';
import { temporaryFolder } from './sandboxChild.ts';

const APPLICATIONS = Number(process.env['LEDGERDESK_BENCH_APPLICATIONS'] ?? 100_000);
const NAMED_BY = 5;
const PEOPLE = Math.ceil(APPLICATIONS / NAMED_BY);
const PROFILE = 'bench';
const ROUNDS = 300;
const CHUNK = 1_000;

const FIRST = ['Frances', 'Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Margaret', 'Ken', 'Radia'];
const LAST = [
  'Knuth',
  'Lovelace',
  'Hopper',
  'Turing',
  'Dijkstra',
  'Liskov',
  'Hamilton',
  'Thompson',
  'Perlman',
  'Ritchie',
];

/** A unique full name per person: a first and a last name, and a number as a middle word. */
function nameOf(n: number): { first: string; middle: string; last: string } {
  return {
    first: FIRST[n % 10] ?? 'Ada',
    middle: `M${n.toString(36)}`,
    last: LAST[Math.floor(n / 10) % 10] ?? 'Knuth',
  };
}

function personOf(n: number): Record<string, unknown> {
  const name = nameOf(n);
  return {
    id: `apsn_bench${String(n)}`,
    first_name: name.first,
    middle_name: name.middle,
    last_name: name.last,
    date_of_birth: `19${String(50 + (n % 50))}-0${String(1 + (n % 9))}-1${String(n % 10)}`,
    email_address: `${name.first.toLowerCase()}.${name.middle.toLowerCase()}@example.com`,
    phone_number: `202555${String(n % 10_000).padStart(4, '0')}`,
    citizenship: 'US',
    physical_address: { street_line_1: `${String(n)} Main St`, city: 'Washington', state: 'DC', postal_code: '20500' },
    mailing_address: null,
    document_ids: null,
    userdata: null,
    bankdata: null,
    created_at: '2025-06-01T00:00:00Z',
    updated_at: '2025-06-01T00:00:00Z',
  };
}

function applicationOf(n: number): AccountApplicationResponse {
  const person = `apsn_bench${String(n % PEOPLE)}`;
  const created = new Date(Date.UTC(2025, 11, 31) - n * 60_000).toISOString();
  return {
    id: `aact_bench${String(n)}`,
    account_id: null,
    account_number: null,
    account_number_reservation_id: null,
    account_product_id: 'apt_bench',
    bankdata: null,
    business_application_id: null,
    deposit_id: `dep_${String(n)}`,
    ownership_type: 'personal',
    person_applications: [{ id: person, roles: ['owner', 'signer'] }],
    primary_person_application_id: person,
    product: null,
    status: 'submitted',
    userdata: null,
    created_at: created,
    updated_at: created,
  };
}

function timed(samples: number[], work: () => unknown): void {
  const started = performance.now();
  work();
  samples.push(performance.now() - started);
}

const benchmark: Benchmark = {
  title: `Applicants over ${APPLICATIONS.toLocaleString('en-US')} cached applications and ${PEOPLE.toLocaleString('en-US')} people`,
  async run(): Promise<BenchFigure[]> {
    const temp = temporaryFolder('ledgerdesk-bench-applicants-');
    const cache = await OfflineCache.open({
      folder: temp.folder,
      credentials: new Credentials(new InMemorySecretStore()),
      writer: 'inline',
    });
    try {
      const statements = new Statements(cache.database);
      const fetchedAt = new Date().toISOString();
      const fillStarted = performance.now();
      for (let start = 0; start < PEOPLE; start += CHUNK) {
        const items = Array.from({ length: Math.min(CHUNK, PEOPLE - start) }, (_, index) => {
          const value = personOf(start + index);
          return { id: String(value['id']), ok: true as const, value };
        });
        executeBatches(
          cache.database,
          statements,
          cache.applicants.planReceived(PROFILE, 'person', items, fetchedAt).batches,
        );
      }
      for (let start = 0; start < APPLICATIONS; start += CHUNK) {
        const page = Array.from({ length: Math.min(CHUNK, APPLICATIONS - start) }, (_, index) =>
          applicationOf(start + index),
        );
        executeBatches(
          cache.database,
          statements,
          cache.accountApplications.planPage(PROFILE, page, fetchedAt).batches,
        );
      }
      const fillSeconds = (performance.now() - fillStarted) / 1000;
      cache.optimize();

      // 1. Search by an applicant's full name, against the same page unsearched.
      const searched: number[] = [];
      const plain: number[] = [];
      let found = 0;
      for (let round = 0; round < ROUNDS; round += 1) {
        const n = (round * 7_919) % PEOPLE;
        const name = nameOf(n);
        timed(searched, () => {
          found += cache.accountApplications.list({
            profileId: PROFILE,
            search: `${name.first} ${name.middle} ${name.last}`,
            limit: 50,
          }).rows.length;
        });
        timed(plain, () => cache.accountApplications.list({ profileId: PROFILE, limit: 50 }));
      }
      if (found !== ROUNDS * NAMED_BY)
        throw new Error(`the search found ${String(found)}, not ${String(ROUNDS * NAMED_BY)}`);

      // 2. Open an applicant named by 5 applications, against opening one application.
      const opened: number[] = [];
      const one: number[] = [];
      const today = new Date().toISOString().slice(0, 10);
      for (let round = 0; round < ROUNDS; round += 1) {
        const n = (round * 104_729) % PEOPLE;
        timed(opened, () => {
          const cached = cache.applicants.get(PROFILE, `apsn_bench${String(n)}`);
          if (cached?.applications.length !== NAMED_BY) throw new Error('an applicant without its 5 applications');
          return applicantViewOf(cached, today);
        });
        timed(one, () => cache.accountApplications.get(PROFILE, `aact_bench${String(n)}`));
      }

      const searchP95 = percentile(searched, 95);
      const openP95 = percentile(opened, 95);
      return [
        {
          name: `search ${APPLICATIONS.toLocaleString('en-US')} applications by applicant full name, page of 50, p95`,
          value: searchP95,
          unit: 'ms',
          baseline: { name: 'the same page unsearched, p95', value: percentile(plain, 95) },
          target: 'p95 ≤ 20 ms',
          met: searchP95 <= 20,
        },
        {
          name: `open an applicant named by ${String(NAMED_BY)} applications (masked view), p95`,
          value: openP95,
          unit: 'ms',
          baseline: { name: 'one application by id, p95', value: percentile(one, 95) },
          target: 'p95 ≤ 10 ms',
          met: openP95 <= 10,
        },
        {
          name: `filling the cache with ${PEOPLE.toLocaleString('en-US')} people and ${APPLICATIONS.toLocaleString('en-US')} applications, sealed and indexed`,
          value: (PEOPLE + APPLICATIONS) / fillSeconds,
          unit: 'records/s',
        },
      ];
    } finally {
      await cache.close();
      temp.remove();
    }
  },
};

export default benchmark;
