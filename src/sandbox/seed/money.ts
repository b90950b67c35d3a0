/** Money as integer cents inside the sandbox; strings only at the edge (never a float). */
export function moneyOf(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const magnitude = Math.abs(cents);
  const units = Math.floor(magnitude / 100);
  const fraction = magnitude % 100;
  return `${sign}${String(units)}.${fraction < 10 ? '0' : ''}${String(fraction)}`;
}

/** Parses a money string already checked against MONEY_PATTERN. */
export function centsOf(amount: string): number {
  const negative = amount.startsWith('-');
  const [units = '0', fraction = '00'] = (negative ? amount.slice(1) : amount).split('.');
  const cents = Number(units) * 100 + Number(fraction);
  return negative ? -cents : cents;
}
