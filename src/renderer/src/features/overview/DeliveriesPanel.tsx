/** Webhook delivery success rate and retries per webhook, over 24 hours and 7 days. */
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { WebhookDeliveries } from '../../../../shared/ipc/domains/overview.ts';
import { Panel } from '../../components/Page.tsx';
import { EmptyState } from '../../components/States.tsx';
import { ChartFigure } from './ChartFigure.tsx';
import { legendText, useChartColors } from './chartColors.ts';
import { deliverySentence, successRate } from './overviewText.ts';

function nameOf(row: WebhookDeliveries): string {
  return row.event === null ? row.webhookId : `${row.event} (${row.webhookId})`;
}

export function DeliveriesPanel({ deliveries }: { deliveries: WebhookDeliveries[] }) {
  const colors = useChartColors();
  if (deliveries.length === 0) {
    return (
      <Panel title="Webhook deliveries" className="overview-panel">
        <EmptyState title="No deliveries in the last 7 days">
          Sync the webhook send log (Webhook send log screen) to see each webhook's success rate here.
        </EmptyState>
      </Panel>
    );
  }
  const data = deliveries.map((row) => ({
    name: nameOf(row),
    delivered: row.week.sent,
    failed: row.week.failed,
    retries: row.week.retries,
  }));
  const axis = { stroke: colors.axis, tick: { fill: colors.axis, fontSize: 12 } };
  return (
    <Panel title="Webhook deliveries" className="overview-panel">
      <ChartFigure
        caption="Delivered and failed sends per webhook, last 7 days"
        summary={deliveries.map((row) => deliverySentence(nameOf(row), row.day, row.week)).join(' ')}
        chart={
          <ResponsiveContainer width="100%" height={Math.max(120, 44 * deliveries.length + 60)}>
            <BarChart data={data} layout="vertical" accessibilityLayer={false} margin={{ left: 8, right: 16 }}>
              <CartesianGrid stroke={colors.grid} horizontal={false} />
              <XAxis type="number" {...axis} allowDecimals={false} />
              <YAxis type="category" dataKey="name" width={180} {...axis} />
              <Tooltip />
              <Legend wrapperStyle={{ fontSize: 12 }} formatter={legendText(colors.text)} />
              <Bar dataKey="delivered" name="Delivered" stackId="s" fill={colors.credit} isAnimationActive={false} />
              <Bar dataKey="failed" name="Failed" stackId="s" fill={colors.debit} isAnimationActive={false} />
              <Bar dataKey="retries" name="Retries" fill={colors.hold} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        }
        table={
          <table className="table overview-table" aria-label="Webhook deliveries">
            <thead>
              <tr>
                <th scope="col">Webhook</th>
                <th scope="col">Delivered, 24 h</th>
                <th scope="col">Failed, 24 h</th>
                <th scope="col">Retries, 24 h</th>
                <th scope="col">Success, 24 h</th>
                <th scope="col">Delivered, 7 days</th>
                <th scope="col">Failed, 7 days</th>
                <th scope="col">Retries, 7 days</th>
                <th scope="col">Success, 7 days</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((row) => (
                <tr key={row.webhookId}>
                  <th scope="row">{nameOf(row)}</th>
                  {[row.day, row.week].map((window, index) => (
                    <DeliveryCells key={index} window={window} />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        }
      />
      <table className="table overview-table overview-rates" aria-label="Success rate per webhook">
        <thead>
          <tr>
            <th scope="col">Webhook</th>
            <th scope="col">Success, 24 h</th>
            <th scope="col">Success, 7 days</th>
            <th scope="col">Retries, 7 days</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((row) => (
            <tr key={row.webhookId}>
              <th scope="row">{nameOf(row)}</th>
              <td className="tabular">{successRate(row.day)}</td>
              <td className="tabular">{successRate(row.week)}</td>
              <td className="tabular">{row.week.retries.toLocaleString('en-US')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  );
}

function DeliveryCells({ window }: { window: WebhookDeliveries['day'] }) {
  return (
    <>
      <td className="tabular">{window.sent.toLocaleString('en-US')}</td>
      <td className="tabular">{window.failed.toLocaleString('en-US')}</td>
      <td className="tabular">{window.retries.toLocaleString('en-US')}</td>
      <td className="tabular">{successRate(window)}</td>
    </>
  );
}
