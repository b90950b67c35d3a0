/**
 * The Basic credentials a listener expects, per route: its own (user in its settings, secret
 * in the keychain as `listener:<id>`), and one pair per webhook registered in one step, on
 * that registration's own path (secret as `listener:<id>:route:<token>`). Secrets are read
 * from the SecretStore once and kept only as digests.
 */
import type { SecretStore } from '../credentials/secretStore.ts';
import { expectBasic, type ExpectedBasic } from './basicAuth.ts';

export function listenerSecretAccount(listenerId: string): string {
  return `listener:${listenerId}`;
}

export function routeSecretAccount(listenerId: string, token: string): string {
  return `listener:${listenerId}:route:${token}`;
}

export class ExpectedCredentials {
  #listener: ExpectedBasic | null = null;
  readonly #routes = new Map<string, ExpectedBasic | null>();

  /** What a request on `path` must present; null when nothing is configured for it. */
  for(path: string): ExpectedBasic | null {
    const route = this.#routes.get(path);
    return route === undefined ? this.#listener : route;
  }

  get configured(): boolean {
    return this.#listener !== null;
  }

  get listenerUser(): string | null {
    return this.#listener?.user ?? null;
  }

  /** Load the listener's own pair; a user without a secret in the store counts as not configured. */
  async loadListener(secrets: SecretStore, account: string, user: string | null): Promise<void> {
    const secret = user === null ? null : await secrets.get(account);
    this.#listener = user === null || secret === null ? null : expectBasic(user, secret);
  }

  /** Load a route's pair; a route whose secret is missing verifies as not configured, never as the listener's. */
  async loadRoute(secrets: SecretStore, path: string, account: string, user: string): Promise<void> {
    const secret = await secrets.get(account);
    this.#routes.set(path, secret === null ? null : expectBasic(user, secret));
  }

  setRoute(path: string, user: string, secret: string): void {
    this.#routes.set(path, expectBasic(user, secret));
  }

  removeRoute(path: string): void {
    this.#routes.delete(path);
  }
}
