/**
 * What a sync recipe is (issue 36, item 3): a kind's sync as data the driver
 * (syncService.ts) runs. A recipe names its job (the key and scope of its checkpoint), the
 * lists it walks in order (what to fetch, how to window it, how to write a page: listWalk.ts
 * walks each), a record read by id, and what the job does after them. The step after the job
 * (reviews, watch rules) is not part of it: it subscribes to the service's "sync finished"
 * event. The recipes themselves are in syncRecipes.ts.
 */
import type { AccountApplicationStatus, WebhookSendStatus } from '../../../shared/bank/index.ts';
import type { BankClient } from '../bank/bankClient.ts';
import type { OfflineCache } from '../cache/offlineCache.ts';
import type { Checkpoint, SyncKind } from '../cache/syncCheckpoints.ts';
import type { WriteBatch } from '../cache/writeBatch.ts';
import type { DateWindow } from './dateWindows.ts';
import type { ListSource, Resumable, WalkProgress } from './listWalk.ts';

export type SyncRequest =
  | { kind: 'pending-transactions'; profileId: string; accountId: string; fromDate?: string; toDate?: string }
  | {
      kind: 'webhook-sends';
      profileId: string;
      webhookId?: string;
      /** The sends of one object (every notification about it). */
      objectId?: string;
      status?: WebhookSendStatus;
      fromDate?: string;
      toDate?: string;
      /** Page through everything even when the newest pages show nothing new. */
      full?: boolean;
    }
  | { kind: 'account-application'; profileId: string; applicationId: string }
  | {
      kind: 'applications';
      profileId: string;
      status?: AccountApplicationStatus;
      /** Applications created from this date (inclusive), YYYY-MM-DD. */
      fromDate?: string;
      /** Applications created before this date (exclusive), YYYY-MM-DD. */
      toDate?: string;
    }
  | { kind: 'webhooks'; profileId: string };

export type RequestOf<Kind extends SyncKind> = Extract<SyncRequest, { kind: Kind }>;

/** What a recipe's steps get from the driver: the job, the cache, the bank, and how to page. */
export interface SyncContext<Request extends SyncRequest = SyncRequest> {
  request: Request;
  cache: OfflineCache;
  client: BankClient;
  /** The job's key and its checkpoint (this run's generation, where it resumes). */
  key: string;
  checkpoint: Checkpoint;
  resumed: boolean;
  /** When the job was last complete ('' if never). */
  lastComplete: string;
  parallelism: number;
  pageSize: number;
  signal: AbortSignal;
  now: () => string;
  resumable: Resumable;
  /** The step under way reports its own counts (absolute within the step). */
  onProgress: (progress: WalkProgress) => void;
  /** Records kept (and, with a sweep, rows removed) as each write commits. */
  onWritten: (added: number, removed: number | null) => void;
}

/** One list a recipe walks (its records' type erased: the driver only passes them along). */
export type ListStep<Request extends SyncRequest> = TypedListStep<Request, unknown, unknown>;

/** A list step with the type of its records and of its keys' values. */
export interface TypedListStep<Request extends SyncRequest, Item, Value> {
  /**
   * The walk's own checkpoint, `<job key>|<name>`, for a job of several lists: a walk completed
   * in this run is not walked again when a stopped run resumes. Absent: the job's checkpoint
   * (and the job is done when its last page is written).
   */
  name?: string;
  /** The scope of the walk's own checkpoint. */
  scope?: (request: Request) => Record<string, unknown>;
  /** What to fetch and how to write a page; `checkpoint` is the walk's (its generation). */
  source: (context: SyncContext<Request>, checkpoint: Checkpoint) => ListSource<Item, Value>;
  /** How to window it: date windows side by side (true) or one cursor. */
  windowed: (context: SyncContext<Request>, walk: WalkStart) => boolean;
  /** Stop at the first page with nothing new (records that never change once made). */
  incremental?: (context: SyncContext<Request>) => boolean;
  /** Written before the first page is planned (the account's scope, by the writer). */
  before?: (context: SyncContext<Request>) => WriteBatch[];
}

/** A typed list step as the driver holds it: the walk never looks inside a record. */
export function listStep<Request extends SyncRequest, Item, Value>(
  step: TypedListStep<Request, Item, Value>,
): ListStep<Request> {
  return step as unknown as ListStep<Request>;
}

/** The walk's checkpoint as it starts, to choose how to walk. */
export interface WalkStart {
  checkpoint: Checkpoint;
  resumed: boolean;
  /** Date windows of a stopped windowed run, kept with the checkpoint. */
  windowsLeft: boolean;
  /** Records of the list already cached (read when asked). */
  cachedRecords: () => number;
}

export interface SyncRecipe<Request extends SyncRequest> {
  /** The job's key and scope: what identifies its checkpoint. One job per key at a time. */
  identify: (request: Request) => { key: string; scope: Record<string, unknown> };
  /** Where the time left comes from: the windows' share, or the dates of a one-cursor walk. */
  dateRange: (request: Request) => DateWindow;
  /** The lists walked, in order. */
  lists: readonly ListStep<Request>[];
  /**
   * A record read by id instead of a list: fetched, then written with the job's checkpoint
   * (done) in one transaction; returns whether it is new or changed.
   */
  record?: (context: SyncContext<Request>) => Promise<number>;
  /**
   * What the job reads before its record and lists, whose failure is not the job's (an
   * account named from the bank's account list, issue 38): the walk that follows meets the
   * same bank and says what is wrong.
   */
  prepare?: (context: SyncContext<Request>) => Promise<void>;
  /** What the job does after its lists (the applicants they name, one by one). */
  then?: (context: SyncContext<Request>) => Promise<void>;
}
