/**
 * Pending volume and amount by bank date, one account at a time (a select), credits and
 * debits as bars either side of zero and holds apart, over the 30 dates ending at the newest
 * cached one. Amounts are whole cents from main; shown as the bank writes money.
 */
import { useState } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { PendingAccount } from '../../../../shared/ipc/domains/overview.ts';
import { Select } from '../../components/Field.tsx';
import { Panel } from '../../components/Page.tsx';
import { EmptyState } from '../../components/States.tsx';
import { ChartFigure } from './ChartFigure.tsx';
import { legendText, useChartColors } from './chartColors.ts';
import { centsText, pendingSentence } from './overviewText.ts';

export function PendingVolumePanel({
  accounts,
  window,
}: {
  accounts: PendingAccount[];
  window: { from: string; to: string } | null;
}) {
  const colors = useChartColors();
  const [chosen, setChosen] = useState<string>('');
  const account = accounts.find((candidate) => candidate.accountId === chosen) ?? accounts[0];
  if (account === undefined || window === null) {
    return (
      <Panel title="Pending transactions by day" className="overview-panel">
        <EmptyState title="Not synced yet: Sync to fetch">
          Sync an account's pending transactions (Pending transactions screen) to see its volume by day here.
        </EmptyState>
      </Panel>
    );
  }
  // Amounts in whole units for the axis (a chart's scale, not a ledger's figure); the table keeps cents.
  const data = account.days.map((day) => ({
    date: day.date,
    credits: day.credits.cents / 100,
    debits: day.debits.cents / 100,
    holds: day.holds.cents / 100,
  }));
  const axis = { stroke: colors.axis, tick: { fill: colors.axis, fontSize: 12 } };
  return (
    <Panel
      title="Pending transactions by day"
      className="overview-panel"
      actions={
        accounts.length > 1 ? (
          <label className="toolbar-item">
            <span className="toolbar-label">Account</span>
            <Select
              value={account.accountId}
              onChange={setChosen}
              className="select-account"
              options={accounts.map((candidate) => candidate.accountId)}
            />
          </label>
        ) : null
      }
    >
      <ChartFigure
        caption={`Amount by bank date, ${window.from} to ${window.to}`}
        summary={pendingSentence(account)}
        chart={
          <ResponsiveContainer width="100%" height={220}>
            <BarChart data={data} stackOffset="sign" accessibilityLayer={false} margin={{ left: 8, right: 16 }}>
              <CartesianGrid stroke={colors.grid} vertical={false} />
              <XAxis dataKey="date" {...axis} tickFormatter={(date: string) => date.slice(5)} minTickGap={16} />
              <YAxis {...axis} width={80} tickFormatter={(value: number) => value.toLocaleString('en-US')} />
              <ReferenceLine y={0} stroke={colors.axis} />
              <Tooltip
                formatter={(value) => (typeof value === 'number' ? centsText(Math.round(value * 100)) : String(value))}
              />
              <Legend wrapperStyle={{ fontSize: 12 }} formatter={legendText(colors.text)} />
              <Bar dataKey="credits" name="Credits" stackId="flow" fill={colors.credit} isAnimationActive={false} />
              <Bar dataKey="debits" name="Debits" stackId="flow" fill={colors.debit} isAnimationActive={false} />
              <Bar dataKey="holds" name="Holds" fill={colors.hold} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        }
        table={
          <table className="table overview-table" aria-label={`Pending transactions of ${account.accountId} by day`}>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Credits</th>
                <th scope="col">Credit amount</th>
                <th scope="col">Debits</th>
                <th scope="col">Debit amount</th>
                <th scope="col">Holds</th>
                <th scope="col">Hold amount</th>
              </tr>
            </thead>
            <tbody>
              {account.days.map((day) => (
                <tr key={day.date}>
                  <th scope="row" className="tabular">
                    {day.date}
                  </th>
                  <td className="tabular">{day.credits.count.toLocaleString('en-US')}</td>
                  <td className="tabular amount">{centsText(day.credits.cents)}</td>
                  <td className="tabular">{day.debits.count.toLocaleString('en-US')}</td>
                  <td className="tabular amount">{centsText(day.debits.cents)}</td>
                  <td className="tabular">{day.holds.count.toLocaleString('en-US')}</td>
                  <td className="tabular amount">{centsText(day.holds.cents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        }
      />
    </Panel>
  );
}
