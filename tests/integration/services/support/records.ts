/** Bank records made up for cache tests: valid against the shared schemas, varied, repeatable. */
import type { AccountApplication, PendingTransaction, WebhookSend } from '../../../../src/shared/bank/index.ts';

const MERCHANTS = ['COFFEE SHOP', 'FUEL STATION', 'GROCERY MARKET', 'BOOK STORE', 'PHARMACY', 'RAILWAY TICKETS'];
const TYPES = ['charge', 'deposit', 'hold', 'payment', 'withdrawal'] as const;

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/** The n-th transaction of an account, newest first (n = 0 is the newest). */
export function pendingTransactionOf(accountId: string, n: number, total = 1000): PendingTransaction {
  const secondsAgo = n * 37;
  const moment = new Date(Date.UTC(2025, 11, 31, 23, 59, 59) - secondsAgo * 1000);
  const iso = moment.toISOString();
  const merchant = MERCHANTS[n % MERCHANTS.length] ?? 'SHOP';
  const cents = ((n * 7919) % 100000) - 20000;
  const amount = `${cents < 0 ? '-' : ''}${String(Math.floor(Math.abs(cents) / 100))}.${pad(Math.abs(cents) % 100, 2)}`;
  return {
    account_id: accountId,
    ach_id: null,
    amount,
    balance: `${String(100000 + total - n)}.00`,
    billpay_payment_id: null,
    book_id: null,
    card_id: `card_${pad(n % 13, 4)}`,
    category: null,
    check_id: null,
    check_number: null,
    date: iso.slice(0, 10),
    desc: `${merchant} ${pad(n, 6)}`,
    extended_timestamp: iso.slice(0, 19) + 'Z',
    extended_timestamp_precise: iso.slice(0, 19) + `.${pad(n % 1000000, 6)}Z`,
    fednow_id: null,
    partner_deposit_id: null,
    incoming_ach_id: null,
    incoming_wire_id: null,
    issued_check_id: null,
    network_transfer_id: null,
    related_transfer_ids: [],
    summary: merchant.toLowerCase().replace(/(^|\s)\S/g, (letter) => letter.toUpperCase()),
    trace_id: `trace_${pad(n, 8)}`,
    type: TYPES[n % TYPES.length] ?? 'charge',
    type_source: 'card',
    wire_id: null,
  };
}

const SEND_STATUSES = ['sent', 'sent', 'error', 'skipped'] as const;

export function webhookSendOf(n: number): WebhookSend {
  const status = SEND_STATUSES[n % SEND_STATUSES.length] ?? 'sent';
  const moment = new Date(Date.UTC(2025, 0, 1) + n * 1000);
  return {
    id: `whsend_${pad(n, 8)}`,
    webhook_id: `wh_${pad(n % 5, 3)}`,
    object_id: `ach_${pad(n % 97, 5)}`,
    event: 'ach.update',
    operation: 'update',
    status,
    attempt_number: n % 4,
    will_retry: status === 'error' && n % 4 < 3,
    error: status === 'error' ? 'HTTP 500 from the receiver' : null,
    created_at: moment.toISOString().slice(0, 19) + 'Z',
  };
}

export function accountApplicationOf(
  id: string,
  status: AccountApplication['status'],
  updatedAt: string,
): AccountApplication {
  return {
    id,
    account_id: null,
    account_number: null,
    account_number_reservation_id: null,
    account_product_id: 'apt_checking',
    bankdata: null,
    business_application_id: null,
    deposit_id: 'adpt_1',
    ownership_type: 'personal',
    person_applications: [{ id: 'apsn_1', roles: ['owner'] }],
    primary_person_application_id: 'apsn_1',
    product: null,
    status,
    userdata: null,
    created_at: '2025-01-01T00:00:00Z',
    updated_at: updatedAt,
  };
}
