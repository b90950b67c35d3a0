/**
 * Registering a webhook in one step: create it on the bank for one event, pointing at a path
 * of its own on the listener, with freshly generated Basic credentials whose secret goes to
 * the keychain (before the webhook exists, so its first notification already verifies).
 * Removing it is one step too: the webhook, its secret and its route go together.
 */
import { randomBytes } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { eventName } from '../../../shared/bank/index.ts';
import type { SecretStore } from '../credentials/secretStore.ts';
import type { BankPort } from './bankPort.ts';
import { routeSecretAccount, type ExpectedCredentials } from './expectedCredentials.ts';
import { ListenerUserError } from './listenerUserError.ts';

export interface Registration {
  webhookId: string;
  event: string;
  /** The address the bank posts to. */
  url: string;
  /** The listener path of this registration; requests on it are verified with its own credentials. */
  path: string;
  basicUser: string;
  /** Where its secret is kept in the SecretStore; the secret itself never leaves the store and the bank. */
  secretAccount: string;
  createdAt: string;
}

interface RegistrationRow {
  webhook_id: string;
  event: string;
  url: string;
  path: string;
  basic_user: string;
  secret_account: string;
  created_at: number;
}

const REGISTRATION_PATH_PREFIX = '/webhooks/';

export class Registrations {
  readonly #database: DatabaseSync;
  readonly #listenerId: string;

  constructor(database: DatabaseSync, listenerId: string) {
    this.#database = database;
    this.#listenerId = listenerId;
  }

  list(): Registration[] {
    const rows = this.#database
      .prepare('SELECT * FROM listener_registrations WHERE listener_id = ? ORDER BY created_at, webhook_id')
      .all(this.#listenerId) as unknown as RegistrationRow[];
    return rows.map((row) => ({
      webhookId: row.webhook_id,
      event: row.event,
      url: row.url,
      path: row.path,
      basicUser: row.basic_user,
      secretAccount: row.secret_account,
      createdAt: new Date(row.created_at).toISOString(),
    }));
  }

  find(webhookId: string): Registration | null {
    return this.list().find((registration) => registration.webhookId === webhookId) ?? null;
  }

  add(registration: Registration): void {
    this.#database
      .prepare(
        `INSERT INTO listener_registrations (listener_id, webhook_id, event, path, url, basic_user, secret_account, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        this.#listenerId,
        registration.webhookId,
        registration.event,
        registration.path,
        registration.url,
        registration.basicUser,
        registration.secretAccount,
        Date.parse(registration.createdAt),
      );
  }

  remove(webhookId: string): void {
    this.#database
      .prepare('DELETE FROM listener_registrations WHERE listener_id = ? AND webhook_id = ?')
      .run(this.#listenerId, webhookId);
  }
}

export interface RegistrationContext {
  bank: BankPort;
  secrets: SecretStore;
  registrations: Registrations;
  credentials: ExpectedCredentials;
  listenerId: string;
}

/** Create the webhook on the bank for `event`, pointing at `listenerUrl` + a fresh path. */
export async function registerWebhook(
  context: RegistrationContext,
  event: string,
  listenerUrl: string,
): Promise<Registration> {
  eventName.parse(event);
  const token = randomBytes(12).toString('base64url');
  const path = REGISTRATION_PATH_PREFIX + token;
  const basicUser = `ledgerdesk-${token.slice(0, 8)}`;
  const secret = randomBytes(32).toString('base64url');
  const secretAccount = routeSecretAccount(context.listenerId, token);
  const url = listenerUrl.replace(/\/+$/, '') + path;
  await context.secrets.set(secretAccount, secret);
  context.credentials.setRoute(path, basicUser, secret);
  let webhookId: string;
  try {
    webhookId = (await context.bank.createWebhook({ event, url, basic_user: basicUser, basic_secret: secret })).id;
  } catch (error) {
    context.credentials.removeRoute(path);
    await context.secrets.delete(secretAccount);
    throw error;
  }
  const registration: Registration = {
    webhookId,
    event,
    url,
    path,
    basicUser,
    secretAccount,
    createdAt: new Date().toISOString(),
  };
  context.registrations.add(registration);
  return registration;
}

/** Delete the webhook on the bank, then its secret and route. Unknown ids are refused. */
export async function unregisterWebhook(context: RegistrationContext, webhookId: string): Promise<Registration> {
  const registration = context.registrations.find(webhookId);
  if (registration === null) {
    throw new ListenerUserError('not_found', `Webhook ${webhookId} was not registered by this listener.`, 'webhookId');
  }
  await context.bank.deleteWebhook(webhookId);
  context.registrations.remove(webhookId);
  context.credentials.removeRoute(registration.path);
  await context.secrets.delete(registration.secretAccount);
  return registration;
}
