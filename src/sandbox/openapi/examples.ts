/**
 * One example of every schema of the OpenAPI document, all describing the same small bank:
 * a file uploaded, a document made from it, card art, an ACH and its pending transaction, a
 * webhook and one delivery. Typed with the resources' own types here, and parsed with their
 * own schemas by tests/unit/sandbox/openApiExamples.test.ts, so an example cannot drift from
 * the definition it illustrates (the document is generated; its examples are written).
 */
import type {
  Account,
  AccountApplication,
  AccountApplicationCreateRequest,
  Ach,
  BusinessApplication,
  BusinessApplicationCreateRequest,
  CardArtUploadRequest,
  CardProduct,
  Document,
  DocumentCreateRequest,
  ErrorBody,
  FileRecord,
  OrganizationSettings,
  OrganizationSettingsUpdate,
  PendingTransaction,
  PersonApplication,
  PersonApplicationCreateRequest,
  SimulationAccepted,
  SimulationRequest,
  SmartRetriesApproval,
  TokenRequest,
  TokenResponse,
  Transaction,
  Webhook,
  WebhookCreateRequest,
  WebhookNotification,
  WebhookSend,
  WebhookUpdateRequest,
} from '../../shared/bank/index.ts';

/** Where the examples' bank lives: a sandbox's address as the real service would give it. */
export const EXAMPLE_BASE_URL = 'https://sandbox.bank.example';

export const EXAMPLE_IDS = {
  account: 'acct_0f3k9q2m7x1d5s',
  ach: 'ach_4n8w2c6r0t5y1u',
  file: 'file_7b2d9k4m1q8x3z',
  document: 'doc_5h1j8v3n6p2w9e',
  cardProduct: 'cdpt_2r7t4y9u1i6o3p',
  accountApplication: 'aact_9a4s7d2f5g8h1j',
  webhook: 'wh_3k6l9z2x5c8v1b',
  webhookSend: 'whsend_8m1n4b7v0c3x6z',
  personApplication: 'apsn_5t8y1u4i7o0p2a',
  businessApplication: 'abus_1z4x7c0v3b6n9m',
  transaction: 'ttx_6c9v2b5n8m1q4w',
} as const;

const CREATED_AT = '2026-03-02T14:05:09Z';
const UPDATED_AT = '2026-03-02T14:06:41Z';

const account: Account = {
  id: EXAMPLE_IDS.account,
  name: 'Operating account',
  account_number: '528634472884',
  status: 'open',
  balance: '15230.55',
  available_balance: '15105.55',
  currency: 'USD',
  created_at: '2025-11-20T09:00:00Z',
  updated_at: UPDATED_AT,
};

const pendingTransaction: PendingTransaction = {
  account_id: EXAMPLE_IDS.account,
  ach_id: EXAMPLE_IDS.ach,
  amount: '-125.00',
  balance: '15105.55',
  billpay_payment_id: null,
  book_id: null,
  card_id: null,
  category: null,
  check_id: null,
  check_number: null,
  date: '2026-03-02',
  desc: 'ACH debit: Acme Payroll',
  extended_timestamp: CREATED_AT,
  extended_timestamp_precise: '2026-03-02T14:05:09.417Z',
  fednow_id: null,
  partner_deposit_id: null,
  incoming_ach_id: null,
  incoming_wire_id: null,
  issued_check_id: null,
  network_transfer_id: null,
  related_transfer_ids: [],
  summary: 'Acme Payroll',
  trace_id: null,
  type: 'withdrawal',
  type_source: 'ach',
  wire_id: null,
};

const file: FileRecord = {
  id: EXAMPLE_IDS.file,
  content_type: 'image/png',
  content_length: 48213,
  content_hash: '2fd4e1c67a2d28fced849ee1bb76e7391b93eb12',
  content_url: `${EXAMPLE_BASE_URL}/file/${EXAMPLE_IDS.file}/content`,
  created_at: CREATED_AT,
  updated_at: CREATED_AT,
};

const documentCreateRequest: DocumentCreateRequest = {
  type: 'drivers_license',
  name: 'Driver license, front',
  file_id: EXAMPLE_IDS.file,
  fields: { date_of_birth: '1990-04-12' },
  userdata: { case: 'onboarding-1182' },
};

const document: Document = {
  id: EXAMPLE_IDS.document,
  type: 'drivers_license',
  name: 'Driver license, front',
  file_id: EXAMPLE_IDS.file,
  fields: { date_of_birth: '1990-04-12' },
  bankdata: {},
  userdata: { case: 'onboarding-1182' },
  bank_id: 'bank_sandbox',
  organization_id: 'org_sandbox',
  description: null,
  created_at: CREATED_AT,
  updated_at: CREATED_AT,
};

const cardArtUploadRequest: CardArtUploadRequest = { asset_type: 'front', file_id: EXAMPLE_IDS.file };

const cardProduct: CardProduct = {
  id: EXAMPLE_IDS.cardProduct,
  type: 'physical',
  status: 'active',
  card_front_image_file_id: EXAMPLE_IDS.file,
  card_back_image_file_id: null,
  userdata: null,
  created_at: '2025-11-20T09:00:00Z',
  updated_at: UPDATED_AT,
  name: 'Debit card',
  card_art: { front: EXAMPLE_IDS.file, back: null, thumbnail: null },
};

const accountApplication: AccountApplication = {
  id: EXAMPLE_IDS.accountApplication,
  account_id: null,
  account_number: null,
  account_number_reservation_id: null,
  account_product_id: 'apt_6q1w8e3r5t2y7u',
  bankdata: null,
  business_application_id: null,
  deposit_id: 'adpt_1z4x7c0v3b6n9m',
  ownership_type: 'personal',
  person_applications: [{ id: 'apsn_5t8y1u4i7o0p2a', roles: ['owner', 'signer'] }],
  primary_person_application_id: 'apsn_5t8y1u4i7o0p2a',
  product: null,
  status: 'kyc',
  userdata: null,
  created_at: CREATED_AT,
  updated_at: UPDATED_AT,
};

/** The applicant the account application names (the real service's; not in the interface). */
const applicantAddress = {
  street_line_1: '1200 Example Avenue NW',
  city: 'Washington',
  state: 'DC',
  postal_code: '20005',
};

const personApplicationCreateRequest: PersonApplicationCreateRequest = {
  first_name: 'Dana',
  last_name: 'Okafor',
  date_of_birth: '1990-04-12',
  email_address: 'dana.okafor@example.org',
  phone_number: '2025550143',
  citizenship: 'US',
  physical_address: applicantAddress,
};

const personApplication: PersonApplication = {
  id: EXAMPLE_IDS.personApplication,
  first_name: 'Dana',
  middle_name: null,
  last_name: 'Okafor',
  date_of_birth: '1990-04-12',
  email_address: 'dana.okafor@example.org',
  phone_number: '2025550143',
  citizenship: 'US',
  physical_address: applicantAddress,
  mailing_address: null,
  document_ids: [EXAMPLE_IDS.document],
  userdata: null,
  bankdata: null,
  created_at: CREATED_AT,
  updated_at: CREATED_AT,
};

const businessAddress = { ...applicantAddress, country: 'US' };

const businessApplicationCreateRequest: BusinessApplicationCreateRequest = {
  name: 'Okafor Office Supply LLC',
  established_on: '2018-08-01',
  incorporation_state: 'DE',
  legal_structure: 'llc',
  tin: '11-3344555',
  naics: '42',
  naics_description: 'Wholesale Trade',
  phone_number: '+1 202-555-0143',
  urls: ['https://okafor-supply.example.org'],
  physical_address: businessAddress,
  person_applications: [
    { id: EXAMPLE_IDS.personApplication, roles: ['control_person', 'signer'], ownership_percentage: 100, title: 'CEO' },
  ],
  document_ids: [EXAMPLE_IDS.document],
};

const businessApplication: BusinessApplication = {
  id: EXAMPLE_IDS.businessApplication,
  name: 'Okafor Office Supply LLC',
  dba: null,
  description: null,
  established_on: '2018-08-01',
  incorporation_state: 'DE',
  legal_structure: 'llc',
  tin: '11-3344555',
  identification_number: null,
  identification_number_type: null,
  naics: '42',
  naics_description: 'Wholesale Trade',
  phone_number: '+1 202-555-0143',
  urls: ['https://okafor-supply.example.org'],
  physical_address: businessAddress,
  mailing_address: null,
  person_applications: [
    { id: EXAMPLE_IDS.personApplication, roles: ['control_person', 'signer'], ownership_percentage: 100, title: 'CEO' },
  ],
  document_ids: [EXAMPLE_IDS.document],
  bank_id: 'bank_sandbox',
  bankdata: null,
  userdata: null,
  created_at: CREATED_AT,
  updated_at: CREATED_AT,
};

const accountApplicationCreateRequest: AccountApplicationCreateRequest = {
  primary_person_application_id: EXAMPLE_IDS.personApplication,
  account_product_id: 'apt_6q1w8e3r5t2y7u',
  person_applications: [{ id: EXAMPLE_IDS.personApplication, roles: ['owner', 'signer'] }],
};

/** A posted entry: the ACH debit once it settled (the real service's; not in the interface). */
const transaction: Transaction = {
  id: EXAMPLE_IDS.transaction,
  amount: '-125.00',
  balance: '15105.55',
  date: '2026-03-03',
  desc: 'ACH debit: Acme Payroll',
  summary: 'Acme Payroll',
  type: 'withdrawal',
  type_source: 'ach',
  ach_id: EXAMPLE_IDS.ach,
  billpay_payment_id: null,
  book_id: null,
  check_id: null,
  check_number: null,
  wire_id: null,
  wire: null,
  trace_id: null,
  fingerprint: EXAMPLE_IDS.transaction,
};

const ach: Ach = {
  id: EXAMPLE_IDS.ach,
  account_id: EXAMPLE_IDS.account,
  amount: '125.00',
  direction: 'debit',
  status: 'processing',
  created_at: CREATED_AT,
  updated_at: UPDATED_AT,
};

const webhookCreateRequest: WebhookCreateRequest = {
  event: 'ach.update',
  url: 'https://hooks.example.org/bank',
  basic_user: 'bank',
  basic_secret: 'a-long-random-secret',
};

const webhookUpdateRequest: WebhookUpdateRequest = { status: 'enabled' };

const webhook: Webhook = {
  id: EXAMPLE_IDS.webhook,
  event: 'ach.update',
  url: 'https://hooks.example.org/bank',
  status: 'enabled',
  error: null,
  basic_user: 'bank',
  basic_secret: null,
  userdata: null,
  created_at: CREATED_AT,
  updated_at: CREATED_AT,
};

const webhookNotification: WebhookNotification = {
  event: 'ach.update',
  op: 'update',
  id: EXAMPLE_IDS.ach,
  url: `${EXAMPLE_BASE_URL}/ach/${EXAMPLE_IDS.ach}`,
};

const webhookSend: WebhookSend = {
  id: EXAMPLE_IDS.webhookSend,
  webhook_id: EXAMPLE_IDS.webhook,
  object_id: EXAMPLE_IDS.ach,
  event: 'ach.update',
  operation: 'update',
  status: 'error',
  attempt_number: 0,
  will_retry: true,
  error: 'answered HTTP 500; only 200 and 202 count as delivered',
  created_at: UPDATED_AT,
};

const error: ErrorBody = { error: 'Invalid request body: name: must not be empty.' };

const tokenRequest: TokenRequest = { expires_in: 3600 };

const tokenResponse: TokenResponse = {
  access_token:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJrZXlfc2FuZGJveCIsImlhdCI6MTc3MjQ2MDMwOSwiZXhwIjoxNzcyNDYzOTA5fQ.c2lnbmF0dXJlLW9mLXRoZS1leGFtcGxlLXRva2Vu',
  token_type: 'Bearer',
  expires_in: 3600,
};

/** One of each simulation, in SIMULATION_TYPES order. */
const simulationRequests: SimulationRequest[] = [
  { type: 'ach.create', simulation: { account_id: EXAMPLE_IDS.account, amount: '125.00', direction: 'debit' } },
  { type: 'ach.update_status', simulation: { ach_id: EXAMPLE_IDS.ach, status: 'processing' } },
  {
    type: 'account.pending_transaction',
    simulation: { account_id: EXAMPLE_IDS.account, amount: '-42.10', type: 'charge', desc: 'Card purchase' },
  },
  {
    type: 'account_application.update_status',
    simulation: { account_application_id: EXAMPLE_IDS.accountApplication, status: 'kyc' },
  },
  { type: 'account_application.create', simulation: { ownership_type: 'personal' } },
  {
    type: 'person_application.update',
    simulation: { person_application_id: EXAMPLE_IDS.personApplication, phone_number: '2025550199' },
  },
  { type: 'webhook.error', simulation: { webhook_id: EXAMPLE_IDS.webhook, reason: 'too many failed deliveries' } },
];

const simulationAccepted: SimulationAccepted = {
  type: 'ach.update_status',
  object_id: EXAMPLE_IDS.ach,
  status: 'processing',
};

const organizationSettings: OrganizationSettings = {
  organization_id: 'org_sandbox',
  organization_type: 'fintech',
  smart_retries: 'pending_approval',
};

const organizationSettingsUpdate: OrganizationSettingsUpdate = { smart_retries: true };

const smartRetriesApproval: SmartRetriesApproval = { approved: true };

/**
 * The examples of each component schema, by the component's name (a JSON Schema `examples`
 * array: most have one; the simulation request has one per type).
 */
export const SCHEMA_EXAMPLES = {
  PendingTransaction: [pendingTransaction],
  Document: [document],
  DocumentCreateRequest: [documentCreateRequest],
  CardArtUploadRequest: [cardArtUploadRequest],
  CardArtUploadResponse: [{}],
  CardProduct: [cardProduct],
  AccountApplication: [accountApplication],
  AccountApplicationCreateRequest: [accountApplicationCreateRequest],
  PersonApplication: [personApplication],
  PersonApplicationCreateRequest: [personApplicationCreateRequest],
  BusinessApplication: [businessApplication],
  BusinessApplicationCreateRequest: [businessApplicationCreateRequest],
  Transaction: [transaction],
  Account: [account],
  Ach: [ach],
  File: [file],
  Webhook: [webhook],
  WebhookCreateRequest: [webhookCreateRequest],
  WebhookUpdateRequest: [webhookUpdateRequest],
  WebhookNotification: [webhookNotification],
  WebhookSend: [webhookSend],
  Error: [error],
  TokenRequest: [tokenRequest],
  TokenResponse: [tokenResponse],
  SimulationRequest: simulationRequests,
  SimulationAccepted: [simulationAccepted],
  OrganizationSettings: [organizationSettings],
  OrganizationSettingsUpdate: [organizationSettingsUpdate],
  SmartRetriesApproval: [smartRetriesApproval],
} as const satisfies Readonly<Record<string, readonly unknown[]>>;

export type ExampleName = keyof typeof SCHEMA_EXAMPLES;

/** The first (or only) example of a component. */
export function exampleOf(name: ExampleName): unknown {
  return SCHEMA_EXAMPLES[name][0];
}
