/**
 * Money for display. The bank sends amounts as strings with two decimals (`-1234.50`);
 * they are shown by rearranging the characters, never by parsing to a float, so what the
 * user reads is exactly what the bank sent.
 */
import { MONEY_PATTERN } from '../../../shared/bank/index.ts';

export type MoneySign = 'positive' | 'negative' | 'zero';

export function signOf(amount: string): MoneySign {
  if (amount.startsWith('-')) return /[1-9]/.test(amount) ? 'negative' : 'zero';
  return /[1-9]/.test(amount) ? 'positive' : 'zero';
}

/** Groups the whole part in threes: `1234567.50` → `1,234,567.50`; `-0.50` → `−0.50`. */
export function formatMoney(amount: string): string {
  if (!MONEY_PATTERN.test(amount)) return amount;
  const negative = amount.startsWith('-');
  const digits = negative ? amount.slice(1) : amount;
  const dot = digits.indexOf('.');
  const whole = digits.slice(0, dot).replace(/^0+(?=\d)/, '');
  const cents = digits.slice(dot + 1);
  let grouped = '';
  for (let index = 0; index < whole.length; index += 1) {
    const fromEnd = whole.length - index;
    grouped += whole[index] ?? '';
    if (fromEnd > 1 && fromEnd % 3 === 1) grouped += ',';
  }
  const sign = negative && signOf(amount) === 'negative' ? '\u2212' : '';
  return `${sign}${grouped}.${cents}`;
}
