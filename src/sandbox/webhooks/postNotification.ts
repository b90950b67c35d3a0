/**
 * One HTTP POST of a notification to a webhook's URL. No redirects are followed (a 3xx is a
 * failed delivery), the whole exchange has a deadline, and the answer's body is read and
 * dropped (bounded) so the connection can be reused.
 */
import http from 'node:http';
import https from 'node:https';
import type { WebhookNotification } from '../../shared/bank/index.ts';

export type DeliveryOutcome =
  | { kind: 'delivered'; status: number }
  /** The receiver answered, but not with 200 or 202. */
  | { kind: 'refused'; status: number; reason: string }
  /** No valid answer at all: refused connection, reset, timeout, DNS failure, broken HTTP. */
  | { kind: 'no_answer'; reason: string };

interface NotificationPost {
  url: string;
  notification: WebhookNotification;
  /** `base64(basic_user:basic_secret)` when both are set. */
  basicCredentials: string | null;
  timeoutMs: number;
}

const MAX_ANSWER_BYTES = 64 * 1024;

export interface NotificationPoster {
  post(request: NotificationPost): Promise<DeliveryOutcome>;
  close(): void;
}

export function createNotificationPoster(maxSockets: number): NotificationPoster {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets }),
    'https:': new https.Agent({ keepAlive: true, maxSockets }),
  };

  function once(request: NotificationPost, target: URL): Promise<DeliveryOutcome & { reusedSocket?: boolean }> {
    const body = JSON.stringify(request.notification);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': 'Ledgerdesk-Sandbox-Webhooks/1',
    };
    if (request.basicCredentials !== null) headers.authorization = `Basic ${request.basicCredentials}`;
    const transport = target.protocol === 'https:' ? https : http;
    const agent = target.protocol === 'https:' ? agents['https:'] : agents['http:'];

    return new Promise((resolve) => {
      let settled = false;
      const settle = (outcome: DeliveryOutcome, reusedSocket = false) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve({ ...outcome, reusedSocket });
      };
      const outgoing = transport.request(target, { method: 'POST', headers, agent }, (answer) => {
        let received = 0;
        answer.on('data', (piece: Buffer) => {
          received += piece.length;
          if (received > MAX_ANSWER_BYTES) answer.destroy();
        });
        const status = answer.statusCode ?? 0;
        const finish = () => {
          if (status === 200 || status === 202) settle({ kind: 'delivered', status });
          else settle({ kind: 'refused', status, reason: reasonForStatus(status, answer.headers.location) });
        };
        answer.on('end', finish);
        answer.on('close', finish);
        answer.on('error', finish);
      });
      const deadline = setTimeout(() => {
        settle({ kind: 'no_answer', reason: `no answer within ${String(request.timeoutMs)} ms (timeout)` });
        outgoing.destroy();
      }, request.timeoutMs);
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        settle({ kind: 'no_answer', reason: reasonForError(error, target) }, outgoing.reusedSocket);
      });
      outgoing.end(body);
    });
  }

  return {
    async post(request) {
      let target: URL;
      try {
        target = new URL(request.url);
      } catch {
        return { kind: 'no_answer', reason: `the webhook URL ${request.url} is not a valid URL` };
      }
      const first = await once(request, target);
      // A kept-alive socket the receiver closed just before we wrote: the request never
      // reached it, so sending again on a fresh socket is safe (the documented Node pattern).
      if (first.kind === 'no_answer' && first.reusedSocket === true) return stripped(await once(request, target));
      return stripped(first);
    },
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}

function stripped(outcome: DeliveryOutcome & { reusedSocket?: boolean }): DeliveryOutcome {
  const { reusedSocket: _ignored, ...rest } = outcome;
  return rest;
}

function reasonForStatus(status: number, location: string | undefined): string {
  if (status >= 300 && status < 400) {
    return `answered HTTP ${String(status)} (redirect${location === undefined ? '' : ' to ' + location}); redirects are not followed`;
  }
  return `answered HTTP ${String(status)}; only 200 and 202 count as delivered`;
}

function reasonForError(error: NodeJS.ErrnoException, target: URL): string {
  const where = target.host;
  switch (error.code) {
    case 'ECONNREFUSED':
      return `connection refused by ${where} (ECONNREFUSED)`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `connection to ${where} was reset before an answer (${error.code})`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `DNS lookup failed for ${target.hostname} (${error.code})`;
    case 'ETIMEDOUT':
    case 'ECONNABORTED':
      return `connection to ${where} timed out (${error.code})`;
    default:
      if (error.code?.startsWith('HPE_') === true) return `invalid HTTP answer from ${where} (${error.code})`;
      return `delivery to ${where} failed: ${error.message}${error.code === undefined ? '' : ` (${error.code})`}`;
  }
}
