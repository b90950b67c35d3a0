/** Everything a route needs, built once per running sandbox. */
import type { TrafficListener } from './traffic.ts';
import type { Authentication } from './auth/authenticate.ts';
import type { OrganizationSettingsStore } from './organizationSettings.ts';
import type { RateLimiter } from './http/rateLimit.ts';
import type { PageCache } from './pendingTransactions/pageCache.ts';
import type { Database } from './store/database.ts';
import type { FileContentStore } from './store/fileContentStore.ts';
import type { PendingTransactionStore } from './store/pendingTransactionStore.ts';
import type { RecordStore } from './store/records.ts';
import type { WebhookSendStore } from './store/webhookSendStore.ts';
import type { Dispatcher } from './webhooks/dispatcher.ts';
import type { EventPublisher } from './webhooks/eventPublisher.ts';
import type { WebhookRegistry } from './webhooks/webhookRegistry.ts';

export interface SandboxContext {
  database: Database;
  records: RecordStore;
  fileContents: FileContentStore;
  pendingTransactions: PendingTransactionStore;
  sends: WebhookSendStore;
  webhooks: WebhookRegistry;
  events: EventPublisher;
  dispatcher: Dispatcher;
  organization: OrganizationSettingsStore;
  pageCache: PageCache;
  /** Signs pending-transaction cursors; kept in the data file so cursors survive a restart. */
  cursorKey: string;
  keyId: string;
  keySecret: string;
  authenticate(header: string | undefined): Authentication;
  /** `--rate-limit`: requests a second per key; absent, no limit. */
  rateLimiter?: RateLimiter;
  checkBasic(header: string | undefined): Authentication;
  /** http(s)://host:port of this run, no trailing slash. */
  baseUrl(): string;
  /** `--lean`: answers in the real service's shapes (lean/leanAnswers.ts). */
  lean: boolean;
  /** `--ach-limit`: the most an account may move by ACH in a (UTC) day, in cents; null: no limit. */
  achDailyLimitCents: number | null;
  /** Told each request answered (npm run sandbox prints them); absent, nothing is told. */
  traffic?: TrafficListener;
}
