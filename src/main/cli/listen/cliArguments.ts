/**
 * The command line of `npm run listen`, read into what the listener needs. Everything the
 * user can get wrong gets a sentence that says what to type instead.
 */
import { parseArgs } from 'node:util';
import { allowedHostEntry, allowedOriginEntry } from '../../../shared/security/localServerGuard.ts';
import type { ResponseRule } from '../../services/listener/responseRules.ts';
import { COMMON_OPTIONS } from '../common/commonOptions.ts';
import { UsageError } from '../common/usageError.ts';

export const LISTEN_USAGE = `Usage: npm run listen -- [options]

Receives the bank's webhook notifications on this machine, verifies and keeps each one,
and prints one line per request.

  --port N            port to listen on (default: the last one used, else 4880; 0: any free port)
  --host HOST         interface to listen on (default 127.0.0.1)
  --expose            allow a non-loopback --host (anyone who reaches it can post)
  --allow-host NAME   also answer requests addressed to NAME[:PORT] (a tunnel's host); repeatable.
                      Others get 421: a page that rebinds its DNS name to this machine cannot post
  --allow-origin URL  also keep requests made by a web page of this origin; repeatable (others: 403)
  --basic USER:SECRET expect this Basic user and secret (or set LEDGERDESK_LISTENER_BASIC)
  --reject-unverified answer 401 when the verdict is not ok
  --forward-to URL    forward each request to a local handler, to exactly URL, and show its answer:
                      method, body and headers as received (Authorization included), plus
                      X-Ledgerdesk-Verdict and X-Ledgerdesk-Request. Another host than loopback
                      is allowed because you typed it here
  --forward-append-path  with --forward-to: add each request's path and query under URL's path
  --forward-verified-only  forward only requests whose verdict is ok (default: all, marked by the verdict)
  --respond STATUS    answer this status instead of 200
  --times N           with --respond: fail the first N arrivals of each notification, then 200
  --delay MS          answer after this delay
  --no-answer         never answer (the sender times out)
  --drop              close the connection without answering
  --event EVENT       apply --respond/--delay/--no-answer/--drop only to this event (ach.* for a prefix);
                      with --register, an event to subscribe to (repeatable)
  --profile NAME      the bank profile (as \`ledger profile list\` names it) whose objects each verified
                      notification's url is fetched from
  --register          with --profile and --basic: subscribe this listener to the --event(s) at start
                      (one webhook per event, with the --basic credentials); removed again at Ctrl+C
  --all-events        with --register: every event of \`ledger events\`
  --public-url URL    the address the bank reaches the listener at (a tunnel's or reverse proxy's origin,
                      e.g. https://abc.ngrok-free.app): --register gives it to the bank, and requests
                      addressed to its host are answered as the listener's own (docs/listener-reach.md)
  --allow-http        with --register: give the bank a plain http:// or private address; only a sandbox
                      that says it delivers there accepts it (every other bank: public https:// only)
  --tls-cert FILE     serve HTTPS with this certificate (PEM); needs --tls-key
  --tls-key FILE      the certificate's private key (PEM)
  --max-body BYTES    refuse larger bodies with 413 (default 1048576)
  --body-timeout MS   refuse bodies that take longer with 408 (default 10000)
  --data DIR          where requests are kept (default: Ledgerdesk's data folder)
  --listener ID       keep several listeners apart in one data folder (default "cli")
  --print-body        print each request's body (as kept: up to 256 KiB) under its line
  --json              one JSON object per line ({"listening": URL} first, then one per request)
  --help              this text

What it kept, read while it runs or after (see \`npm run listen -- inspect --help\`):
  npm run listen -- inspect [ID]      the kept requests, or everything kept of one
  npm run listen -- replay ID         send one again (default: to the listener's address)
  npm run listen -- export FILE       all of them as JSONL, which the app imports (or --format curl)
`;

export interface ListenArguments {
  port: number | undefined;
  host: string | undefined;
  expose: boolean;
  allowedHosts: string[];
  allowedOrigins: string[];
  basic: { user: string; secret: string } | null;
  rejectUnverified: boolean;
  forwardTo: string | null;
  /** Add the received path and query under --forward-to's path (off: exactly the URL given). */
  forwardAppendPath: boolean;
  forwardVerifiedOnly: boolean;
  rule: ResponseRule | null;
  maxBodyBytes: number | undefined;
  bodyTimeoutMs: number | undefined;
  dataFolder: string | undefined;
  /** `--passphrase-file`: the data folder's key file's passphrase, for --profile on a machine without a keychain. */
  passphraseFile: string | null;
  /** The bank profile to hydrate from (and register with); null without --profile. */
  profile: string | null;
  /** With --register: the events to subscribe to; null without --register. */
  register: { events: string[] | 'all'; allowHttp: boolean } | null;
  /** --public-url: the tunnel's or reverse proxy's origin; null without it. */
  publicUrl: string | null;
  /** --tls-cert and --tls-key: serve HTTPS with these PEM files. */
  tls: { certFile: string; keyFile: string } | null;
  listenerId: string;
  printBody: boolean;
  json: boolean;
  help: boolean;
}

function wholeNumber(name: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[0-9]+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, not "${text}".`);
  }
  return Number(text);
}

function entriesOf(name: string, texts: string[] | undefined, normalize: (text: string) => string): string[] {
  return (texts ?? []).map((text) => {
    try {
      return normalize(text);
    } catch (error) {
      throw new UsageError(`--${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
}

function basicOf(text: string | undefined): { user: string; secret: string } | null {
  if (text === undefined || text === '') return null;
  const colon = text.indexOf(':');
  if (colon <= 0 || colon === text.length - 1) {
    throw new UsageError('--basic must be USER:SECRET, both non-empty (the user cannot contain a colon).');
  }
  return { user: text.slice(0, colon), secret: text.slice(colon + 1) };
}

function ruleOf(
  values: {
    respond?: string | undefined;
    times?: string | undefined;
    delay?: string | undefined;
    'no-answer'?: boolean | undefined;
    drop?: boolean | undefined;
    event?: string | undefined;
  },
  registering: boolean,
): ResponseRule | null {
  const status = wholeNumber('respond', values.respond, 100, 599);
  const times = wholeNumber('times', values.times, 1, 1000);
  const delayMs = wholeNumber('delay', values.delay, 0, 600_000);
  const scope = values.event === undefined ? {} : { event: values.event };
  const chosen = [status !== undefined || delayMs !== undefined, values['no-answer'] === true, values.drop === true];
  if (chosen.filter(Boolean).length > 1) {
    throw new UsageError('Choose one of --respond/--delay, --no-answer and --drop.');
  }
  if (times !== undefined && status === undefined) {
    throw new UsageError('--times needs --respond: the status of the failures (e.g. --respond 500 --times 3).');
  }
  if (values['no-answer'] === true) return { id: 'cli', ...scope, action: { kind: 'no_answer' } };
  if (values.drop === true) return { id: 'cli', ...scope, action: { kind: 'drop' } };
  const delay = delayMs === undefined ? {} : { delayMs };
  if (status !== undefined && times !== undefined) {
    return { id: 'cli', ...scope, action: { kind: 'fail_times', times, status, ...delay } };
  }
  if (status !== undefined) return { id: 'cli', ...scope, action: { kind: 'status', status, ...delay } };
  if (delayMs !== undefined) return { id: 'cli', ...scope, action: { kind: 'delay', delayMs } };
  if (values.event !== undefined && !registering)
    throw new UsageError('--event scopes a rule: add --respond, --delay, --no-answer or --drop (or --register).');
  return null;
}

export function readListenArguments(argv: string[], environment: NodeJS.ProcessEnv = process.env): ListenArguments {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        expose: { type: 'boolean' },
        'allow-host': { type: 'string', multiple: true },
        'allow-origin': { type: 'string', multiple: true },
        basic: { type: 'string' },
        'reject-unverified': { type: 'boolean' },
        'forward-to': { type: 'string' },
        'forward-append-path': { type: 'boolean' },
        'forward-verified-only': { type: 'boolean' },
        respond: { type: 'string' },
        times: { type: 'string' },
        delay: { type: 'string' },
        'no-answer': { type: 'boolean' },
        drop: { type: 'boolean' },
        event: { type: 'string', multiple: true },
        profile: { type: 'string' },
        register: { type: 'boolean' },
        'all-events': { type: 'boolean' },
        'public-url': { type: 'string' },
        'allow-http': { type: 'boolean' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        'max-body': { type: 'string' },
        'body-timeout': { type: 'string' },
        ...COMMON_OPTIONS,
        listener: { type: 'string' },
        'print-body': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const values = parsed.values;
  const forwardTo = values['forward-to'] ?? null;
  if (forwardTo !== null && !/^https?:\/\/[^/]/.test(forwardTo)) {
    throw new UsageError(`--forward-to must be an http:// or https:// URL, not "${forwardTo}".`);
  }
  const listenerId = values.listener ?? 'cli';
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(listenerId)) {
    throw new UsageError('--listener must be 1 to 64 letters, digits, dots, dashes or underscores.');
  }
  const registering = values.register === true;
  const events = values.event ?? [];
  const badEvent = events.find((event) => !/^[a-z][a-z_]*[.](create|update|delete)$/.test(event));
  if (registering && badEvent !== undefined) {
    throw new UsageError(`--event ${badEvent}: must be an event name like ach.update (see \`ledger events\`).`);
  }
  if (!registering && events.length > 1) {
    throw new UsageError('--event is given once to scope a rule (several only with --register).');
  }
  const register = registerOf(values, registering, events);
  const basic = basicOf(values.basic ?? environment.LEDGERDESK_LISTENER_BASIC);
  if (register !== null && basic === null) {
    throw new UsageError(
      '--register needs --basic USER:SECRET: the bank sends them with each notification, so each one verifies.',
    );
  }
  const publicUrl = values['public-url'] ?? null;
  if (publicUrl !== null && !/^https?:\/\/[^/]/.test(publicUrl)) {
    throw new UsageError(`--public-url must be an https:// address (a tunnel's), not "${publicUrl}".`);
  }
  const certFile = values['tls-cert'];
  const keyFile = values['tls-key'];
  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw new UsageError('--tls-cert and --tls-key go together: the certificate and its private key (PEM files).');
  }
  // A rule scoped by --event: one event; with --register and several, the rule applies to all of them.
  const ruleEvent = events.length === 1 ? events[0] : undefined;
  return {
    port: wholeNumber('port', values.port, 0, 65_535),
    host: values.host,
    expose: values.expose === true,
    allowedHosts: entriesOf('allow-host', values['allow-host'], allowedHostEntry),
    allowedOrigins: entriesOf('allow-origin', values['allow-origin'], allowedOriginEntry),
    basic,
    rejectUnverified: values['reject-unverified'] === true,
    forwardTo,
    forwardAppendPath: values['forward-append-path'] === true,
    forwardVerifiedOnly: values['forward-verified-only'] === true,
    rule: ruleOf({ ...values, event: ruleEvent }, registering),
    maxBodyBytes: wholeNumber('max-body', values['max-body'], 1, 64 * 1024 * 1024),
    bodyTimeoutMs: wholeNumber('body-timeout', values['body-timeout'], 1, 600_000),
    dataFolder: values.data,
    passphraseFile: values['passphrase-file'] ?? null,
    profile: values.profile ?? null,
    register,
    publicUrl,
    tls: certFile === undefined || keyFile === undefined ? null : { certFile, keyFile },
    listenerId,
    printBody: values['print-body'] === true,
    json: values.json === true,
    help: values.help === true,
  };
}

function registerOf(
  values: {
    profile?: string | undefined;
    basic?: string | undefined;
    'all-events'?: boolean | undefined;
    'allow-http'?: boolean | undefined;
  },
  registering: boolean,
  events: string[],
): ListenArguments['register'] {
  const allEvents = values['all-events'] === true;
  const allowHttp = values['allow-http'] === true;
  if (!registering) {
    if (allEvents || allowHttp) throw new UsageError('--all-events and --allow-http go with --register.');
    return null;
  }
  if (values.profile === undefined) {
    throw new UsageError('--register needs --profile NAME: the bank to subscribe the listener at.');
  }
  if (allEvents === events.length > 0) {
    throw new UsageError(
      '--register needs the events to subscribe to: --event E (repeatable) or --all-events, one of the two.',
    );
  }
  return { events: allEvents ? 'all' : [...new Set(events)], allowHttp };
}
