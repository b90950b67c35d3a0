/** How fresh each cached list is: when a sync of it last completed, and how many rows it holds. */
import type { ListFreshness } from '../../../../shared/ipc/domains/overview.ts';
import { Panel } from '../../components/Page.tsx';
import { accountLabel, type AccountNaming } from '../../../../shared/review/itemNames.ts';
import { NOT_SYNCED_YET } from '../../components/States.tsx';
import { ageOf, formatTimestamp } from '../../lib/time.ts';

const LIST_NAMES: Record<ListFreshness['list'], string> = {
  'pending-transactions': 'Pending transactions',
  'webhook-sends': 'Webhook send log',
  applications: 'Account applications',
  webhooks: 'Webhooks',
};

export function FreshnessPanel({
  lists,
  readAt,
  accountNames,
}: {
  lists: ListFreshness[];
  readAt: string;
  /** How each account is named (issue 38: the name, not the id). */
  accountNames: ReadonlyMap<string, AccountNaming | null>;
}) {
  const now = Date.parse(readAt);
  return (
    <Panel title="Cached lists" className="overview-panel">
      <table className="table overview-table" aria-label="How fresh each cached list is">
        <thead>
          <tr>
            <th scope="col">List</th>
            <th scope="col">Rows</th>
            <th scope="col">Synced</th>
            <th scope="col">Last sync</th>
          </tr>
        </thead>
        <tbody>
          {lists.map((list) => (
            <tr key={`${list.list}/${list.scope ?? ''}`}>
              <th scope="row">
                {LIST_NAMES[list.list]}
                {list.scope === null ? null : (
                  <span className="muted" title={`Account ${list.scope}`}>
                    {' '}
                    of {accountLabel(accountNames.get(list.scope))}
                  </span>
                )}
              </th>
              <td className="tabular">{list.rows.toLocaleString('en-US')}</td>
              <td title={list.syncedAt === null ? undefined : formatTimestamp(list.syncedAt)}>
                {list.syncedAt === null ? `${NOT_SYNCED_YET}: Sync to fetch` : ageOf(list.syncedAt, now)}
              </td>
              <td>{list.lastState ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  );
}
