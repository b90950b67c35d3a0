/** Money strings (`-12.34`) to integer cents, for sorting in SQL; never through a float. */
export function centsOf(amount: string): number {
  const match = /^(-?)([0-9]+)[.]([0-9]{2})$/.exec(amount);
  if (match === null) throw new RangeError(`amount: ${amount} is not an amount with two decimals`);
  const [, sign = '', units = '0', hundredths = '00'] = match;
  // Up to 13 digits of units, plain numbers are exact; beyond, check with BigInt.
  if (units.length <= 13) return (sign === '-' ? -1 : 1) * (Number(units) * 100 + Number(hundredths));
  const cents = BigInt(units) * 100n + BigInt(hundredths);
  if (cents > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`amount: ${amount} is too large to sort`);
  return (sign === '-' ? -1 : 1) * Number(cents);
}
