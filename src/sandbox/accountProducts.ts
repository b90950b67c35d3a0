/**
 * Account products by their deprecated nickname (`product`, conventions.md). The sandbox has no
 * account-product resource; an application created with a nickname gets the id of that
 * nickname's product, the same on every run, so applications of one product share it.
 */
import { createHash } from 'node:crypto';
import { ID_PREFIX, type AccountProductNickname } from '../shared/bank/index.ts';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

export function accountProductIdOf(nickname: AccountProductNickname): string {
  const digest = createHash('sha256').update(`account product ${nickname}`).digest();
  let id: string = ID_PREFIX.accountProduct;
  for (const byte of digest.subarray(0, 14)) id += ALPHABET.charAt(byte % ALPHABET.length);
  return id;
}
