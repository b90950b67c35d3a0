/**
 * Events main pushes to the window (sync progress, listener requests, online status,
 * credential status): each payload is checked against the contract and scrubbed of secrets
 * before it is sent, like every reply. Listener requests arrive here already batched
 * (services/listener/eventBatcher.ts): however many arrive, the window gets at most a few
 * messages a second.
 */
import {
  EVENTS_BY_CHANNEL,
  eventChannel,
  type EventDomain,
  type EventOf,
  type EventPayloadOf,
} from '../../shared/ipc/contract.ts';
import { describeIssues } from '../../shared/bank/parse.ts';
import { scrubSecrets } from './secretScrubber.ts';

export interface EventPublisherOptions {
  /** Sends to every trusted window (webContents.send at the edge). */
  send(channel: string, payload: unknown): void;
  knownSecrets?: () => Iterable<string>;
  log?: (message: string) => void;
}

export interface EventPublisher {
  /** True when sent; false when the payload did not match the contract (logged, not sent). */
  publish<D extends EventDomain, E extends EventOf<D>>(domain: D, event: E, payload: EventPayloadOf<D, E>): boolean;
}

export function createEventPublisher(options: EventPublisherOptions): EventPublisher {
  const log = options.log ?? (() => undefined);
  return {
    publish(domain, event, payload) {
      const channel = eventChannel(domain, event);
      const entry = EVENTS_BY_CHANNEL.get(channel);
      if (entry === undefined) {
        log(`no event ${channel} in the contract`);
        return false;
      }
      const checked = entry.payload.safeParse(payload);
      if (!checked.success) {
        log(
          `event ${channel} does not match the contract: ${describeIssues(checked.error.issues).slice(0, 5).join('; ')}`,
        );
        return false;
      }
      const scrubbed = scrubSecrets(checked.data, options.knownSecrets?.() ?? []);
      if (scrubbed.redactions > 0) log(`withheld ${scrubbed.redactions} secret(s) from event ${channel}`);
      options.send(channel, scrubbed.value);
      return true;
    },
  };
}
