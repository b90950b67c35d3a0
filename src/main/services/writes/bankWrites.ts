/**
 * The user's writes to the bank: create a document, upload a file or card art, create, change
 * or delete a webhook. Each one checks the production guard (a production profile needs an
 * explicit confirmation), is recorded in the audit log whatever its result, and keeps what it
 * made in the cache so it shows offline.
 *
 * A create is never made twice (issue 14, item 4): when its answer cannot be read, or none
 * comes in time, its idempotency key is kept (unsettledWrites.ts) and the next try of the same
 * write sends it again, so the bank answers with the object it made the first time. The audit
 * entry of an unreadable answer says "created; the answer was not understood", with the id.
 */
import { createHash } from 'node:crypto';
import type {
  CardArtUploadRequest,
  DocumentResponse,
  DocumentCreateRequest,
  FileResponse,
  WebhookResponse,
  WebhookCreateRequest,
  WebhookUpdateRequest,
} from '../../../shared/bank/index.ts';
import { BankError } from '../bank/bankError.ts';
import type { BankClients } from '../bank/bankClients.ts';
import type { OfflineCache } from '../cache/offlineCache.ts';
import type { Profile } from '../profiles/profile.ts';
import { confirmProductionWrite, type Profiles } from '../profiles/profiles.ts';
import type { WriteConfirmer } from './writeConfirmer.ts';
import type { UnsettledWrites } from './unsettledWrites.ts';

export interface WriteConfirmation {
  /** Required (true) for every write against a production profile. */
  confirmProduction?: boolean;
  /** Reuse to make a retried create return the first result instead of a duplicate. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /**
   * `--allow-http`: a webhook address that is not public https:// is sent to a remote
   * sandbox that says it delivers there (bank/webhookAddress.ts); never to another bank.
   */
  allowHttp?: boolean;
}

export interface BankWritesOptions {
  profiles: Profiles;
  clients: BankClients;
  cache: OfflineCache;
  /** Creates whose answer was not understood, and their idempotency keys. */
  unsettled: UnsettledWrites;
  /** Main's own question before a Production write (writeConfirmer.ts); none: the caller's flag decides. */
  confirmer?: WriteConfirmer | null;
  now?: () => Date;
}

/** A request as text with its keys in order, so the same write always reads the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    return `{${entries.map(([name, entry]) => `${JSON.stringify(name)}:${canonical(entry)}`).join(',')}}`;
  }
  // JSON has no text for undefined; a request's fields are strings, numbers, booleans and null.
  return value === undefined ? 'null' : JSON.stringify(value);
}

/** The past tense of an action's operation, for the audit log: `document.create` → created. */
function doneVerbOf(action: string): string {
  const operation = action.slice(action.lastIndexOf('.') + 1);
  return operation.endsWith('e') ? `${operation}d` : `${operation}ed`;
}

/** A failure after which the bank may have made the object: no answer in time, or the connection dropped after sending. */
function answerMayBeLost(error: BankError): boolean {
  return error.kind === 'timeout' || error.kind === 'unreachable' || error.kind === 'gateway-timeout';
}

export class BankWrites {
  readonly #options: BankWritesOptions;
  readonly #now: () => Date;

  constructor(options: BankWritesOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
  }

  async createDocument(
    profileId: string,
    request: DocumentCreateRequest,
    confirmation: WriteConfirmation = {},
  ): Promise<DocumentResponse> {
    const write = canonical(request);
    return this.#audited(profileId, 'document.create', request.file_id, confirmation, write, async (profile, key) => {
      const document = await this.#client(profile).createDocument(request, this.#writeOptions(confirmation, key));
      this.#options.cache.transaction(() => {
        this.#options.cache.uploads.recordDocument(profile.id, document);
      });
      return { result: document, target: document.id };
    });
  }

  async uploadFile(
    profileId: string,
    data: Uint8Array,
    contentType: string,
    confirmation: WriteConfirmation = {},
  ): Promise<FileResponse> {
    const write = `${contentType}\n${createHash('sha256').update(data).digest('hex')}`;
    return this.#audited(profileId, 'file.create', contentType, confirmation, write, async (profile, key) => {
      const file = await this.#client(profile).uploadFile(data, contentType, this.#writeOptions(confirmation, key));
      return { result: file, target: file.id };
    });
  }

  async uploadCardArt(
    profileId: string,
    cardProductId: string,
    request: CardArtUploadRequest,
    confirmation: WriteConfirmation = {},
  ): Promise<void> {
    const target = `${cardProductId}/${request.asset_type}`;
    const write = `${cardProductId}\n${canonical(request)}`;
    await this.#audited(profileId, 'card_art.upload', target, confirmation, write, async (profile, key) => {
      await this.#client(profile).uploadCardArt(cardProductId, request, this.#writeOptions(confirmation, key));
      this.#options.cache.transaction(() => {
        this.#options.cache.uploads.recordCardArt(profile.id, {
          cardProductId,
          assetType: request.asset_type,
          fileId: request.file_id,
          uploadedAt: this.#now().toISOString(),
        });
      });
      return { result: undefined, target };
    });
  }

  async createWebhook(
    profileId: string,
    request: WebhookCreateRequest,
    confirmation: WriteConfirmation = {},
  ): Promise<WebhookResponse> {
    const write = canonical(request);
    return this.#audited(profileId, 'webhook.create', request.event, confirmation, write, async (profile, key) => {
      const client = this.#client(profile);
      // Before the create: an address the bank cannot be given is refused here, audited as failed.
      await client.checkWebhookAddress(request.url, confirmation.allowHttp === true, confirmation.signal);
      const webhook = await client.createWebhook(request, this.#writeOptions(confirmation, key));
      this.#keepWebhook(profile.id, webhook);
      return { result: webhook, target: webhook.id };
    });
  }

  async updateWebhook(
    profileId: string,
    webhookId: string,
    changes: WebhookUpdateRequest,
    confirmation: WriteConfirmation = {},
  ): Promise<WebhookResponse> {
    return this.#audited(profileId, 'webhook.update', webhookId, confirmation, null, async (profile) => {
      const client = this.#client(profile);
      if (changes.url !== undefined) {
        await client.checkWebhookAddress(changes.url, confirmation.allowHttp === true, confirmation.signal);
      }
      const webhook = await client.updateWebhook(webhookId, changes, confirmation.signal);
      this.#keepWebhook(profile.id, webhook);
      return { result: webhook, target: webhookId };
    });
  }

  async deleteWebhook(profileId: string, webhookId: string, confirmation: WriteConfirmation = {}): Promise<void> {
    await this.#audited(profileId, 'webhook.delete', webhookId, confirmation, null, async (profile) => {
      await this.#client(profile).deleteWebhook(webhookId, confirmation.signal);
      this.#options.cache.transaction(() => {
        this.#options.cache.webhooks.remove(profile.id, webhookId);
      });
      return { result: undefined, target: webhookId };
    });
  }

  #keepWebhook(profileId: string, webhook: WebhookResponse): void {
    const cache = this.#options.cache;
    cache.transaction(() => {
      // Generation 0 never outlives a list sync's sweep unless the list still has it.
      cache.webhooks.write(
        profileId,
        [webhook],
        cache.checkpoints.get(profileId, 'webhooks', `webhooks/${profileId}`)?.generation ?? 0,
      );
    });
  }

  #client(profile: Profile) {
    return this.#options.clients.clientFor(profile.id);
  }

  #writeOptions(confirmation: WriteConfirmation, idempotencyKey: string | null) {
    return {
      ...(idempotencyKey === null ? {} : { idempotencyKey }),
      ...(confirmation.signal === undefined ? {} : { signal: confirmation.signal }),
    };
  }

  /**
   * @param write the write's canonical request for a create (whose idempotency key is kept
   *   when its answer is not understood), null for a write that has none (PATCH, DELETE)
   */
  async #audited<Result>(
    profileId: string,
    action: string,
    provisionalTarget: string,
    confirmation: WriteConfirmation,
    write: string | null,
    run: (profile: Profile, idempotencyKey: string | null) => Promise<{ result: Result; target: string }>,
  ): Promise<Result> {
    const profile = this.#options.profiles.find(profileId);
    const audit = this.#options.cache.audit;
    const unsettled = this.#options.unsettled;
    const entry = { profileId: profile.id, profileName: profile.name, action };
    try {
      await confirmProductionWrite(
        profile,
        action,
        provisionalTarget,
        confirmation.confirmProduction,
        this.#options.confirmer ?? null,
      );
    } catch (error) {
      audit.record({ ...entry, target: provisionalTarget, result: 'refused', detail: (error as Error).message });
      throw error;
    }
    const attempt = write === null ? null : unsettled.attempt(profile.id, action, write);
    const key = confirmation.idempotencyKey ?? attempt?.idempotencyKey ?? null;
    try {
      const { result, target } = await run(profile, key);
      const earlier = attempt?.earlier ?? null;
      if (write !== null && earlier !== null) unsettled.settle(profile.id, action, write);
      audit.record({
        ...entry,
        target,
        result: 'ok',
        ...(earlier === null
          ? {}
          : {
              detail: `the same write again, with the idempotency key of ${earlier.tries === 1 ? 'a try' : `${String(earlier.tries)} tries`} whose answer was not understood: the bank answered with the object it had made`,
            }),
      });
      return result;
    } catch (error) {
      if (write === null || key === null || !(error instanceof BankError)) {
        audit.record({ ...entry, target: provisionalTarget, result: 'failed', detail: messageOf(error) });
        throw error;
      }
      if (error.unread !== undefined) {
        // A success status whose body could not be read: the bank acted.
        const objectId = error.unread.objectId;
        unsettled.keep(profile.id, action, write, key, 'unread', objectId);
        const problems = (error.problems ?? [error.kind]).slice(0, 3).join('; ');
        audit.record({
          ...entry,
          target: objectId ?? provisionalTarget,
          result: 'ok',
          detail: `${doneVerbOf(action)}; the answer was not understood${objectId === null ? ' (it named no id)' : ` (id ${objectId})`}: ${problems}. Trying again reuses its idempotency key.`,
        });
        throw error.withRemedy(
          `The bank ${doneVerbOf(action)} it${objectId === null ? '' : ` (${objectId})`}, but its answer could not be read. Trying again returns that same object instead of making a second one.`,
          true,
        );
      }
      if (answerMayBeLost(error)) {
        unsettled.keep(profile.id, action, write, key, 'no-answer', null);
        audit.record({
          ...entry,
          target: provisionalTarget,
          result: 'failed',
          detail: `${messageOf(error)} The bank may have acted: trying again reuses its idempotency key.`,
        });
        throw error;
      }
      audit.record({ ...entry, target: provisionalTarget, result: 'failed', detail: messageOf(error) });
      throw error;
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
