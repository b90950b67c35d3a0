/**
 * Pending volume and amount by bank date, one account at a time (a select, by the account's
 * name), credits and debits as bars either side of zero and holds apart. The dates are the
 * officer's: by default the 30 latest dates of the account that have records (so one new
 * credit today does not push the seeded month off the chart), or a range chosen here. Amounts
 * are whole cents from main; shown as the bank writes money.
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
import { Panel, ToolbarItem } from '../../components/Page.tsx';
import { EmptyState } from '../../components/States.tsx';
import { ChartFigure } from './ChartFigure.tsx';
import { legendText, useChartColors } from './chartColors.ts';
import { centsText, pendingSentence } from './overviewText.ts';
import type { PendingWindow } from './overviewStore.ts';
import { accountLabel } from '../../../../shared/review/itemNames.ts';
import { Button } from '../../components/Button.tsx';
import { DateField } from '../../components/DateField.tsx';

/**
 * Which dates the chart shows: the latest with records, or a range the officer types (From and
 * To, both included). The range applies with "Show these dates", so half-typed dates read nothing.
 */
function WindowChoice({
  chosen,
  shown,
  onChoose,
}: {
  chosen: PendingWindow;
  shown: { from: string; to: string } | null;
  onChoose: (window: PendingWindow) => void;
}) {
  const [from, setFrom] = useState(chosen?.from ?? shown?.from ?? '');
  const [to, setTo] = useState(chosen?.to ?? shown?.to ?? '');
  const reversed = from !== '' && to !== '' && to < from;
  return (
    <div className="row overview-window" role="group" aria-label="Dates shown">
      <ToolbarItem label="From">
        <DateField compact label="Show from date" value={from} onChange={setFrom} {...(to === '' ? {} : { max: to })} />
      </ToolbarItem>
      <ToolbarItem label="To">
        <DateField
          compact
          label="Show to date (included)"
          value={to}
          onChange={setTo}
          {...(from === '' ? {} : { min: from })}
        />
      </ToolbarItem>
      <Button
        size="sm"
        disabled={from === '' || to === '' || reversed}
        onClick={() => {
          onChoose({ from, to });
        }}
      >
        Show these dates
      </Button>
      {chosen === null ? null : (
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            onChoose(null);
          }}
        >
          Latest days with records
        </Button>
      )}
    </div>
  );
}

export function PendingVolumePanel({
  accounts,
  window,
  chosenWindow,
  onChooseWindow,
}: {
  accounts: PendingAccount[];
  window: { from: string; to: string; chosen?: boolean | undefined } | null;
  /** The dates the officer chose; null: the 30 latest with records. */
  chosenWindow: PendingWindow;
  onChooseWindow: (window: PendingWindow) => void;
}) {
  const colors = useChartColors();
  const [chosen, setChosen] = useState<string>('');
  const account = accounts.find((candidate) => candidate.accountId === chosen) ?? accounts[0];
  const windowChoice = <WindowChoice chosen={chosenWindow} shown={window} onChoose={onChooseWindow} />;
  if (account === undefined || window === null) {
    return (
      <Panel
        title="Pending transactions by day"
        className="overview-panel"
        actions={chosenWindow === null ? null : windowChoice}
      >
        <EmptyState title={chosenWindow === null ? 'Not synced yet: Sync to fetch' : 'No records in these dates'}>
          {chosenWindow === null
            ? "Sync an account's pending transactions (Pending transactions screen) to see its volume by day here."
            : 'No cached pending transaction has a bank date in the dates chosen: choose others, or the latest days with records.'}
        </EmptyState>
      </Panel>
    );
  }
  const first = account.days[0]?.date ?? window.from;
  const last = account.days.at(-1)?.date ?? window.to;
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
        <>
          {accounts.length > 1 ? (
            <label className="toolbar-item">
              <span className="toolbar-label">Account</span>
              <Select
                value={account.accountId}
                onChange={setChosen}
                className="select-account"
                options={accounts.map((candidate) => ({
                  value: candidate.accountId,
                  label: accountLabel(candidate.name),
                }))}
              />
            </label>
          ) : null}
          {windowChoice}
        </>
      }
    >
      <ChartFigure
        caption={
          chosenWindow === null
            ? `Amount by bank date, the ${String(account.days.length)} latest dates with records (${first} to ${last})`
            : `Amount by bank date, ${first} to ${last}`
        }
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
          <table
            className="table overview-table"
            aria-label={`Pending transactions of ${accountLabel(account.name)} by day`}
          >
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
