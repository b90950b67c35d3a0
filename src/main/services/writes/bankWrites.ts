/**
 * The user's writes to the bank: create a document, upload a file or card art, create, change
 * or delete a webhook. Each one checks the production guard (a production profile needs an
 * explicit confirmation), is recorded in the audit log whatever its result, and keeps what it
 * made in the cache so it shows offline.
 */
import type {
  CardArtUploadRequest,
  DocumentResponse,
  DocumentCreateRequest,
  FileResponse,
  WebhookResponse,
  WebhookCreateRequest,
  WebhookUpdateRequest,
} from '../../../shared/bank/index.ts';
import type { BankClients } from '../bank/bankClients.ts';
import type { OfflineCache } from '../cache/offlineCache.ts';
import type { Profile } from '../profiles/profile.ts';
import { requireWriteConfirmation, type Profiles } from '../profiles/profiles.ts';

export interface WriteConfirmation {
  /** Required (true) for every write against a production profile. */
  confirmProduction?: boolean;
  /** Reuse to make a retried create return the first result instead of a duplicate. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface BankWritesOptions {
  profiles: Profiles;
  clients: BankClients;
  cache: OfflineCache;
  now?: () => Date;
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
    return this.#audited(profileId, 'document.create', request.file_id, confirmation, async (profile) => {
      const document = await this.#client(profile).createDocument(request, this.#writeOptions(confirmation));
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
    return this.#audited(profileId, 'file.create', contentType, confirmation, async (profile) => {
      const file = await this.#client(profile).uploadFile(data, contentType, this.#writeOptions(confirmation));
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
    await this.#audited(profileId, 'card_art.upload', target, confirmation, async (profile) => {
      await this.#client(profile).uploadCardArt(cardProductId, request, this.#writeOptions(confirmation));
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
    return this.#audited(profileId, 'webhook.create', request.event, confirmation, async (profile) => {
      const webhook = await this.#client(profile).createWebhook(request, this.#writeOptions(confirmation));
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
    return this.#audited(profileId, 'webhook.update', webhookId, confirmation, async (profile) => {
      const webhook = await this.#client(profile).updateWebhook(webhookId, changes, confirmation.signal);
      this.#keepWebhook(profile.id, webhook);
      return { result: webhook, target: webhookId };
    });
  }

  async deleteWebhook(profileId: string, webhookId: string, confirmation: WriteConfirmation = {}): Promise<void> {
    await this.#audited(profileId, 'webhook.delete', webhookId, confirmation, async (profile) => {
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

  #writeOptions(confirmation: WriteConfirmation) {
    return {
      ...(confirmation.idempotencyKey === undefined ? {} : { idempotencyKey: confirmation.idempotencyKey }),
      ...(confirmation.signal === undefined ? {} : { signal: confirmation.signal }),
    };
  }

  async #audited<Result>(
    profileId: string,
    action: string,
    provisionalTarget: string,
    confirmation: WriteConfirmation,
    write: (profile: Profile) => Promise<{ result: Result; target: string }>,
  ): Promise<Result> {
    const profile = this.#options.profiles.find(profileId);
    const audit = this.#options.cache.audit;
    try {
      requireWriteConfirmation(profile, action, confirmation.confirmProduction);
    } catch (error) {
      audit.record({
        profileId: profile.id,
        profileName: profile.name,
        action,
        target: provisionalTarget,
        result: 'refused',
        detail: (error as Error).message,
      });
      throw error;
    }
    try {
      const { result, target } = await write(profile);
      audit.record({ profileId: profile.id, profileName: profile.name, action, target, result: 'ok' });
      return result;
    } catch (error) {
      audit.record({
        profileId: profile.id,
        profileName: profile.name,
        action,
        target: provisionalTarget,
        result: 'failed',
        detail: error instanceof Error ? error.message : String(error),
      });
      throw error;
    }
  }
}
