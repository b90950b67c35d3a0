/**
 * Every way one outbound request can fail before an HTTP answer is read, each in its own
 * words: a proxy that is down, wants a login, refuses the login or the destination; a
 * certificate nobody trusted vouches for; the bank out of reach; too slow; too large. A proxy's
 * failure is never reported as "the bank cannot be reached": the person can act on it.
 */
export type TransportFailureKind =
  | 'proxy-setting'
  | 'proxy-unreachable'
  | 'proxy-auth-required'
  | 'proxy-auth-refused'
  | 'proxy-refused'
  | 'proxy-upstream'
  | 'tls-untrusted'
  | 'tls-failed'
  | 'unreachable'
  | 'connect-timeout'
  | 'timeout'
  | 'too-large'
  | 'cancelled'
  | 'connection-lost';

export interface TransportFailureDetails {
  kind: TransportFailureKind;
  /** What happened, in a sentence a person reads. */
  message: string;
  /** What to do about it, in a sentence. */
  action: string;
  /** The socket's or proxy's own code (ECONNREFUSED, 407...), for logs and retries. */
  code: string | null;
  /** Whether the request certainly never reached the server (so any method may be retried). */
  neverSent: boolean;
  /** For a TLS refusal: the certificate the server presented. */
  certificate?: { subject: string; issuer: string; subjectAltName: string | null };
}

export class TransportError extends Error implements TransportFailureDetails {
  readonly kind: TransportFailureKind;
  readonly action: string;
  readonly code: string | null;
  readonly neverSent: boolean;
  readonly certificate?: { subject: string; issuer: string; subjectAltName: string | null };

  constructor(details: TransportFailureDetails) {
    super(details.message);
    this.name = 'TransportError';
    this.kind = details.kind;
    this.action = details.action;
    this.code = details.code;
    this.neverSent = details.neverSent;
    if (details.certificate !== undefined) this.certificate = details.certificate;
  }

  /** Whether it is the proxy's doing (or its setting's), not the bank's. */
  get aboutProxy(): boolean {
    return this.kind.startsWith('proxy-');
  }
}

/** Socket errors that prove nothing was sent. */
export const NEVER_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNECT_TIMEOUT',
]);

/** OpenSSL's verification codes that mean "nobody you trust vouches for this certificate" (or it is not this host's). */
export const UNTRUSTED_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'INVALID_CA',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'HOSTNAME_MISMATCH',
]);
