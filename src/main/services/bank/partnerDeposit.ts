/**
 * The real service names the cash-deposit field after its partner (`greendot_deposit_id`);
 * the interface calls it `partner_deposit_id` (conventions.md). Accept either, present one.
 */
import { PARTNER_DEPOSIT_ALIASES } from '../../../shared/bank/index.ts';

export function presentPartnerDeposit(record: unknown): unknown {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return record;
  const aliased = PARTNER_DEPOSIT_ALIASES.find((alias) => alias in record);
  if (aliased === undefined) return record;
  const { [aliased]: aliasValue, ...rest } = record as Record<string, unknown>;
  return 'partner_deposit_id' in rest ? rest : { ...rest, partner_deposit_id: aliasValue };
}

/** Applies presentPartnerDeposit to each item of a `{data: [...]}` envelope. */
export function presentPartnerDepositInList(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !('data' in body) || !Array.isArray(body.data)) return body;
  return { ...body, data: body.data.map(presentPartnerDeposit) };
}
