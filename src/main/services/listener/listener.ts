/**
 * The local webhook listener, as the rest of the app uses it: one object per listener that
 * receives, verifies, keeps, understands, forwards, replays, fails on purpose, reconciles and
 * registers. It owns no database (it is handed the cache's, and migrates its own tables) and
 * no secret (they stay in the SecretStore). Subscribers get batches on the `batch` event.
 */
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { networkInterfaces } from 'node:os';
import type { DatabaseSync } from 'node:sqlite';
import {
  allowedHostEntry,
  createLocalServerGuard,
  type LocalServerGuard,
} from '../../../shared/security/localServerGuard.ts';
import { boundHostNames } from '../../../shared/security/boundHostNames.ts';
import type { SecretStore } from '../credentials/secretStore.ts';
import { ArrivalOrder } from './arrivalOrder.ts';
import type { BankPort } from './bankPort.ts';
import { EventBatcher, type Batch, type BatchingOptions } from './eventBatcher.ts';
import { ExpectedCredentials, listenerSecretAccount } from './expectedCredentials.ts';
import { Forwarder, type ForwardingOptions } from './forwarder.ts';
import { Hydrator } from './hydrator.ts';
import { Intake, type SettledRequest } from './intake.ts';
import { bind, DEFAULT_LISTENER_PORT, ExposureRefusedError, isLoopback } from './listenAddress.ts';
import { ListenerSettingsRow, patchSettings, type ListenerSettings } from './listenerSettings.ts';
import { migrateListenerTables } from './migrations.ts';
import { allowListEntry, classifyTarget, isLoopbackHost, TargetRefused, type TargetKind } from './outboundTargets.ts';
import { forwardRequest } from './forwardRequest.ts';
import { DIRECT_OUTBOUND, type OutboundRoute } from './outbound.ts';
import { describeRefusal, type Refusal } from './refusal.ts';
import type {
  Delivery,
  ObjectGroup,
  ReceivedRequest,
  ReceivedRequestSummary,
  RequestFilter,
} from './receivedRequest.ts';
import { Receiver, type ReceiverLimits } from './receiver.ts';
import { mergeReconciliations, reconcile, type Reconciliation } from './reconcile.ts';
import { registerWebhook, Registrations, unregisterWebhook, type Registration } from './registration.ts';
import { replay, type ReplayRequest } from './replay.ts';
import { RequestLog, type ListenerSealer } from './requestLog.ts';
import { ResponseRules, type ResponseRule } from './responseRules.ts';
import type { ArrivalLabel } from './retryLabels.ts';
import { SendLogPairing } from './sendLogPairing.ts';
import { importExport, type ImportResult } from './trafficImport.ts';
import { exportLines, type ExportFormat } from './trafficExport.ts';
import { ListenerUserError } from './listenerUserError.ts';

export interface ListenerState {
  running: boolean;
  host: string | null;
  port: number | null;
  /** The address to give the bank, e.g. http://127.0.0.1:4880. */
  url: string | null;
  /** When it started listening (ISO 8601 UTC); null while stopped. */
  startedAt: string | null;
}

/** What subscribers are told, in batches. */
export type ListenerEvent =
  | { type: 'request'; request: ReceivedRequestSummary }
  | { type: 'delivery'; delivery: Delivery }
  | { type: 'snapshot'; requestId: number; ok: boolean; error: string | null }
  | { type: 'state'; state: ListenerState }
  /** A request refused before it was read (wrong Host, a web page's): never kept, only told. */
  | { type: 'refused'; refusal: Refusal }
  /** The bank's send log named which attempt request `requestId` was (pairWithSendLog). */
  | { type: 'label'; requestId: number; label: ArrivalLabel }
  | { type: 'warning'; message: string }
  | { type: 'failure'; message: string };

export interface ListenerOptions {
  database: DatabaseSync;
  secrets: SecretStore;
  /** The profile's bank, for hydration, reconciliation and registration; null when there is none. */
  bank?: BankPort | null;
  /** Several listeners can share one database; each keeps its own rows. */
  listenerId?: string;
  batching?: Partial<BatchingOptions>;
  forwarding?: Partial<ForwardingOptions>;
  /**
   * How forwards and replays travel when the listener has no bank (its bank's own network
   * otherwise: BankPort.outbound): the process's default proxy settings. Absent: directly.
   */
  outbound?: OutboundRoute;
  /** How often requests past their retention age are deleted (default every minute). */
  pruneIntervalMs?: number;
  /**
   * Seals what requests carry (headers, query, body, notification, snapshot, forward and
   * replay excerpts) at rest. The app passes the cache's sealer; without one (the command
   * line, its own file) they are kept in clear.
   */
  sealer?: ListenerSealer | null;
  /**
   * Pair each verified arrival on a registration's path with the bank's send log (the app):
   * its label becomes the bank's word, told as a `label` event. The command line pairs on its
   * own (cli.ts), printing a line per pairing.
   */
  pairWithSendLog?: boolean;
}

export interface StartOptions {
  /** Overrides the remembered port for this start; 0 picks any free port (and is not remembered). */
  port?: number;
  host?: string;
  allowNonLoopback?: boolean;
}

/** Labels remembered for the app's grid: the newest arrivals of the run. */
const LABELS_KEPT = 50_000;

function urlOf(host: string, port: number, secure = false): string {
  return `${secure ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The listener's certificate and key, read from their files; a clear error naming the file otherwise. */
function readTls(files: { certFile: string; keyFile: string }): { cert: string; key: string } {
  const read = (file: string, what: string): string => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new ListenerUserError(
        'invalid_input',
        `The listener's ${what} ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}): give the path of a PEM file.`,
        what === 'certificate' ? 'tlsCertFile' : 'tlsKeyFile',
      );
    }
    if (!text.includes('-----BEGIN ')) {
      throw new ListenerUserError(
        'invalid_input',
        `The listener's ${what} ${file} is not a PEM file (no -----BEGIN line).`,
        what === 'certificate' ? 'tlsCertFile' : 'tlsKeyFile',
      );
    }
    return text;
  };
  const tls = { cert: read(files.certFile, 'certificate'), key: read(files.keyFile, 'private key') };
  try {
    createSecureContext(tls);
  } catch (error) {
    throw new ListenerUserError(
      'invalid_input',
      `The listener's certificate and key do not make a TLS identity (${error instanceof Error ? error.message : String(error)}): check that the key is the certificate's.`,
      'tlsKeyFile',
    );
  }
  return tls;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class Listener extends EventEmitter<{ batch: [Batch<ListenerEvent>] }> {
  readonly id: string;
  /**
   * Why the listener's tables are read-only (their schema is one this build does not know),
   * or null: kept traffic is still listed and exported, but nothing is received or saved.
   */
  readonly readOnly: string | null;
  readonly #secrets: SecretStore;
  #bank: BankPort | null;
  readonly #settingsRow: ListenerSettingsRow;
  #settings: ListenerSettings;
  readonly #rules = new ResponseRules();
  readonly #credentials = new ExpectedCredentials();
  readonly #log: RequestLog;
  readonly #arrivals: ArrivalOrder;
  readonly #registrations: Registrations;
  readonly #batcher: EventBatcher<ListenerEvent>;
  readonly #intake: Intake;
  readonly #forwarder: Forwarder;
  readonly #hydrator: Hydrator;
  #receiver: Receiver | null = null;
  #state: ListenerState = { running: false, host: null, port: null, url: null, startedAt: null };
  readonly #pruneTimer: NodeJS.Timeout;
  /**
   * Retry or new event of each arrival of this run, by request id (the app's grid shows them
   * on every reload). In memory only and bounded: a label never outlives the run that decided it.
   */
  readonly #labels = new Map<number, ArrivalLabel>();
  readonly #pairWithSendLog: boolean;
  readonly #defaultOutbound: OutboundRoute;
  /** One per bank: a pairing remembers the send records it took. */
  #pairing: { bank: BankPort; pairing: SendLogPairing } | null = null;

  /** Use openListener(): loading credentials from the SecretStore is asynchronous. */
  constructor(options: ListenerOptions) {
    super();
    this.id = options.listenerId ?? 'default';
    this.#secrets = options.secrets;
    this.#bank = options.bank ?? null;
    this.#pairWithSendLog = options.pairWithSendLog ?? false;
    this.#defaultOutbound = options.outbound ?? DIRECT_OUTBOUND;
    this.readOnly = migrateListenerTables(options.database).unknown?.sentence ?? null;
    this.#settingsRow = new ListenerSettingsRow(options.database, this.id);
    const saved = this.#settingsRow.load();
    this.#settings = saved.settings;
    this.#rules.set(saved.rules);
    this.#log = new RequestLog(options.database, this.id, this.#settings.retention, options.sealer ?? null);
    if (this.readOnly === null) this.#log.prune();
    this.#arrivals = new ArrivalOrder((objectId) => this.#log.historyOf(objectId), {
      logIsEmpty: this.#log.totals.requests === 0,
    });
    this.#registrations = new Registrations(options.database, this.id);
    this.#batcher = new EventBatcher((batch) => {
      try {
        this.emit('batch', batch);
      } catch {
        // A subscriber's failure must not reach the request that triggered the push.
      }
    }, options.batching);
    const failed = (error: unknown): void => {
      this.#batcher.add({ type: 'failure', message: messageOf(error) });
    };
    this.#forwarder = new Forwarder(
      this.#log,
      (delivery) => {
        this.#batcher.add({ type: 'delivery', delivery });
      },
      failed,
      options.forwarding,
      () => this.#outbound(),
    );
    this.#hydrator = new Hydrator({
      log: this.#log,
      bank: () => (this.#settings.hydrate ? this.#bank : null),
      hydrated: ({ requestId, ok, error }) => {
        this.#batcher.add({ type: 'snapshot', requestId, ok, error });
      },
      failed,
    });
    this.#intake = new Intake({
      log: this.#log,
      arrivals: this.#arrivals,
      rules: this.#rules,
      credentials: this.#credentials,
      settings: () => this.#settings,
      settled: (request) => {
        this.#onSettled(request);
      },
    });
    this.#pruneTimer = setInterval(() => {
      try {
        this.#log.prune();
      } catch (error) {
        failed(error);
      }
    }, options.pruneIntervalMs ?? 60_000);
    this.#pruneTimer.unref();
  }

  /** Load the expected credentials from the SecretStore (the listener's own and each registration's). */
  async loadCredentials(): Promise<void> {
    await this.#credentials.loadListener(this.#secrets, listenerSecretAccount(this.id), this.#settings.basicUser);
    for (const registration of this.#registrations.list()) {
      await this.#credentials.loadRoute(
        this.#secrets,
        registration.path,
        registration.secretAccount,
        registration.basicUser,
      );
    }
  }

  get settings(): ListenerSettings {
    return structuredClone(this.#settings);
  }

  get state(): ListenerState {
    return { ...this.#state };
  }

  get rules(): ResponseRule[] {
    return this.#rules.rules;
  }

  /** Whether the listener expects Basic credentials (and so can give an ok verdict). */
  get credentialsConfigured(): boolean {
    return this.#credentials.configured;
  }

  /** How full the bounded parts are: for a status line, and for tests that the flood stayed bounded. */
  stats(): {
    requests: number;
    bytes: number;
    unsettled: number;
    forwardsQueued: number;
    snapshotsQueued: number;
    eventsWaiting: number;
    refused: number;
  } {
    const totals = this.#log.totals;
    return {
      refused: this.#receiver?.refused ?? 0,
      requests: totals.requests,
      bytes: totals.bytes,
      unsettled: this.#intake.unsettled,
      forwardsQueued: this.#forwarder.queued,
      snapshotsQueued: this.#hydrator.queued,
      eventsWaiting: this.#batcher.pending,
    };
  }

  setBank(bank: BankPort | null): void {
    this.#bank = bank;
  }

  /** Change settings (validated, saved). Limits apply at once; host and port at the next start. */
  configure(patch: unknown): ListenerSettings {
    const next = patchSettings(this.#settings, patch);
    if (next.basicUser !== this.#settings.basicUser) {
      throw new Error('Set the Basic user with setCredentials(), together with its secret.');
    }
    if (next.allowedTargets.join('\n') !== this.#settings.allowedTargets.join('\n')) {
      throw new Error('Hosts are added to the allow-list with allowTarget(), after the user confirms.');
    }
    if (next.forwardTo !== null && next.forwardTo !== this.#settings.forwardTo) this.#targetKind(next.forwardTo);
    this.#settings = next;
    this.#save();
    this.#log.setRetention(next.retention);
    this.#receiver?.setLimits(this.#limits());
    if (this.#receiver !== null && this.#state.host !== null && this.#state.port !== null) {
      this.#receiver.setGuard(this.#guardFor(this.#state.host, this.#state.port));
    }
    return this.settings;
  }

  /** Expect these Basic credentials; the secret goes to the SecretStore, never to the database. */
  async setCredentials(user: string, secret: string): Promise<void> {
    if (user === '' || user.includes(':'))
      throw new ListenerUserError(
        'invalid_input',
        'The Basic user must be non-empty and contain no colon.',
        'expectedBasicUser',
      );
    if (secret === '')
      throw new ListenerUserError('invalid_input', 'The Basic secret must not be empty.', 'expectedBasicSecret');
    await this.#secrets.set(listenerSecretAccount(this.id), secret);
    this.#settings = { ...this.#settings, basicUser: user };
    this.#save();
    await this.loadCredentials();
  }

  async clearCredentials(): Promise<void> {
    await this.#secrets.delete(listenerSecretAccount(this.id));
    this.#settings = { ...this.#settings, basicUser: null };
    this.#save();
    await this.loadCredentials();
  }

  /** Replace the response rules (validated, saved); "fail N times" counts start afresh. */
  setRules(rules: unknown): ResponseRule[] {
    const saved = this.#rules.set(rules);
    this.#save();
    return saved;
  }

  resetRuleCounters(): void {
    this.#rules.resetCounters();
  }

  async start(options: StartOptions = {}): Promise<ListenerState> {
    if (this.#receiver !== null) return this.state;
    if (this.readOnly !== null) throw new ListenerUserError('invalid_input', this.readOnly);
    const host = options.host ?? this.#settings.host;
    const allowed = options.allowNonLoopback ?? this.#settings.allowNonLoopback;
    if (!isLoopback(host)) {
      if (!allowed) throw new ExposureRefusedError(host);
      this.#batcher.add({
        type: 'warning',
        message: `Listening on ${host}, not loopback: anyone who can reach this address can post to the listener.`,
      });
    }
    const wanted = options.port ?? this.#settings.port ?? DEFAULT_LISTENER_PORT;
    const tls = this.#settings.tls === null ? null : readTls(this.#settings.tls);
    const receiver = new Receiver(
      this.#limits(),
      {
        accept: (arrival, reply) => {
          this.#intake.accept(arrival, reply);
        },
        settled: (requestId, outcome, status, durationMs, late) => {
          this.#intake.settle(requestId, outcome, status, durationMs, late);
        },
        failed: (error) => {
          this.#batcher.add({ type: 'failure', message: `A request could not be recorded: ${messageOf(error)}` });
        },
      },
      tls,
    );
    const port = await bind(receiver.server, host, wanted);
    receiver.setGuard(this.#guardFor(host, port));
    this.#receiver = receiver;
    if (wanted !== 0 && this.#settings.port !== port) {
      this.#settings = { ...this.#settings, port };
      this.#save();
    }
    this.#state = {
      running: true,
      host,
      port,
      url: urlOf(host, port, tls !== null),
      startedAt: new Date().toISOString(),
    };
    this.#batcher.add({ type: 'state', state: this.state });
    return this.state;
  }

  /** Stop listening: open connections and held requests are closed. Kept requests stay. */
  async stop(): Promise<void> {
    const receiver = this.#receiver;
    if (receiver === null) return;
    this.#receiver = null;
    // Arrivals of this turn are written (and answered) before the connections close.
    this.#intake.flush();
    await receiver.close();
    // And the outcomes of the exchanges the close ended.
    this.#intake.flush();
    this.#state = { running: false, host: null, port: null, url: null, startedAt: null };
    this.#batcher.add({ type: 'state', state: this.state });
    this.#batcher.flush();
  }

  /** Stop, let forwards and snapshots finish, push what is waiting. The database stays open (it is not ours). */
  async close(): Promise<void> {
    await this.stop();
    clearInterval(this.#pruneTimer);
    await this.idle();
    this.#batcher.flush();
  }

  /** Resolves when no forward or snapshot is waiting, and pushes waiting events. */
  async idle(): Promise<void> {
    await Promise.all([this.#forwarder.idle(), this.#hydrator.idle()]);
    this.#batcher.flush();
  }

  requests(filter: RequestFilter = {}): ReceivedRequestSummary[] {
    return this.#log.list(filter);
  }

  request(id: number): ReceivedRequest | null {
    return this.#log.get(id);
  }

  count(filter: RequestFilter = {}): number {
    return this.#log.count(filter);
  }

  deliveries(requestId: number): Delivery[] {
    return this.#log.deliveriesOf(requestId);
  }

  objectGroups(limit?: number): ObjectGroup[] {
    return this.#log.groups(limit);
  }

  clearRequests(): number {
    this.#arrivals.reset();
    return this.#log.clear();
  }

  /**
   * Forward one kept request now, to `url` or the configured handler, as it was received
   * (forwardRequest.ts). The kept headers hold no secret: when the verdict was ok, the
   * Authorization the bank sent is the one the listener expects on that path, so it is made
   * again from the SecretStore; otherwise it is left out (the verdict header says why).
   */
  async forward(requestId: number, url?: string, appendPath?: boolean): Promise<Delivery> {
    const target = url ?? this.#settings.forwardTo;
    if (target === null)
      throw new ListenerUserError('invalid_input', 'No forward address: give one, or set forwardTo.', 'url');
    this.#targetKind(target);
    const request = this.#log.get(requestId);
    if (request === null)
      throw new ListenerUserError('not_found', `Request ${requestId} is not kept (any more).`, 'requestId');
    const authorization = request.verdict === 'ok' ? await this.#expectedAuthorization(request.path) : null;
    const headers = request.headers.flatMap(([name, value]): [string, string][] =>
      name.toLowerCase() !== 'authorization' ? [[name, value]] : authorization === null ? [] : [[name, authorization]],
    );
    const body =
      request.bodyText !== null
        ? Buffer.from(request.bodyText)
        : request.bodyBase64 !== null
          ? Buffer.from(request.bodyBase64, 'base64')
          : null;
    return this.#forwarder.forwardNow(
      requestId,
      forwardRequest(
        { method: request.method, path: request.path, query: request.query, headers, body },
        request.verdict,
        request.id,
        target,
        this.#settings.forwardTimeoutMs,
        appendPath ?? this.#settings.forwardAppendPath,
      ),
    );
  }

  /** `Basic …` as the listener expects it on `path` (a registration's own pair, else its own); null when none is set. */
  async #expectedAuthorization(path: string): Promise<string | null> {
    const registration = this.#registrations.list().find((candidate) => candidate.path === path);
    const user = registration?.basicUser ?? this.#settings.basicUser;
    const account = registration?.secretAccount ?? listenerSecretAccount(this.id);
    if (user === null) return null;
    const secret = await this.#secrets.get(account);
    return secret === null ? null : `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
  }

  /**
   * Replay kept requests. The target must be the listener, loopback or allowed; Basic
   * credentials from the keychain are applied only when it is the listener itself.
   */
  async replay(request: ReplayRequest): Promise<Delivery[]> {
    const kind = this.#targetKind(request.url);
    if (request.basicAuth !== undefined && kind !== 'listener') {
      throw new TargetRefused(
        "The listener's own secret is sent only to the listener itself: replay without it, or to the listener's own address.",
        null,
      );
    }
    return replay(
      this.#log,
      this.#secrets,
      request,
      (delivery) => {
        this.#batcher.add({ type: 'delivery', delivery });
      },
      this.#outbound(),
    );
  }

  /** The kept traffic as JSONL or cURL lines; cURL commands target `baseUrl` (default: this listener). */
  exportTraffic(options: { format: ExportFormat; filter?: RequestFilter; baseUrl?: string }): Generator<string> {
    const baseUrl =
      options.baseUrl ??
      this.#state.url ??
      urlOf(this.#settings.host, this.#settings.port ?? DEFAULT_LISTENER_PORT, this.#settings.tls !== null);
    return exportLines(
      this.#log.iterate({ ...options.filter, limit: options.filter?.limit ?? Number.MAX_SAFE_INTEGER }),
      options.format,
      baseUrl,
    );
  }

  /**
   * Keep the requests of a JSONL export (of `npm run listen` or another listener) in this
   * listener's log, as arrivals of their own time; checked in full first (trafficImport.ts).
   */
  importTraffic(text: string): ImportResult {
    return importExport(this.#log, text);
  }

  /** Retry or new event, as decided when request `id` arrived in this run; null for earlier (or imported) ones. */
  labelOf(id: number): ArrivalLabel | null {
    return this.#labels.get(id) ?? null;
  }

  /** The bank's word (its send log) replaces the listener's own guess for request `id`. */
  relabel(id: number, label: ArrivalLabel): void {
    if (this.#labels.has(id)) this.#rememberLabel(id, label);
  }

  /** Ask the bank's send log which attempt a verified arrival on a registration's path was. */
  #pairLater(summary: ReceivedRequestSummary): void {
    const bank = this.#bank;
    if (!this.#pairWithSendLog || bank === null || summary.verdict !== 'ok' || summary.event === null) return;
    const registration = this.#registrations
      .list()
      .find((candidate) => candidate.path === summary.path && candidate.event === summary.event);
    if (registration === undefined) return;
    if (this.#pairing?.bank !== bank) {
      const pairing = new SendLogPairing(bank, {
        webhookFor: (event) =>
          this.#registrations.list().find((candidate) => candidate.event === event)?.webhookId ?? null,
      });
      this.#pairing = { bank, pairing };
    }
    const paired = this.#pairing.pairing.pair(summary);
    void paired?.then(
      (result) => {
        if (!result.paired) return;
        this.relabel(summary.id, result.label);
        this.#batcher.add({ type: 'label', requestId: summary.id, label: result.label });
      },
      // A label is a nicety: an arrival left unlabelled (the listener stopping under it) is kept as it is.
      () => undefined,
    );
  }

  #rememberLabel(id: number, label: ArrivalLabel): void {
    this.#labels.set(id, label);
    // Oldest first out: a Map iterates in insertion order.
    if (this.#labels.size > LABELS_KEPT) {
      const oldest = this.#labels.keys().next();
      if (oldest.done !== true) this.#labels.delete(oldest.value);
    }
  }

  /** Join the bank's send records of a webhook with what was received (its registration's path and event when it has one). */
  async reconcile(options: {
    webhookId: string;
    event?: string;
    since?: number;
    until?: number;
  }): Promise<Reconciliation> {
    const bank = this.#requireBank();
    const registration = this.#registrations.find(options.webhookId);
    return reconcile(bank, this.#log, {
      webhookId: options.webhookId,
      ...(registration === null
        ? {}
        : { event: registration.event, path: registration.path, since: Date.parse(registration.createdAt) - 1000 }),
      ...(options.event === undefined ? {} : { event: options.event }),
      ...(options.since === undefined ? {} : { since: options.since }),
      ...(options.until === undefined ? {} : { until: options.until }),
    });
  }

  /**
   * Every webhook registered with this listener, each reconciled on its own path and event,
   * as one report (`webhookId` null when there are several). Each registration is asked of
   * the current bank: one made on another profile's bank has no send records there.
   */
  async reconcileRegistrations(options: { since?: number; until?: number } = {}): Promise<Reconciliation> {
    const reports: Reconciliation[] = [];
    for (const registration of this.#registrations.list()) {
      reports.push(await this.reconcile({ webhookId: registration.webhookId, ...options }));
    }
    return mergeReconciliations(reports);
  }

  get registrations(): Registration[] {
    return this.#registrations.list();
  }

  /**
   * The Basic credentials a replay to `targetUrl` is signed with: those of the registration
   * whose path it is, when it goes back to this listener (each registration's path verifies
   * with its own); otherwise the listener's expected credentials; null when there are none.
   * Names the secret's place in the store, never the secret.
   */
  replayCredentialsFor(targetUrl: string): { user: string; secretAccount: string } | null {
    // Never a secret for another address: only the listener itself may be sent its own credentials.
    if (this.#targetKind(targetUrl) !== 'listener') return null;
    const path = new URL(targetUrl).pathname;
    const registration = this.#registrations.list().find((candidate) => candidate.path === path);
    if (registration !== undefined) return { user: registration.basicUser, secretAccount: registration.secretAccount };
    const user = this.#settings.basicUser;
    return user === null ? null : { user, secretAccount: listenerSecretAccount(this.id) };
  }

  /**
   * Create a webhook for `event` pointing at this listener's public URL (Setup's: a tunnel's, a
   * reverse proxy's), else `publicUrl`, else its own address, with fresh credentials. A remote
   * bank is given only a public https:// address (bank/webhookAddress.ts) unless `allowHttp`
   * at a sandbox that says it delivers elsewhere too.
   */
  async register(options: { event: string; publicUrl?: string; allowHttp?: boolean }): Promise<Registration> {
    const listenerUrl = options.publicUrl ?? this.#settings.publicUrl ?? this.#state.url;
    if (listenerUrl === null)
      throw new ListenerUserError('invalid_input', 'Start the listener first: the webhook must point at its address.');
    return registerWebhook(this.#registrationContext(), options.event, listenerUrl, {
      ...(options.allowHttp === undefined ? {} : { allowHttp: options.allowHttp }),
    });
  }

  async unregister(webhookId: string): Promise<Registration> {
    return unregisterWebhook(this.#registrationContext(), webhookId);
  }

  /** The origins forwards and replays may reach besides the listener and loopback. */
  get allowedTargets(): string[] {
    return [...this.#settings.allowedTargets];
  }

  /**
   * Add `url`'s origin to the allow-list. Call it only once the user has confirmed, in the
   * main process (or typed it on the command line): never on the renderer's word alone.
   */
  allowTarget(url: string): string {
    const origin = allowListEntry(url);
    if (!isLoopbackHost(new URL(origin).hostname) && !this.#settings.allowedTargets.includes(origin)) {
      this.#settings = { ...this.#settings, allowedTargets: [...this.#settings.allowedTargets, origin] };
      this.#save();
    }
    return origin;
  }

  /** Remove an origin from the allow-list; true when it was there. */
  forgetTarget(origin: string): boolean {
    const kept = this.#settings.allowedTargets.filter((entry) => entry !== origin);
    if (kept.length === this.#settings.allowedTargets.length) return false;
    this.#settings = { ...this.#settings, allowedTargets: kept };
    this.#save();
    return true;
  }

  /** Whether `url` is this running listener's own address (any loopback name, its port). */
  isListenerUrl(url: string): boolean {
    try {
      return this.#targetKind(url) === 'listener';
    } catch {
      return false;
    }
  }

  /** How forwards and replays travel: as the bank's requests do, or the default without a bank. */
  #outbound(): OutboundRoute {
    return this.#bank?.outbound ?? this.#defaultOutbound;
  }

  #targetKind(url: string): TargetKind {
    return classifyTarget(url, { listenerUrl: this.#state.url, allowedTargets: this.#settings.allowedTargets });
  }

  #registrationContext() {
    return {
      bank: this.#requireBank(),
      secrets: this.#secrets,
      registrations: this.#registrations,
      credentials: this.#credentials,
      listenerId: this.id,
    };
  }

  #requireBank(): BankPort {
    if (this.#bank === null)
      throw new ListenerUserError('invalid_input', 'No bank profile is connected to the listener.', 'profileId');
    return this.#bank;
  }

  #limits(): ReceiverLimits {
    return {
      maxBodyBytes: this.#settings.maxBodyBytes,
      keepBodyBytes: this.#settings.keepBodyBytes,
      bodyTimeoutMs: this.#settings.bodyTimeoutMs,
      noAnswerHoldMs: this.#settings.noAnswerHoldMs,
    };
  }

  /**
   * Only requests addressed to this listener, and none made by a web page (unless its origin
   * is allowed). Each refusal is also told to subscribers (with the option that would allow
   * it), so a tunnel set up without --allow-host does not fail silently; it is not kept.
   */
  #guardFor(host: string, port: number): LocalServerGuard {
    const publicHost =
      this.#settings.publicUrl === null ? [] : [allowedHostEntry(new URL(this.#settings.publicUrl).host)];
    const guard = createLocalServerGuard({
      port,
      hosts: boundHostNames(host, networkInterfaces()),
      // Its public URL's host (a tunnel's) is its own: a request addressed to it is answered.
      allowedHosts: [...this.#settings.allowedHosts, ...publicHost],
      allowedOrigins: this.#settings.allowedOrigins,
    });
    return (headers, rawHeaders) => {
      const refusal = guard(headers, rawHeaders);
      if (refusal !== null) this.#batcher.add({ type: 'refused', refusal: describeRefusal(refusal.status, headers) });
      return refusal;
    };
  }

  #save(): void {
    if (this.readOnly !== null) throw new ListenerUserError('invalid_input', this.readOnly);
    this.#settingsRow.save(this.#settings, this.#rules.rules);
  }

  #onSettled(settled: SettledRequest): void {
    this.#batcher.add({ type: 'request', request: settled.summary });
    if (settled.summary.label !== undefined) {
      this.#rememberLabel(settled.summary.id, settled.summary.label);
      this.#pairLater(settled.summary);
    }
    const forwardTo = this.#settings.forwardTo;
    if (forwardTo !== null && settled.content !== null) {
      // Checked at each send too: a forward address saved before the allow-list existed is not trusted.
      let kind: TargetKind | null = null;
      let refused: string | null = null;
      try {
        kind = this.#targetKind(forwardTo);
      } catch (error) {
        refused = messageOf(error);
      }
      if (kind === null) {
        this.#batcher.add({ type: 'delivery', delivery: this.#forwarder.skip(settled.summary.id, forwardTo, refused) });
      } else if (settled.summary.verdict !== 'ok' && !this.#settings.forwardUnverified) {
        const reason = `verdict ${settled.summary.verdict}, and unverified requests are not forwarded`;
        this.#batcher.add({ type: 'delivery', delivery: this.#forwarder.skip(settled.summary.id, forwardTo, reason) });
      } else {
        // As received, Authorization included: the target is the listener, loopback or an origin the user confirmed.
        this.#forwarder.enqueue(settled, forwardTo, this.#settings.forwardTimeoutMs, this.#settings.forwardAppendPath);
      }
    }
    if (settled.objectUrl !== null && this.#settings.hydrate && this.#bank !== null) {
      this.#hydrator.enqueue(settled.summary.id, settled.objectUrl);
    }
  }
}

/** Open a listener on a database: migrate its tables, load its settings, rules and credentials. */
export async function openListener(options: ListenerOptions): Promise<Listener> {
  const listener = new Listener(options);
  await listener.loadCredentials();
  return listener;
}
