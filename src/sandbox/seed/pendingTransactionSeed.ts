/**
 * Realistic pending transactions for one account, oldest first, from a seeded generator:
 * every type and type_source, the originating *_id field that matches its type_source, card
 * purchases as hold -> hold_release -> charge sharing a trace_id, holds that leave the
 * balance alone, millisecond and microsecond timestamps, and bank dates taken on US Eastern
 * time for the sources whose core dates them that way (so some differ from the UTC date).
 */
import type { PendingTransaction } from '../../shared/bank/index.ts';
import { pendingTransactionOf, type PendingTransactionFacts } from '../pendingTransactions/pendingTransactionRecord.ts';
import type { SeededRandom } from '../random.ts';

const MERCHANTS = [
  ['COFFEE SHOP', 'Coffee Shop'],
  ['GROCERY MARKET', 'Grocery Market'],
  ['FUEL STATION', 'Fuel Station'],
  ['BOOKSTORE', 'Bookstore'],
  ['PHARMACY', 'Pharmacy'],
  ['HARDWARE DEPOT', 'Hardware Depot'],
  ['RIDE SHARE', 'Ride Share'],
  ['STREAMING SVC', 'Streaming Service'],
  ['AIRLINE TICKET', 'Airline'],
  ['RESTAURANT', 'Restaurant'],
] as const;

const COUNTERPARTIES = ['ACME PAYROLL', 'GLOBEX CORP', 'INITECH LLC', 'UMBRELLA INC', 'STARK SUPPLY', 'WAYNE TRUST'];

/** Sources whose bank date is taken on the core's local clock (US Eastern, no adjustment). */
const EASTERN_OFFSET_HOURS = -5;

/** Mean gap between two rows; the seed ends at `endMicros` and starts count gaps earlier. */
const MEAN_GAP_MICROS = 20 * 60 * 1_000_000;

type Scenario =
  | 'card_purchase'
  | 'card_charge'
  | 'card_reversal'
  | 'ach_in'
  | 'ach_out'
  | 'wire_in'
  | 'wire_out'
  | 'book_in'
  | 'book_out'
  | 'check_deposit'
  | 'issued_check'
  | 'interest'
  | 'fee'
  | 'billpay'
  | 'fednow'
  | 'cash_deposit'
  | 'network_transfer'
  | 'unclassified';

const SCENARIO_WEIGHTS: readonly (readonly [Scenario, number])[] = [
  ['card_purchase', 26],
  ['card_charge', 14],
  ['card_reversal', 3],
  ['ach_in', 9],
  ['ach_out', 7],
  ['wire_in', 3],
  ['wire_out', 2],
  ['book_in', 4],
  ['book_out', 4],
  ['check_deposit', 4],
  ['issued_check', 3],
  ['interest', 2],
  ['fee', 3],
  ['billpay', 4],
  ['fednow', 3],
  ['cash_deposit', 3],
  ['network_transfer', 3],
  ['unclassified', 2],
];
const TOTAL_WEIGHT = SCENARIO_WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0);
const DEPOSIT_SCENARIOS: readonly Scenario[] = [
  'ach_in',
  'wire_in',
  'book_in',
  'check_deposit',
  'fednow',
  'cash_deposit',
];

export interface LedgerSummary {
  balanceCents: number;
  /** Holds not yet released at the end of the seed: available = balance - held. */
  heldCents: number;
  count: number;
  lastMicros: number;
}

export interface SeedRow {
  micros: number;
  transaction: PendingTransaction;
}

interface FollowUp {
  micros: number;
  facts: Omit<PendingTransactionFacts, 'micros' | 'balanceCents'>;
  /** Whether the row moves the balance (a charge does, a hold_release does not). */
  movesBalance: boolean;
  releasesHoldCents: number;
}

/**
 * Emits `count` rows for the account, oldest first, ending just before `endMicros`.
 * Rows come out strictly increasing in time, so insertion order is list order.
 */
export interface PendingTransactionSeeder {
  /** Emits about `rows` more rows (a step may add one more); false once all `count` are out. */
  next(rows: number, emit: (row: SeedRow) => void): boolean;
  summary(): LedgerSummary;
}

/** Emits all `count` rows at once (tests, small seeds). */
export function seedPendingTransactions(
  random: SeededRandom,
  accountId: string,
  count: number,
  endMicros: number,
  emit: (row: SeedRow) => void,
): LedgerSummary {
  const seeder = pendingTransactionSeeder(random, accountId, count, endMicros);
  while (seeder.next(Number.POSITIVE_INFINITY, emit));
  return seeder.summary();
}

/**
 * Emits the account's rows in batches, so a large seed can let the event loop breathe (and a
 * Ctrl+C be heard) between them.
 */
export function pendingTransactionSeeder(
  random: SeededRandom,
  accountId: string,
  count: number,
  endMicros: number,
): PendingTransactionSeeder {
  let emit: (row: SeedRow) => void = () => {};
  const cardIds = [random.id('card'), random.id('card')];
  let clock = endMicros - count * MEAN_GAP_MICROS;
  let balanceCents = random.integer(50_000, 900_000);
  let heldCents = 0;
  let emitted = 0;
  let lastMicros = clock;
  const followUps: FollowUp[] = [];

  function write(micros: number, facts: Omit<PendingTransactionFacts, 'micros' | 'balanceCents'>, moves: boolean) {
    // Strictly increasing, and a millisecond row keeps only milliseconds.
    let at = Math.max(micros, lastMicros + 1000);
    if (facts.precision === 'milliseconds') at = Math.ceil(at / 1000) * 1000;
    if (moves) balanceCents += facts.amountCents;
    lastMicros = at;
    emitted += 1;
    emit({ micros: at, transaction: pendingTransactionOf({ ...facts, micros: at, balanceCents }) });
  }

  function pickScenario(): Scenario {
    // Keep the account funded: a low balance draws a deposit.
    if (balanceCents < 20_000) return random.pick(DEPOSIT_SCENARIOS);
    let roll = random.next() * TOTAL_WEIGHT;
    for (const [scenario, weight] of SCENARIO_WEIGHTS) {
      roll -= weight;
      if (roll < 0) return scenario;
    }
    return 'card_charge';
  }

  const base = (overrides: Partial<Omit<PendingTransactionFacts, 'micros' | 'balanceCents'>>) => ({
    accountId,
    precision: 'microseconds' as const,
    bankDateOffsetHours: 0,
    amountCents: 0,
    type: null,
    typeSource: null,
    origin: null,
    category: null,
    checkNumber: null,
    desc: '',
    summary: '',
    traceId: null,
    relatedTransferIds: [] as string[] | null,
    ...overrides,
  });
  const eastern = { bankDateOffsetHours: EASTERN_OFFSET_HOURS, precision: 'milliseconds' as const };

  function step(): void {
    // A gap between 10 s and about 3 h, mostly short: realistic bursts and quiet nights.
    clock += Math.floor(10_000_000 + -Math.log(1 - random.next()) * (MEAN_GAP_MICROS - 10_000_000));
    const due = followUps[0];
    if (due !== undefined && due.micros <= clock) {
      followUps.shift();
      heldCents -= due.releasesHoldCents;
      write(due.micros, due.facts, due.movesBalance);
      return;
    }
    const scenario = pickScenario();
    const [merchantDesc, merchantSummary] = random.pick(MERCHANTS);
    const counterparty = random.pick(COUNTERPARTIES);
    const cents = random.integer(150, 25_000);
    switch (scenario) {
      case 'card_purchase': {
        // Hold now; later the release and the final charge, all tied by one trace_id.
        const traceId = `trace_${random.id('transaction').slice(4)}`;
        const cardId = random.pick(cardIds);
        const card = { typeSource: 'card' as const, origin: { field: 'card_id' as const, id: cardId }, traceId };
        const desc = `${merchantDesc} ${String(random.integer(1000, 9999))}`;
        write(clock, base({ ...card, type: 'hold', amountCents: -cents, desc, summary: merchantSummary }), false);
        heldCents += cents;
        // Follow-ups still due when the seed ends stay outstanding holds, as in a live account.
        const settleAt = clock + random.integer(30 * 60, 36 * 3600) * 1_000_000;
        const finalCents = random.chance(0.2) ? cents + random.integer(100, 2000) : cents;
        followUps.push({
          micros: settleAt,
          facts: base({ ...card, type: 'hold_release', amountCents: cents, desc, summary: merchantSummary }),
          movesBalance: false,
          releasesHoldCents: cents,
        });
        followUps.push({
          micros: settleAt + random.integer(1, 900) * 1000,
          facts: base({ ...card, type: 'charge', amountCents: -finalCents, desc, summary: merchantSummary }),
          movesBalance: true,
          releasesHoldCents: 0,
        });
        followUps.sort((left, right) => left.micros - right.micros);
        break;
      }
      case 'card_charge':
      case 'card_reversal': {
        const cardId = random.pick(cardIds);
        const traceId = `trace_${random.id('transaction').slice(4)}`;
        const desc = `${merchantDesc} ${String(random.integer(1000, 9999))}`;
        const card = { typeSource: 'card' as const, origin: { field: 'card_id' as const, id: cardId }, traceId };
        write(clock, base({ ...card, type: 'charge', amountCents: -cents, desc, summary: merchantSummary }), true);
        if (scenario === 'card_reversal' && emitted < count) {
          write(
            clock + random.integer(60, 7200) * 1_000_000,
            base({
              ...card,
              type: 'reversal',
              amountCents: cents,
              desc: `REVERSAL ${desc}`,
              summary: `Reversal: ${merchantSummary}`,
              relatedTransferIds: [random.id('transaction')],
            }),
            true,
          );
        }
        break;
      }
      case 'ach_in':
      case 'ach_out': {
        const incoming = scenario === 'ach_in';
        const amount = incoming ? random.integer(50_000, 400_000) : -cents * 4;
        write(
          clock,
          base({
            ...eastern,
            type: incoming ? 'deposit' : random.pick(['withdrawal', 'payment'] as const),
            typeSource: 'ach',
            origin: incoming
              ? { field: 'incoming_ach_id', id: random.id('ach') }
              : { field: 'ach_id', id: random.id('ach') },
            amountCents: amount,
            desc: incoming ? `${counterparty} DIRECT DEP` : `ACH DEBIT ${counterparty}`,
            summary: incoming ? `Direct deposit from ${counterparty}` : `ACH to ${counterparty}`,
          }),
          true,
        );
        break;
      }
      case 'wire_in':
      case 'wire_out': {
        const incoming = scenario === 'wire_in';
        write(
          clock,
          base({
            ...eastern,
            type: incoming ? 'deposit' : 'withdrawal',
            typeSource: 'wire',
            origin: incoming
              ? { field: 'incoming_wire_id', id: `iwire_${random.id('transaction').slice(4)}` }
              : { field: 'wire_id', id: `wire_${random.id('transaction').slice(4)}` },
            amountCents: incoming ? random.integer(100_000, 1_500_000) : -random.integer(50_000, 300_000),
            desc: incoming ? `WIRE IN ${counterparty}` : `WIRE OUT ${counterparty}`,
            summary: incoming ? `Wire from ${counterparty}` : `Wire to ${counterparty}`,
          }),
          true,
        );
        break;
      }
      case 'book_in':
      case 'book_out': {
        const incoming = scenario === 'book_in';
        write(
          clock,
          base({
            ...eastern,
            type: incoming ? 'deposit' : 'withdrawal',
            typeSource: 'book',
            origin: { field: 'book_id', id: `book_${random.id('transaction').slice(4)}` },
            amountCents: incoming ? cents * 3 : -cents * 2,
            desc: incoming ? 'BOOK TRANSFER IN' : 'BOOK TRANSFER OUT',
            summary: incoming ? 'Transfer from another account' : 'Transfer to another account',
          }),
          true,
        );
        break;
      }
      case 'check_deposit':
        write(
          clock,
          base({
            ...eastern,
            type: 'deposit',
            typeSource: 'check',
            origin: { field: 'check_id', id: `chk_${random.id('transaction').slice(4)}` },
            amountCents: random.integer(2_000, 250_000),
            desc: 'MOBILE CHECK DEPOSIT',
            summary: 'Check deposit',
          }),
          true,
        );
        break;
      case 'issued_check': {
        const checkNumber = String(random.integer(1001, 9999));
        write(
          clock,
          base({
            ...eastern,
            type: 'payment',
            typeSource: 'check',
            origin: { field: 'issued_check_id', id: `ichk_${random.id('transaction').slice(4)}` },
            checkNumber,
            amountCents: -cents * 2,
            desc: `CHECK ${checkNumber}`,
            summary: `Check #${checkNumber} to ${counterparty}`,
          }),
          true,
        );
        break;
      }
      case 'interest':
        write(
          clock,
          base({
            type: 'interest',
            typeSource: 'bank',
            category: 'interest',
            amountCents: random.integer(1, 4_000),
            desc: 'INTEREST PAYMENT',
            summary: 'Interest',
          }),
          true,
        );
        break;
      case 'fee':
        write(
          clock,
          base({
            type: 'charge',
            typeSource: 'bank',
            category: 'fees',
            amountCents: -random.pick([250, 500, 1_200, 3_500]),
            desc: random.pick(['MONTHLY MAINTENANCE FEE', 'WIRE FEE', 'ATM FEE']),
            summary: 'Fee',
          }),
          true,
        );
        break;
      case 'billpay':
        write(
          clock,
          base({
            type: 'payment',
            origin: { field: 'billpay_payment_id', id: `bpay_${random.id('transaction').slice(4)}` },
            amountCents: -cents,
            desc: `BILLPAY ${counterparty}`,
            summary: `Bill payment to ${counterparty}`,
          }),
          true,
        );
        break;
      case 'fednow':
        write(
          clock,
          base({
            precision: 'milliseconds',
            type: 'deposit',
            origin: { field: 'fednow_id', id: `fdnw_${random.id('transaction').slice(4)}` },
            amountCents: random.integer(1_000, 150_000),
            desc: `FEDNOW ${counterparty}`,
            summary: `Instant payment from ${counterparty}`,
          }),
          true,
        );
        break;
      case 'cash_deposit':
        write(
          clock,
          base({
            type: 'deposit',
            origin: { field: 'partner_deposit_id', id: random.id('partnerDeposit') },
            amountCents: random.integer(2_000, 80_000),
            desc: 'CASH DEPOSIT AT RETAIL PARTNER',
            summary: 'Cash deposit',
          }),
          true,
        );
        break;
      case 'network_transfer':
        write(
          clock,
          base({
            type: random.pick(['payment', 'deposit'] as const),
            origin: { field: 'network_transfer_id', id: `ntx_${random.id('transaction').slice(4)}` },
            amountCents: random.chance(0.5) ? cents : -cents,
            desc: 'NETWORK TRANSFER',
            summary: 'Transfer through the network',
          }),
          true,
        );
        break;
      case 'unclassified':
        // Limited availability: some rows carry neither a type nor a source (spec §2.1).
        write(
          clock,
          base({
            amountCents: -random.integer(100, 2_000),
            desc: 'ADJUSTMENT',
            summary: 'Adjustment',
            relatedTransferIds: null,
          }),
          true,
        );
        break;
    }
  }

  return {
    next(rows, sink) {
      emit = sink;
      const stop = emitted + rows;
      while (emitted < count && emitted < stop) step();
      return emitted < count;
    },
    summary: () => ({ balanceCents, heldCents, count: emitted, lastMicros }),
  };
}
