/**
 * Fills a fresh data file with a deterministic bank: the same seed always gives the same ids,
 * amounts and timestamps. Pending transactions go in by batches of one transaction each, so
 * a million rows take seconds, not minutes.
 */
import { createHash } from 'node:crypto';
import type {
  Account,
  AccountApplication,
  AccountApplicationStatus,
  Ach,
  BusinessApplication,
  CardProduct,
  Document,
  FileRecord,
  PersonApplication,
} from '../../shared/bank/index.ts';
import { ACCOUNT_APPLICATION_STATUSES, ACH_STATUSES } from '../../shared/bank/index.ts';
import { SANDBOX_BANK_ID, SANDBOX_ORGANIZATION_ID } from '../bankIdentity.ts';
import { seededRandom, type SeededRandom } from '../random.ts';
import { inTransaction, type Database } from '../store/database.ts';
import type { FileContentStore } from '../store/fileContentStore.ts';
import type { PendingTransactionStore } from '../store/pendingTransactionStore.ts';
import type { RecordKind, RecordStore } from '../store/records.ts';
import { microsOf, secondsTimestampOf } from './clock.ts';
import { moneyOf } from './money.ts';
import { pendingTransactionSeeder } from './pendingTransactionSeed.ts';
import { solidPng } from './pngImage.ts';
import { specimenScans } from './specimenScans.ts';

export interface SeedPlan {
  seed: number;
  accounts: number;
  pendingTransactionsPerAccount: number;
}

export interface DemoIds {
  accounts: string[];
  accountApplications: string[];
  cardProducts: string[];
  files: string[];
  documents: string[];
  achs: string[];
  /** The applicants the seeded applications name (absent in data files seeded before they were). */
  personApplications: string[];
  /** The businesses the seeded business applications name (absent in data files seeded before they were). */
  businessApplications: string[];
}

/** Seeded data ends here: fixed, so a seed means the same bank on every machine and day. */
const SEED_END = new Date('2025-12-31T23:00:00Z');
const SEED_END_MICROS = microsOf(SEED_END);
const BATCH_ROWS = 20_000;

function timestampBefore(random: SeededRandom, maxDaysAgo: number): string {
  return secondsTimestampOf(SEED_END_MICROS - random.integer(60, maxDaysAgo * 86_400) * 1_000_000);
}

/**
 * Records of one kind go in oldest first, so lists (newest first by insertion) read
 * naturally; their demo ids keep the order they were declared in (documented in the README).
 */
function insertAll(
  records: RecordStore,
  kind: RecordKind,
  items: readonly { id: string; created_at: string }[],
  demoIds: string[],
): void {
  demoIds.push(...items.map((item) => item.id));
  const oldestFirst = [...items].sort((left, right) => left.created_at.localeCompare(right.created_at));
  for (const item of oldestFirst) records.insert(kind, item.id, item.created_at, item);
}

function fileOf(random: SeededRandom, bytes: Buffer, contentType: string): { record: FileRecord; bytes: Buffer } {
  const created = timestampBefore(random, 120);
  return {
    record: {
      id: random.id('file'),
      content_type: contentType,
      content_length: bytes.length,
      content_hash: createHash('sha1').update(bytes).digest('hex'),
      content_url: null,
      created_at: created,
      updated_at: created,
    },
    bytes,
  };
}

export async function seedBank(
  database: Database,
  records: RecordStore,
  fileContents: FileContentStore,
  pendingTransactions: PendingTransactionStore,
  plan: SeedPlan,
): Promise<DemoIds> {
  const random = seededRandom(plan.seed);
  const demo: DemoIds = {
    accounts: [],
    accountApplications: [],
    cardProducts: [],
    files: [],
    documents: [],
    achs: [],
    personApplications: [],
    businessApplications: [],
  };

  // Accounts and their pending transactions.
  const accountIds = Array.from({ length: plan.accounts }, () => random.id('account'));
  for (const [index, accountId] of accountIds.entries()) {
    let position = 0;
    const seeder = pendingTransactionSeeder(random, accountId, plan.pendingTransactionsPerAccount, SEED_END_MICROS);
    let more: boolean;
    do {
      more = inTransaction(database, () =>
        seeder.next(BATCH_ROWS, (row) => {
          position += 1;
          pendingTransactions.insertAt(accountId, position, row.micros, JSON.stringify(row.transaction));
        }),
      );
      // Between batches the event loop runs: a Ctrl+C is heard, timers fire, a large seed is not one long freeze.
      await new Promise((resolve) => setImmediate(resolve));
    } while (more);
    const summary = seeder.summary();
    const created = secondsTimestampOf(
      SEED_END_MICROS - (plan.pendingTransactionsPerAccount + 400) * 20 * 60 * 1_000_000,
    );
    const account: Account = {
      id: accountId,
      name: ['Operating account', 'Payroll account', 'Reserve account', 'Card settlement'][index % 4] ?? 'Account',
      account_number: String(random.integer(100_000_000, 999_999_999)) + String(random.integer(100, 999)),
      status: 'open',
      balance: moneyOf(summary.balanceCents),
      available_balance: moneyOf(summary.balanceCents - summary.heldCents),
      currency: 'USD',
      created_at: created,
      updated_at: secondsTimestampOf(summary.lastMicros),
    };
    inTransaction(database, () => {
      records.insert('account', account.id, account.created_at, account);
    });
    demo.accounts.push(accountId);
  }

  inTransaction(database, () => {
    // Files: card art (real PNGs), and scans that documents refer to.
    const files = [
      fileOf(random, solidPng(48, 30, [22, 66, 120]), 'image/png'),
      fileOf(random, solidPng(48, 30, [200, 200, 210]), 'image/png'),
      fileOf(random, solidPng(16, 10, [22, 66, 120]), 'image/png'),
      // Specimens drawn by code (specimenScans.ts), so previews of seeded documents really draw.
      fileOf(random, specimenScans().passport, 'image/png'),
      fileOf(random, specimenScans().license, 'application/pdf'),
    ];
    // Demo order: front, back and thumbnail PNGs, a PNG scan, a PDF scan.
    insertAll(
      records,
      'file',
      files.map((entry) => entry.record),
      demo.files,
    );
    for (const file of files) fileContents.put(file.record.id, file.bytes);
    const [front, back, thumbnail, passportScan, licenseScan] = files.map((file) => file.record.id);

    // Card products: one with its art uploaded, one without.
    const products: CardProduct[] = [
      {
        id: random.id('cardProduct'),
        name: 'Consumer Debit Classic',
        type: 'physical',
        status: 'active',
        card_front_image_file_id: front ?? null,
        card_back_image_file_id: back ?? null,
        userdata: null,
        card_art: { front: front ?? null, back: back ?? null, thumbnail: thumbnail ?? null },
        created_at: timestampBefore(random, 200),
        updated_at: timestampBefore(random, 30),
      },
      {
        id: random.id('cardProduct'),
        name: 'Business Debit',
        type: 'virtual',
        status: 'active',
        card_front_image_file_id: null,
        card_back_image_file_id: null,
        userdata: null,
        card_art: { front: null, back: null, thumbnail: null },
        created_at: timestampBefore(random, 200),
        updated_at: timestampBefore(random, 30),
      },
    ];
    for (const product of products) {
      if (product.updated_at < product.created_at) product.updated_at = product.created_at;
    }
    insertAll(records, 'card_product', products, demo.cardProducts);

    // Documents pointing at the scans.
    const documents: Document[] = [
      { type: 'passport' as const, name: 'Passport of Ada Lovelace', file: passportScan },
      { type: 'drivers_license' as const, name: "Driver's license of Alan Turing", file: licenseScan },
    ].map((entry) => {
      const created = timestampBefore(random, 60);
      return {
        id: random.id('document'),
        type: entry.type,
        name: entry.name,
        file_id: entry.file ?? '',
        fields: {
          date_of_birth: `19${String(random.integer(50, 99))}-0${String(random.integer(1, 9))}-1${String(random.integer(0, 9))}`,
        },
        bankdata: {},
        userdata: {},
        bank_id: SANDBOX_BANK_ID,
        organization_id: SANDBOX_ORGANIZATION_ID,
        description: null,
        created_at: created,
        updated_at: created,
      };
    });
    insertAll(records, 'document', documents, demo.documents);

    // Account applications in every status, personal and business.
    const applications: AccountApplication[] = [];
    let approvedIndex = 0;
    for (const status of ACCOUNT_APPLICATION_STATUSES) {
      for (const ownership of ['personal', 'personal', 'business'] as const) {
        applications.push(
          applicationOf(random, status, ownership, () => accountIds[approvedIndex++ % accountIds.length] ?? null),
        );
      }
    }
    // Demo order: three per status (personal, personal, business) in the order of the spec's list.
    insertAll(records, 'account_application', applications, demo.accountApplications);

    // ACH transfers in every status.
    const achs: Ach[] = ACH_STATUSES.map((status, index) => {
      const created = timestampBefore(random, 20);
      return {
        id: random.id('ach'),
        account_id: accountIds[index % accountIds.length] ?? '',
        amount: moneyOf(random.integer(1_000, 500_000)),
        direction: random.pick(['credit', 'debit'] as const),
        status,
        created_at: created,
        updated_at: created,
      };
    });
    insertAll(records, 'ach', achs, demo.achs);

    // The applicants the applications name, so new applications can be made for them. Last, so
    // the ids made before stay what they were before applicants were seeded.
    const applicantIds = [
      ...new Set(
        applications.flatMap((application) => [
          application.primary_person_application_id,
          ...(application.person_applications ?? []).map((person) => person.id),
        ]),
      ),
    ];
    const people = applicantIds.map((id) => personApplicationOf(random, id));

    // Then the businesses the business applications name, and the documents linked to people
    // and businesses (an identity document each; formation papers for a business), as the real
    // service links them (`document_ids`). After everything above, so no earlier id changes.
    const businesses = applications.flatMap((application) =>
      application.business_application_id === null
        ? []
        : [
            businessApplicationOf(
              random,
              application.business_application_id,
              application.primary_person_application_id,
            ),
          ],
    );
    const linked: Document[] = [];
    for (const person of people) {
      const passport = random.chance(0.5);
      const identity = linkedDocumentOf(random, {
        type: passport ? 'passport' : 'drivers_license',
        name: `${passport ? 'Passport' : "Driver's license"} of ${person.first_name} ${person.last_name}`,
        fileId: (passport ? passportScan : licenseScan) ?? '',
        fields: { date_of_birth: person.date_of_birth },
      });
      person.document_ids = [identity.id];
      linked.push(identity);
    }
    for (const business of businesses) {
      const formation = linkedDocumentOf(random, {
        type: 'other',
        name: `Certificate of formation of ${business.name}`,
        fileId: licenseScan ?? '',
        fields: { established_on: business.established_on },
      });
      business.document_ids = [formation.id];
      linked.push(formation);
    }
    insertAll(records, 'document', linked, demo.documents);
    insertAll(records, 'person_application', people, demo.personApplications);
    insertAll(records, 'business_application', businesses, demo.businessApplications);
  });
  return demo;
}

const FIRST_NAMES = ['Ada', 'Alan', 'Grace', 'Edsger', 'Barbara', 'Donald', 'Frances', 'John'] as const;
const LAST_NAMES = ['Lovelace', 'Turing', 'Hopper', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Backus'] as const;

function personApplicationOf(random: SeededRandom, id: string): PersonApplication {
  const created = timestampBefore(random, 120);
  const first = random.pick(FIRST_NAMES);
  const last = random.pick(LAST_NAMES);
  return {
    id,
    first_name: first,
    middle_name: null,
    last_name: last,
    date_of_birth: `19${String(random.integer(50, 99))}-0${String(random.integer(1, 9))}-1${String(random.integer(0, 9))}`,
    email_address: `${first}.${last}@example.com`.toLowerCase(),
    phone_number: `202555${String(random.integer(1000, 9999))}`,
    citizenship: 'US',
    physical_address: {
      street_line_1: `${String(random.integer(1, 999))} Main St`,
      city: 'Washington',
      state: 'DC',
      postal_code: '20500',
    },
    mailing_address: null,
    document_ids: [],
    userdata: null,
    bankdata: null,
    created_at: created,
    updated_at: created,
  };
}

const BUSINESS_NAMES = ['Analytical Engines', 'Compiler Works', 'Semaphore Supply', 'Typesetting Guild'] as const;
const LEGAL_STRUCTURES = ['llc', 'ccorp', 'scorp', 'partnership', 'sole_proprietorship'] as const;

function businessApplicationOf(random: SeededRandom, id: string, personId: string): BusinessApplication {
  const created = timestampBefore(random, 120);
  const name = `${random.pick(BUSINESS_NAMES)} ${random.pick(['LLC', 'Inc', 'Co'] as const)}`;
  const address = {
    street_line_1: `${String(random.integer(1, 999))} K St NW`,
    city: 'Washington',
    state: 'DC',
    postal_code: '20006',
    country: 'US',
  };
  return {
    id,
    name,
    dba: random.chance(0.3) ? (name.split(' ')[0] ?? null) : null,
    description: 'Sells and services office machinery.',
    established_on: `20${String(random.integer(10, 23))}-0${String(random.integer(1, 9))}-1${String(random.integer(0, 9))}`,
    incorporation_state: random.pick(['DE', 'DC', 'VA', 'MD'] as const),
    legal_structure: random.pick(LEGAL_STRUCTURES),
    tin: `${String(random.integer(10, 99))}-${String(random.integer(1_000_000, 9_999_999))}`,
    identification_number: null,
    identification_number_type: null,
    naics: '423420',
    naics_description: 'Office Equipment Merchant Wholesalers',
    phone_number: `+1 202-555-${String(random.integer(1000, 9999))}`,
    urls: ['https://business.example.com'],
    physical_address: address,
    mailing_address: random.chance(0.5)
      ? { ...address, street_line_1: `PO Box ${String(random.integer(100, 9999))}` }
      : null,
    person_applications: [
      { id: personId, roles: ['control_person', 'signer'], ownership_percentage: 100, title: 'Owner' },
    ],
    document_ids: [],
    bank_id: SANDBOX_BANK_ID,
    bankdata: null,
    userdata: null,
    created_at: created,
    updated_at: created,
  };
}

function linkedDocumentOf(
  random: SeededRandom,
  entry: { type: Document['type']; name: string; fileId: string; fields: Record<string, unknown> },
): Document {
  const created = timestampBefore(random, 120);
  return {
    id: random.id('document'),
    type: entry.type,
    name: entry.name,
    file_id: entry.fileId,
    fields: entry.fields,
    bankdata: {},
    userdata: {},
    bank_id: SANDBOX_BANK_ID,
    organization_id: SANDBOX_ORGANIZATION_ID,
    description: null,
    created_at: created,
    updated_at: created,
  };
}

function applicationOf(
  random: SeededRandom,
  status: AccountApplicationStatus,
  ownership: 'personal' | 'business',
  nextAccount: () => string | null,
): AccountApplication {
  const created = timestampBefore(random, 90);
  const primary = random.id('personApplication');
  const approved = status === 'approved';
  const accountId = approved ? nextAccount() : null;
  return {
    id: random.id('accountApplication'),
    account_id: accountId,
    account_number: approved ? String(random.integer(100_000_000, 999_999_999)) : null,
    account_number_reservation_id: random.chance(0.3) ? `ares_${random.id('transaction').slice(4)}` : null,
    account_product_id: random.id('accountProduct'),
    bankdata: random.chance(0.5) ? { risk_tier: random.pick(['low', 'medium', 'high']) } : null,
    business_application_id: ownership === 'business' ? random.id('businessApplication') : null,
    deposit_id: random.id('deposit'),
    ownership_type: ownership,
    // Always null for business accounts (spec §2.4).
    person_applications:
      ownership === 'business'
        ? null
        : [
            { id: primary, roles: ['owner', 'signer'] },
            ...(random.chance(0.4) ? [{ id: random.id('personApplication'), roles: ['signer' as const] }] : []),
          ],
    primary_person_application_id: primary,
    // Deprecated nickname of the product: older applications still carry one.
    product: random.chance(0.5) ? (ownership === 'business' ? 'business_checking' : 'personal_checking') : null,
    status,
    userdata: random.chance(0.5) ? { referral: random.pick(['web', 'branch', 'partner']) } : null,
    created_at: created,
    updated_at: created,
  };
}
