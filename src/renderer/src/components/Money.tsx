/** An amount as the bank sent it, grouped for reading and coloured by sign. */
import { formatMoney, signOf } from '../lib/money.ts';

export function Money({ amount, muted = false }: { amount: string; muted?: boolean }) {
  const sign = signOf(amount);
  return (
    <span className={`money money-${muted ? 'muted' : sign} tabular`} data-amount={amount}>
      {formatMoney(amount)}
    </span>
  );
}
