/**
 * ID prefixes of the real service (conventions.md). `webhook_send` has no published
 * prefix; we chose `whsend_`. Pending transactions have no id at all (spec §2.1).
 */
import { z } from 'zod';

export const ID_PREFIX = {
  account: 'acct_',
  ach: 'ach_',
  transaction: 'ttx_',
  webhook: 'wh_',
  webhookSend: 'whsend_',
  document: 'doc_',
  file: 'file_',
  accountApplication: 'aact_',
  personApplication: 'apsn_',
  businessApplication: 'abus_',
  deposit: 'adpt_',
  accountProduct: 'apt_',
  cardProduct: 'cdpt_',
  card: 'card_',
  person: 'psn_',
  partnerDeposit: 'gdep_',
} as const;

export type IdKind = keyof typeof ID_PREFIX;

/**
 * An id of the given kind. Used for ids a client *sends* (so a typo is caught before the
 * request); responses accept any string id, since the real service may add prefixes.
 */
export function idOf(kind: IdKind) {
  const prefix = ID_PREFIX[kind];
  return z
    .string()
    .min(prefix.length + 1, { message: `must be an id starting with ${prefix}` })
    .startsWith(prefix, { message: `must be an id starting with ${prefix}` });
}

/** Any object id: a non-empty string. */
export const objectId = z.string().min(1, { message: 'must be a non-empty id' });
