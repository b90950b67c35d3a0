/** How far the review is: reviewed of total per kind, by state, and a person's dispositions per day. */
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ReviewDay, ReviewProgress } from '../../../../shared/ipc/domains/overview.ts';
import { Panel } from '../../components/Page.tsx';
import { KIND_LABELS } from '../review/reviewWords.ts';

function kindName(kind: keyof typeof KIND_LABELS): string {
  const many = KIND_LABELS[kind].many;
  return many.charAt(0).toUpperCase() + many.slice(1);
}
import { ChartFigure } from './ChartFigure.tsx';
import { legendText, useChartColors } from './chartColors.ts';
import { progressSentence, reviewDaysSentence, reviewedOf, shareText } from './overviewText.ts';

export function ReviewProgressPanel({ progress, days }: { progress: ReviewProgress[]; days: ReviewDay[] }) {
  const colors = useChartColors();
  const rows = progress.map((row) => ({
    kind: kindName(row.kind),
    cleared: row.cleared,
    flagged: row.flaggedByPerson,
    escalated: row.escalated,
    waiting: row.unreviewed + row.changed + row.flaggedByRule,
  }));
  const axis = { stroke: colors.axis, tick: { fill: colors.axis, fontSize: 12 } };
  return (
    <Panel title="Review progress" className="overview-panel">
      <div className="overview-progress">
        {progress.map((row) => (
          <div key={row.kind} className="overview-stat">
            <span className="overview-stat-label">{kindName(row.kind)}</span>
            <span className="overview-stat-value tabular">
              {reviewedOf(row).toLocaleString('en-US')} of {row.total.toLocaleString('en-US')}
            </span>
            <span className="muted">{shareText(reviewedOf(row), row.total)} reviewed</span>
          </div>
        ))}
      </div>
      <ChartFigure
        caption="Reviewed and waiting, by kind"
        summary={progressSentence(progress)}
        chart={
          <ResponsiveContainer width="100%" height={160}>
            <BarChart data={rows} layout="vertical" accessibilityLayer={false} margin={{ left: 8, right: 16 }}>
              <CartesianGrid stroke={colors.grid} horizontal={false} />
              <XAxis type="number" {...axis} allowDecimals={false} />
              <YAxis type="category" dataKey="kind" width={150} {...axis} />
              <Tooltip />
              <Legend wrapperStyle={{ fontSize: 12 }} formatter={legendText(colors.text)} />
              <Bar dataKey="cleared" name="Cleared" stackId="a" fill={colors.cleared} isAnimationActive={false} />
              <Bar dataKey="flagged" name="Flagged" stackId="a" fill={colors.flagged} isAnimationActive={false} />
              <Bar dataKey="escalated" name="Escalated" stackId="a" fill={colors.escalated} isAnimationActive={false} />
              <Bar
                dataKey="waiting"
                name="Waiting for a person"
                stackId="a"
                fill={colors.waiting}
                isAnimationActive={false}
              />
            </BarChart>
          </ResponsiveContainer>
        }
        table={
          <table className="table overview-table" aria-label="Review progress by kind">
            <thead>
              <tr>
                <th scope="col">Kind</th>
                <th scope="col">Total</th>
                <th scope="col">Cleared</th>
                <th scope="col">Flagged by a person</th>
                <th scope="col">Escalated</th>
                <th scope="col">Changed since review</th>
                <th scope="col">Flagged by a rule</th>
                <th scope="col">Unreviewed</th>
              </tr>
            </thead>
            <tbody>
              {progress.map((row) => (
                <tr key={row.kind}>
                  <th scope="row">{kindName(row.kind)}</th>
                  {[
                    row.total,
                    row.cleared,
                    row.flaggedByPerson,
                    row.escalated,
                    row.changed,
                    row.flaggedByRule,
                    row.unreviewed,
                  ].map((value, index) => (
                    <td key={index} className="tabular">
                      {value.toLocaleString('en-US')}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        }
      />
      <ChartFigure
        caption={`Dispositions per day, last ${String(days.length)} days`}
        summary={reviewDaysSentence(days)}
        chart={
          <ResponsiveContainer width="100%" height={180}>
            <BarChart data={days} accessibilityLayer={false} margin={{ left: 0, right: 16 }}>
              <CartesianGrid stroke={colors.grid} vertical={false} />
              <XAxis dataKey="date" {...axis} tickFormatter={(date: string) => date.slice(5)} minTickGap={16} />
              <YAxis {...axis} allowDecimals={false} width={40} />
              <Tooltip />
              <Legend wrapperStyle={{ fontSize: 12 }} formatter={legendText(colors.text)} />
              <Bar dataKey="cleared" name="Cleared" stackId="d" fill={colors.cleared} isAnimationActive={false} />
              <Bar dataKey="flagged" name="Flagged" stackId="d" fill={colors.flagged} isAnimationActive={false} />
              <Bar dataKey="escalated" name="Escalated" stackId="d" fill={colors.escalated} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        }
        table={
          <table className="table overview-table" aria-label="Dispositions per day">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Cleared</th>
                <th scope="col">Flagged</th>
                <th scope="col">Escalated</th>
              </tr>
            </thead>
            <tbody>
              {days.map((day) => (
                <tr key={day.date}>
                  <th scope="row" className="tabular">
                    {day.date}
                  </th>
                  <td className="tabular">{day.cleared.toLocaleString('en-US')}</td>
                  <td className="tabular">{day.flagged.toLocaleString('en-US')}</td>
                  <td className="tabular">{day.escalated.toLocaleString('en-US')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        }
      />
    </Panel>
  );
}
