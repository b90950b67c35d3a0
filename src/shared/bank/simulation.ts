/**
 * Sandbox simulations (conventions.md "Sandbox simulations"): POST /simulation with
 * `{type, simulation}` answers 202 and makes something happen the way the real sandbox does,
 * emitting the events a real change would.
 */
import { z } from 'zod';
import { ACCOUNT_APPLICATION_STATUSES, OWNERSHIP_TYPES } from './accountApplication.ts';
import { ACH_STATUSES } from './ach.ts';
import { emailAddress, nonEmptyText, nonZeroMoney, positiveMoney } from './common.ts';
import { idOf } from './ids.ts';
import { PENDING_TRANSACTION_TYPES } from './pendingTransaction.ts';
import { postalAddress } from './personApplication.ts';

const SIMULATION_TYPES = [
  'ach.create',
  'ach.update_status',
  'account.pending_transaction',
  'account_application.update_status',
  'account_application.create',
  'person_application.update',
  'webhook.error',
] as const;

/** An ACH transfer is created `pending` (emits ach.create, and account.update for its pending transaction). */
const achCreateSimulation = z.strictObject({
  type: z.literal('ach.create'),
  simulation: z.strictObject({
    account_id: idOf('account'),
    amount: positiveMoney,
    direction: z.enum(['credit', 'debit']),
  }),
});

/** Moves an ACH to `status`, or to the next status of its lifecycle when none is given (ach.update). */
const achStatusSimulation = z.strictObject({
  type: z.literal('ach.update_status'),
  simulation: z.strictObject({
    ach_id: idOf('ach'),
    status: z.enum(ACH_STATUSES).optional(),
  }),
});

/** A new pending transaction on an account (account.update). Positive credits, negative debits. */
const pendingTransactionSimulation = z.strictObject({
  type: z.literal('account.pending_transaction'),
  simulation: z.strictObject({
    account_id: idOf('account'),
    amount: nonZeroMoney,
    type: z.enum(PENDING_TRANSACTION_TYPES).optional(),
    desc: nonEmptyText.max(200, { message: 'must be at most 200 characters' }).optional(),
  }),
});

/** Moves an account application to `status` along the allowed transitions (account_application.update). */
const accountApplicationStatusSimulation = z.strictObject({
  type: z.literal('account_application.update_status'),
  simulation: z.strictObject({
    account_application_id: idOf('accountApplication'),
    status: z.enum(ACCOUNT_APPLICATION_STATUSES),
  }),
});

/**
 * A customer submits a new account application (status `submitted`, account_application.create):
 * the sandbox's stand-in for the application flow, so a lifecycle can be walked again and again.
 */
const accountApplicationCreateSimulation = z.strictObject({
  type: z.literal('account_application.create'),
  simulation: z.strictObject({
    ownership_type: z.enum(OWNERSHIP_TYPES).optional(),
  }),
});

/**
 * The applicant changes their address (or phone, or email) at the bank
 * (person_application.update): what a resync must notice even when no application moved.
 */
const personApplicationUpdateSimulation = z.strictObject({
  type: z.literal('person_application.update'),
  simulation: z
    .strictObject({
      person_application_id: idOf('personApplication'),
      physical_address: postalAddress.optional(),
      phone_number: z
        .string()
        .regex(/^[0-9]{10}$/, { message: 'must be ten digits, like 2025551111' })
        .optional(),
      email_address: emailAddress.optional(),
    })
    .refine(
      (change) =>
        change.physical_address !== undefined ||
        change.phone_number !== undefined ||
        change.email_address !== undefined,
      { message: 'must change physical_address, phone_number or email_address' },
    )
    .meta({
      anyOf: [{ required: ['physical_address'] }, { required: ['phone_number'] }, { required: ['email_address'] }],
    }),
});

/**
 * The service moves a webhook to `error` as it does after too many failed deliveries (spec §3.2),
 * without waiting for them (webhook.update). Only an enabled webhook can enter error.
 */
const webhookErrorSimulation = z.strictObject({
  type: z.literal('webhook.error'),
  simulation: z.strictObject({
    webhook_id: idOf('webhook'),
    reason: nonEmptyText.max(200, { message: 'must be at most 200 characters' }).optional(),
  }),
});

export const simulationRequest = z.discriminatedUnion(
  'type',
  [
    achCreateSimulation,
    achStatusSimulation,
    pendingTransactionSimulation,
    accountApplicationStatusSimulation,
    accountApplicationCreateSimulation,
    personApplicationUpdateSimulation,
    webhookErrorSimulation,
  ],
  {
    error: () => `must be one of ${SIMULATION_TYPES.join(', ')}`,
  },
);
export type SimulationRequest = z.infer<typeof simulationRequest>;

/** The 202 answer: what was simulated and the object it changed. */
export const simulationAccepted = z.looseObject({
  type: z.enum(SIMULATION_TYPES),
  object_id: z.string().min(1),
  status: z.string().nullable(),
});
export type SimulationAccepted = z.infer<typeof simulationAccepted>;
