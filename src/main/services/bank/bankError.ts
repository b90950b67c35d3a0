/**
 * Every failure of a bank request as one typed error: what happened (kind, HTTP status, the
 * server's own sentence), whether retrying later can help, and what the user can do.
 */
import type { ContractAnswer } from '../../../shared/ipc/contractAnswer.ts';
import type { IpcErrorCode } from '../../../shared/ipc/errors.ts';

export type BankErrorKind =
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'bad-request'
  | 'conflict'
  | 'too-large'
  | 'unsupported-media-type'
  | 'unprocessable'
  | 'rate-limited'
  | 'bank-offline'
  | 'server-error'
  | 'unavailable'
  | 'gateway-timeout'
  | 'timeout'
  | 'unreachable'
  | 'malformed-response'
  | 'schema-violation'
  | 'cancelled'
  /** A 429 that names an account limit (accountLimit.ts): not retried, not "slow down". */
  | 'limit-exceeded'
  /** The proxy setting itself is unusable (an HTTPS_PROXY that names a SOCKS proxy…). */
  | 'proxy-setting'
  /** The proxy (not the bank) cannot be reached. */
  | 'proxy-unreachable'
  /** The proxy wants a login, or refused the one given (407, or tinyproxy's 401). */
  | 'proxy-auth'
  /** The proxy refused to open a tunnel to the bank. */
  | 'proxy-refused'
  /** The bank's certificate is not vouched for by any CA trusted here (a TLS-inspecting proxy's, often). */
  | 'tls-untrusted';

export interface BankErrorDetails {
  kind: BankErrorKind;
  /** e.g. `GET /account/{account_id}/pending_transaction` */
  endpoint: string;
  profileName: string;
  status: number | null;
  /** The bank's `{error}` sentence, when it sent one. */
  serverMessage: string | null;
  /** Whether trying again later can help (the client has already retried what was safe). */
  retryable: boolean;
  /** What the user can do, in one sentence. */
  remedy: string;
  /**
   * The same failure as a person reads it, without the endpoint or the address (a bank that
   * cannot be reached, the local sandbox not running): what happened and what to do. Shown by
   * the app; the CLI and logs keep the full message.
   */
  forPeople?: { message: string; action: string };
  /** For rate limiting: how long the bank asked us to wait. */
  retryAfterSeconds?: number;
  /** For schema violations: one line per field. */
  problems?: string[];
  /** How many attempts were made. */
  attempts: number;
  /**
   * For an answer that could not be read (malformed or not matching): the bank's own success
   * status, so a caller knows the bank acted (a create made its object), and the id the
   * answer named, when one could be found in it.
   */
  unread?: { status: number; objectId: string | null };
}

function describe(details: BankErrorDetails): string {
  const what =
    details.serverMessage ??
    {
      unauthorized: 'the bank refused the credentials',
      forbidden: 'the credentials may not do this',
      'not-found': 'not found',
      'bad-request': 'the bank refused the request',
      conflict: 'the request conflicts with the current state',
      'too-large': 'the request is too large',
      'unsupported-media-type': 'the bank does not accept this media type',
      unprocessable: 'the bank could not process the request',
      'rate-limited': 'the bank is limiting the rate of requests',
      'bank-offline': 'the bank core is offline',
      'server-error': 'the bank had an internal error',
      unavailable: 'the bank is unavailable',
      'gateway-timeout': 'the bank did not answer its gateway in time',
      timeout: 'the bank did not answer in time',
      unreachable: 'the bank cannot be reached',
      'malformed-response': 'the bank answered something that is not valid JSON',
      'schema-violation': 'the bank answered data that does not match the interface',
      cancelled: 'the request was cancelled',
      'limit-exceeded': 'an account limit was exceeded',
      'proxy-setting': 'the proxy setting cannot be used',
      'proxy-unreachable': 'the proxy cannot be reached',
      'proxy-auth': 'the proxy asks for a login',
      'proxy-refused': 'the proxy refused to open a tunnel to the bank',
      'tls-untrusted': "the bank's certificate is not trusted",
    }[details.kind];
  const status = details.status === null ? '' : ` (${String(details.status)})`;
  return `${details.endpoint}${status}: ${what.replace(/[.\s]+$/, '')}. ${details.remedy}`;
}

/** The contract's code for each kind the window treats apart; every other kind is a bank_error. */
const BANK_KIND_CODES: Partial<Record<BankErrorKind, IpcErrorCode>> = {
  unauthorized: 'unauthorized',
  forbidden: 'unauthorized',
  'not-found': 'not_found',
  conflict: 'conflict',
  'rate-limited': 'rate_limited',
  'bank-offline': 'offline',
  unavailable: 'offline',
  'gateway-timeout': 'offline',
  timeout: 'offline',
  unreachable: 'offline',
  cancelled: 'cancelled',
};

export class BankError extends Error implements BankErrorDetails {
  readonly kind: BankErrorKind;
  readonly endpoint: string;
  readonly profileName: string;
  readonly status: number | null;
  readonly serverMessage: string | null;
  readonly retryable: boolean;
  readonly remedy: string;
  readonly retryAfterSeconds?: number;
  readonly problems?: string[];
  readonly attempts: number;
  readonly unread?: { status: number; objectId: string | null };
  readonly forPeople?: { message: string; action: string };

  constructor(details: BankErrorDetails) {
    super(describe(details));
    this.name = 'BankError';
    this.kind = details.kind;
    this.endpoint = details.endpoint;
    this.profileName = details.profileName;
    this.status = details.status;
    this.serverMessage = details.serverMessage;
    this.retryable = details.retryable;
    this.remedy = details.remedy;
    if (details.retryAfterSeconds !== undefined) this.retryAfterSeconds = details.retryAfterSeconds;
    if (details.problems !== undefined) this.problems = details.problems;
    this.attempts = details.attempts;
    if (details.unread !== undefined) this.unread = details.unread;
    if (details.forPeople !== undefined) this.forPeople = details.forPeople;
  }

  /** The same failure with what the user can do now, said by a caller that knows more (bankWrites.ts). */
  withRemedy(remedy: string, retryable: boolean): BankError {
    return new BankError({
      kind: this.kind,
      endpoint: this.endpoint,
      profileName: this.profileName,
      status: this.status,
      serverMessage: this.serverMessage,
      retryable,
      remedy,
      attempts: this.attempts,
      ...(this.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: this.retryAfterSeconds }),
      ...(this.problems === undefined ? {} : { problems: this.problems }),
      ...(this.unread === undefined ? {} : { unread: this.unread }),
    });
  }

  /** Whether this failure says the bank cannot be reached right now (for online/offline). */
  get meansOffline(): boolean {
    return [
      'unreachable',
      'timeout',
      'bank-offline',
      'unavailable',
      'gateway-timeout',
      // Out of reach through the network: the badge says so, in the proxy's or certificate's own words.
      'proxy-setting',
      'proxy-unreachable',
      'proxy-auth',
      'proxy-refused',
      'tls-untrusted',
    ].includes(this.kind);
  }

  /** Whether the failure is the network's (a proxy, a certificate) rather than the bank's. */
  get aboutNetwork(): boolean {
    return ['proxy-setting', 'proxy-unreachable', 'proxy-auth', 'proxy-refused', 'tls-untrusted'].includes(this.kind);
  }

  /** A failure with a person's wording (the bank out of reach) reaches the window in those words. */
  get answer(): ContractAnswer {
    const action = this.forPeople?.action ?? this.remedy;
    return {
      code: BANK_KIND_CODES[this.kind] ?? 'bank_error',
      ...(this.forPeople === undefined ? {} : { message: this.forPeople.message }),
      retryable: this.retryable,
      ...(action === '' ? {} : { action }),
      ...(this.status === null ? {} : { status: this.status }),
    };
  }
}

/** The kind and remedy for an HTTP error status. */
export function classifyStatus(
  status: number,
  profileName: string,
  context: { bearerExpiredAt?: string | null; authScheme?: 'basic' | 'bearer' },
): { kind: BankErrorKind; retryable: boolean; remedy: string } {
  switch (status) {
    case 401:
      if (context.authScheme === 'bearer') {
        const expired =
          context.bearerExpiredAt !== undefined &&
          context.bearerExpiredAt !== null &&
          Date.parse(context.bearerExpiredAt) <= Date.now();
        return {
          kind: 'unauthorized',
          retryable: false,
          remedy: expired
            ? `The bearer token of profile ${profileName} expired at ${context.bearerExpiredAt ?? ''}: replace it.`
            : `Check the bearer token of profile ${profileName}: it is expired or not valid.`,
        };
      }
      return { kind: 'unauthorized', retryable: false, remedy: `Check the API key of profile ${profileName}.` };
    case 403:
      return {
        kind: 'forbidden',
        retryable: false,
        remedy: `Check that the API key of profile ${profileName} is allowed to do this.`,
      };
    case 404:
      return { kind: 'not-found', retryable: false, remedy: 'Check the id: the bank does not know it.' };
    case 405:
    case 400:
      return { kind: 'bad-request', retryable: false, remedy: 'Correct the request and send it again.' };
    case 409:
      return { kind: 'conflict', retryable: false, remedy: 'Refresh, then try again with the current data.' };
    case 413:
      return { kind: 'too-large', retryable: false, remedy: 'Send a smaller file or body.' };
    case 415:
      return { kind: 'unsupported-media-type', retryable: false, remedy: 'Send a file of an accepted type.' };
    case 422:
      return { kind: 'unprocessable', retryable: false, remedy: 'Correct the request and send it again.' };
    case 429:
      return { kind: 'rate-limited', retryable: true, remedy: 'The bank is limiting requests: try again shortly.' };
    case 502:
      return { kind: 'bank-offline', retryable: true, remedy: 'The bank core is offline: try later.' };
    case 503:
      return { kind: 'unavailable', retryable: true, remedy: 'The bank is unavailable: try later.' };
    case 504:
      return { kind: 'gateway-timeout', retryable: true, remedy: 'The bank is slow to answer: try later.' };
    default:
      if (status >= 500) {
        return {
          kind: 'server-error',
          retryable: true,
          remedy: 'The bank had an internal error: try later, and tell the bank if it persists.',
        };
      }
      return { kind: 'bad-request', retryable: false, remedy: 'Correct the request and send it again.' };
  }
}
