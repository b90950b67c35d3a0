/**
 * The bank of `npm run listen -- --profile NAME`: the profile (from the profiles file and the
 * keychain of the data folder, as `ledger` reads them) that the listener hydrates
 * notifications from, and, with --register, subscribes itself to: one webhook per event,
 * posting to the listener with its own Basic credentials, made when it starts and removed,
 * exactly those, when it stops. Each write goes through the app's BankWrites, so the audit
 * log records it as it records the app's.
 *
 * Loaded only when --profile is given: a listener without a bank opens no keychain.
 */
import type { WebhookResponse } from '../../../shared/bank/index.ts';
import { KeyringSecretStore } from '../../services/credentials/keyringSecretStore.ts';
import type { SecretStore } from '../../services/credentials/secretStore.ts';
import { LedgerServices } from '../../services/ledgerServices.ts';
import { FileProfileStorage } from '../../services/profiles/fileProfileStorage.ts';
import type { Profile } from '../../services/profiles/profile.ts';
import { bankClientPort } from '../../services/listener/bankClientPort.ts';
import type { Environment } from '../../services/http/environmentProxy.ts';
import type { BankPort } from '../../services/listener/bankPort.ts';

class ListenerBankRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ListenerBankRefused';
  }
}

export interface RegisteredWebhook {
  id: string;
  event: string;
  url: string;
}

export interface ListenerBank {
  profile: Profile;
  /** The services it opened: `ledger` commands sent to the listener run on them (one writer). */
  services: LedgerServices;
  secretStore: SecretStore;
  port: BankPort;
  /** Subscribe `url` to each event (Basic `user`/`secret`); all or nothing: on a failure the ones made are removed. */
  register(
    events: readonly string[],
    url: string,
    basic: { user: string; secret: string },
    options?: { allowHttp?: boolean },
  ): Promise<RegisteredWebhook[]>;
  /** Remove the webhooks made by register(); those the bank refused to remove are returned with why. */
  unregister(): Promise<{ removed: RegisteredWebhook[]; failed: { webhook: RegisteredWebhook; reason: string }[] }>;
  close(): Promise<void>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function openListenerBank(
  dataFolder: string,
  profileName: string,
  secretStore: SecretStore = new KeyringSecretStore(),
  environment: Environment = process.env,
): Promise<ListenerBank> {
  const services = await LedgerServices.open({
    // Its registrations and removals are audited as the listen command's, not the app's.
    actor: 'listen',
    dataFolder,
    secretStore,
    profileStorage: new FileProfileStorage(dataFolder),
    network: { environment, systemResolver: null },
  });
  let profile: Profile;
  try {
    profile = services.profiles.find(profileName);
    if (profile.kind === 'embedded-sandbox') {
      throw new ListenerBankRefused(
        `"${profile.name}" runs only for the length of one \`ledger\` command, so nothing could reach it from the listener. ` +
          'Start a sandbox that stays up (`npm run sandbox -- --port 4010 …`) and a profile pointing at it: see docs/scenarios.md.',
      );
    }
    if (profile.production) {
      throw new ListenerBankRefused(
        `"${profile.name}" is a production profile: the listener does not subscribe itself there. Use \`ledger webhooks add --yes\` if you mean to.`,
      );
    }
  } catch (error) {
    await services.close();
    throw error;
  }
  const client = services.clients.clientFor(profile.id);
  const made: WebhookResponse[] = [];
  const registered = (webhook: WebhookResponse): RegisteredWebhook => ({
    id: webhook.id,
    event: webhook.event ?? '',
    url: webhook.url ?? '',
  });

  async function removeAll(): Promise<{
    removed: RegisteredWebhook[];
    failed: { webhook: RegisteredWebhook; reason: string }[];
  }> {
    const removed: RegisteredWebhook[] = [];
    const failed: { webhook: RegisteredWebhook; reason: string }[] = [];
    for (const webhook of made.splice(0)) {
      try {
        await services.writes.deleteWebhook(profile.id, webhook.id);
        removed.push(registered(webhook));
      } catch (error) {
        failed.push({ webhook: registered(webhook), reason: messageOf(error) });
      }
    }
    return { removed, failed };
  }

  return {
    services,
    secretStore,
    profile,
    port: bankClientPort(client),
    async register(events, url, basic, options = {}) {
      try {
        for (const event of new Set(events)) {
          made.push(
            await services.writes.createWebhook(
              profile.id,
              { event, url, basic_user: basic.user, basic_secret: basic.secret },
              options.allowHttp === true ? { allowHttp: true } : {},
            ),
          );
        }
      } catch (error) {
        const { removed, failed } = await removeAll();
        const undone = removed.length === 0 ? '' : ` The ${String(removed.length)} made before it were removed again.`;
        const left =
          failed.length === 0
            ? ''
            : ` Still at the bank: ${failed.map((entry) => entry.webhook.id).join(', ')} (\`ledger webhooks remove ID --profile NAME\`).`;
        throw new ListenerBankRefused(`Registering with ${profile.name} failed: ${messageOf(error)}${undone}${left}`);
      }
      return made.map(registered);
    },
    unregister: removeAll,
    close: () => services.close(),
  };
}
