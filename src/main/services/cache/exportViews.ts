/**
 * CSV export of the cache's views: the same named queries and filters as the screens, with
 * the columns of each resource in the interface's words. Extra fields the bank may add are
 * not columns (the file's shape stays fixed for spreadsheets and scripts). A field the bank
 * did not send reads "not sent by the bank", as on screen; null is an empty cell.
 */
import {
  NOT_SENT_TEXT,
  PENDING_TRANSACTION_ORIGIN_FIELDS,
  statusAsReceived,
  type AccountApplicationResponse,
  type WebhookSendResponse,
} from '../../../shared/bank/index.ts';
import type { PersonalField } from '../../../shared/personalData/masking.ts';
import { exportedApplicantsOf, type ExportedApplicant } from '../applicants/applicantExport.ts';
import type { AuditEntry, AuditQuery } from '../audit/auditLog.ts';
import type { AccountApplicationQuery } from './accountApplicationsTable.ts';
import { streamCsv, type CsvExportResult } from './csvExport.ts';
import type { OfflineCache } from './offlineCache.ts';
import type { PendingTransactionQuery, PendingTransactionRow } from './pendingTransactionsTable.ts';
import type { WebhookSendQuery } from './webhookSendsTable.ts';

type Filters<Query> = Omit<Query, 'limit' | 'cursor' | 'withTotal'>;

export type ExportView =
  | { kind: 'pending-transactions'; query: Filters<PendingTransactionQuery> }
  | { kind: 'webhook-sends'; query: Filters<WebhookSendQuery> }
  | {
      kind: 'account-applications';
      query: Filters<AccountApplicationQuery>;
      /** The personal fields the profile lets exports print in clear (default: none). */
      unmasked?: ReadonlySet<PersonalField>;
    }
  | { kind: 'audit'; query: Filters<AuditQuery> };

interface Column<Row> {
  header: string;
  value: (row: Row) => unknown;
}

function fields<Row>(names: readonly string[]): Column<Row>[] {
  return names.map((name) => ({
    header: name,
    value: (row: Row) => {
      const record = row as Record<string, unknown>;
      return name in record ? record[name] : NOT_SENT_TEXT;
    },
  }));
}

const PENDING_TRANSACTION_COLUMNS = fields<PendingTransactionRow>([
  'account_id',
  'date',
  'extended_timestamp',
  'extended_timestamp_precise',
  'amount',
  'balance',
  'type',
  'type_source',
  'category',
  'desc',
  'summary',
  'trace_id',
  'check_number',
  'related_transfer_ids',
  ...PENDING_TRANSACTION_ORIGIN_FIELDS,
]);

const WEBHOOK_SEND_COLUMNS = fields<WebhookSendResponse>([
  'id',
  'created_at',
  'webhook_id',
  'event',
  'object_id',
  'operation',
  'status',
  'attempt_number',
  'will_retry',
  'error',
]);

/** An application with the applicants it names, masked as the profile says (applicantExport.ts). */
/** An application as exported: its status as the bank sent it, even one this client does not know. */
type ExportedApplication = Omit<AccountApplicationResponse, 'status'> & {
  status: string | null;
  applicants: ExportedApplicant[];
};

const ACCOUNT_APPLICATION_COLUMNS = fields<ExportedApplication>([
  'id',
  'status',
  'ownership_type',
  'account_product_id',
  'account_id',
  'account_number',
  'primary_person_application_id',
  'business_application_id',
  'deposit_id',
  'created_at',
  'updated_at',
]).concat({
  // JSON in one cell: a row stays one application however many people it names.
  header: 'applicants',
  value: (row) => JSON.stringify(row.applicants),
});

const AUDIT_COLUMNS: Column<AuditEntry>[] = [
  { header: 'at', value: (row) => row.at },
  { header: 'profile', value: (row) => row.profileName },
  { header: 'action', value: (row) => row.action },
  { header: 'target', value: (row) => row.target },
  { header: 'result', value: (row) => row.result },
  { header: 'detail', value: (row) => row.detail },
];

const EXPORT_PAGE = 1000;

export async function exportCsv(
  cache: OfflineCache,
  view: ExportView,
  file: string,
  signal?: AbortSignal,
): Promise<CsvExportResult> {
  switch (view.kind) {
    case 'pending-transactions':
      return streamCsv(
        file,
        PENDING_TRANSACTION_COLUMNS,
        (cursor) => cache.pendingTransactions.list({ ...view.query, limit: EXPORT_PAGE, cursor }),
        signal,
      );
    case 'webhook-sends':
      return streamCsv(
        file,
        WEBHOOK_SEND_COLUMNS,
        (cursor) => cache.webhookSends.list({ ...view.query, limit: EXPORT_PAGE, cursor }),
        signal,
      );
    case 'account-applications': {
      const unmasked = view.unmasked ?? new Set<PersonalField>();
      return streamCsv(
        file,
        ACCOUNT_APPLICATION_COLUMNS,
        (cursor) => {
          const page = cache.accountApplications.list({ ...view.query, limit: EXPORT_PAGE, cursor });
          return {
            ...page,
            rows: page.rows.map((row) => ({
              ...row,
              // A status this client does not know is exported as the bank sent it.
              status: statusAsReceived(row),
              applicants: exportedApplicantsOf(cache.applicants, view.query.profileId, row.id, unmasked),
            })),
          };
        },
        signal,
      );
    }
    case 'audit':
      return streamCsv(
        file,
        AUDIT_COLUMNS,
        (cursor) => cache.audit.list({ ...view.query, limit: EXPORT_PAGE, cursor }),
        signal,
      );
  }
}
