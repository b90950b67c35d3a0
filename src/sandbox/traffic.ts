/**
 * The sandbox's traffic, as `npm run sandbox` prints it (like `stripe logs tail`): one entry
 * per API request it answered and one per delivery attempt it made. The server and the
 * dispatcher call the `traffic` option when it is given; nothing is kept or sent anywhere.
 */
export type SandboxTraffic =
  | {
      kind: 'request';
      /** ISO 8601 with milliseconds. */
      time: string;
      method: string;
      /** The path, without the query. */
      path: string;
      status: number;
      ms: number;
      /** The API key that authenticated it; null when none did (GET /ping, refusals). */
      keyId: string | null;
    }
  | {
      kind: 'delivery';
      time: string;
      event: string;
      objectId: string;
      webhookId: string;
      url: string;
      /** The receiver's status; null when it gave none (refused connection, timeout…). */
      status: number | null;
      result: 'sent' | 'error';
      /** 1 for the first attempt. */
      attempt: number;
      /** When the next attempt is due; null when none will be made. */
      nextRetryAt: string | null;
      error: string | null;
    };

export type TrafficListener = (entry: SandboxTraffic) => void;

/** `15:06:08.469  GET  /account  200  1.2 ms  key_local` and `15:06:08.501  -> ach.update http://…  500  attempt 1, next 15:06:09.512` */
export function trafficLineOf(entry: SandboxTraffic): string {
  const time = entry.time.slice(11, 23);
  if (entry.kind === 'request') {
    return [
      time,
      entry.method.padEnd(6),
      entry.path.padEnd(36),
      String(entry.status),
      `${entry.ms.toFixed(1).padStart(7)} ms`,
      entry.keyId ?? '-',
    ].join('  ');
  }
  const answer = entry.status === null ? (entry.error ?? 'no answer') : String(entry.status);
  const next =
    entry.nextRetryAt !== null
      ? `next retry ${entry.nextRetryAt.slice(11, 23)}`
      : entry.result === 'sent'
        ? 'delivered'
        : 'no more retries';
  return `${time}  -> ${entry.event.padEnd(26)} ${entry.url}  ${answer}  attempt ${String(entry.attempt)}, ${next}`;
}
