/**
 * `ledger`: the services, headless. Each command opens the same services the app uses (the
 * keychain, the profiles file, the encrypted cache in the data folder), does one thing, and
 * answers in text or, with --json, one JSON object. Any failure is one line on standard
 * error and a non-zero exit code (2 for a usage mistake).
 */
import { cacheClear } from './commands/cacheClear.ts';
import { recordHold, recordPurge, recordRetention } from './commands/recordRetention.ts';
import { listApplicants } from './commands/applicants.ts';
import {
  screeningHits,
  screeningImport,
  screeningLists,
  screeningRun,
  screeningThreshold,
} from './commands/screening.ts';
import { ScreeningProblem } from '../../services/screening/screeningService.ts';
import { ListFileError } from '../../../shared/screening/listEntry.ts';
import { resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { SchemaViolation, shownField, type AccountResponse } from '../../../shared/bank/index.ts';
import { formatMoney } from '../../../shared/review/itemColumns.ts';
import type { Review } from '../../services/review/reviewsTable.ts';
import { BankError, type BankErrorKind } from '../../services/bank/bankError.ts';
import { WebhookAddressRefused } from '../../services/bank/webhookAddress.ts';
import { CaBundleProblem } from '../../services/http/trust.ts';
import { ProfileNotReady } from '../../services/bank/bankClients.ts';
import { CacheError } from '../../services/cache/cacheError.ts';
import { RowAltered } from '../../services/cache/rowMacs.ts';
import { ReviewRolledBack } from '../../services/cache/reviewRollbacks.ts';
import { exportCsv, type ExportView } from '../../services/cache/exportViews.ts';
import { unmaskedFieldsOf } from '../../../shared/personalData/exportDisclosure.ts';
import {
  Credentials,
  InvalidSecret,
  MissingCredentials,
  SecretNeedsReentry,
} from '../../services/credentials/credentials.ts';
import { detectKeychain } from '../../services/credentials/keychainStatus.ts';
import { KeychainUnavailable } from '../../services/credentials/keyringSecretStore.ts';
import { KeyFileUnreadable, WeakPassphrase, WrongPassphrase } from '../../services/credentials/keyFile.ts';
import { openDataFolderSecrets, PassphraseNeeded, PassphraseProblem } from '../../app/dataFolderSecrets.ts';
import { RecoveryEscrow, RecoveryProblem } from '../../services/credentials/recoveryEscrow.ts';
import { recordRecover } from './commands/recordRecover.ts';
import { auditVerifyArchive, recordExport, recordImport } from './commands/recordArchive.ts';
import { ArchiveKeyProblem } from '../../services/record/recordArchiveSealing.ts';
import { recordBackupNow, recordBackups, recordRestore, type BackupContext } from './commands/recordBackup.ts';
import { RecordError } from '../../services/record/recordError.ts';
import { withFolder } from './folderWriter.ts';
import type { SecretStore } from '../../services/credentials/secretStore.ts';
import { LedgerServices } from '../../services/ledgerServices.ts';
import { FileProfileStorage, ProfileFileUnreadable } from '../../services/profiles/fileProfileStorage.ts';
import { describeProfile, profileAttention, type Profile } from '../../services/profiles/profile.ts';
import {
  ProductionWriteNotConfirmed,
  ProfileNotFound,
  ProfileRefused,
  Profiles,
} from '../../services/profiles/profiles.ts';
import { ReviewProblem } from '../../services/review/reviewProblem.ts';
import { withReviews } from '../../services/review/reviewColumn.ts';
import { SyncBusy, type SyncRequest } from '../../services/sync/syncService.ts';
import { maskedBaseUrl } from '../../../shared/profiles/profileFields.ts';
import { dataFolderOf } from '../common/commonOptions.ts';
import { dataFolderModeLine, ownDataFolder } from '../../services/files/dataFolderMode.ts';
import { checkCachedAccount, UnknownAccountProblem } from './cachedAccounts.ts';
import { listKey, rememberCursor, rememberedCursor } from './cursorMemory.ts';
import { auditVerifyCommand } from './auditVerifyCommand.ts';
import { whoLookupOf, whoOf } from '../../services/audit/auditWho.ts';
import { defined, parseLedgerArguments, read, USAGE, type LedgerArguments } from './cliArguments.ts';
import { UsageError } from '../common/usageError.ts';
import { ago, table } from './cliOutput.ts';
import { startEmbeddedSandbox, type EmbeddedSandbox } from './embeddedSandbox.ts';
import { LEAN_SANDBOX_VARIABLE } from '../../app/embeddedSandbox.ts';
import { driftReport, driftReset } from './commands/drift.ts';
import { exportUnmasked } from './commands/exportUnmasked.ts';
import { reviewList } from './commands/reviewList.ts';
import { reviewReport } from './commands/reviewReport.ts';
import { reviewSet } from './commands/reviewSet.ts';
import { rulesAdd, rulesList, rulesRemove } from './commands/rules.ts';
import { webhooksAdd, webhooksList, webhooksRemove, webhooksUpdate } from './commands/webhooks.ts';

import * as team from './commands/team.ts';
import { teamPolicy } from './commands/teamPolicy.ts';
import { TeamProblem } from '../../services/team/teamProblem.ts';
import { ProgressBar } from './progressBar.ts';
import { profileUpdate } from './profileUpdate.ts';
import { readSecret, SecretInputProblem } from './readSecret.ts';
import { runEvents, runTrigger, type CommandContext } from './triggerCommand.ts';
import { TRIGGER_FAILURES } from '../../services/trigger/triggerService.ts';

export interface LedgerIo {
  stdin: Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** The OS keychain or the folder's key file unless given (tests, and a running app, give their own). */
  secretStore?: SecretStore;
  /**
   * Set when the command is run by the app that holds the data folder (controlSocket.ts): no lock
   * is taken (the app holds it), nothing is sent on, and the app's own services are used and left
   * open. `services` null (the listener without a bank): opened for this command, then closed.
   */
  hosted?: { services: LedgerServices | null };
  /** Aborted on Ctrl+C: a running sync stops after its page and can be resumed. */
  signal?: AbortSignal;
}

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;
const EXIT_CANCELLED = 130;

const KNOWN_FAILURES = [
  BankError,
  CacheError,
  SchemaViolation,
  ProfileNotFound,
  ProfileRefused,
  ProfileFileUnreadable,
  ProfileNotReady,
  ProductionWriteNotConfirmed,
  KeychainUnavailable,
  MissingCredentials,
  SecretNeedsReentry,
  InvalidSecret,
  SecretInputProblem,
  PassphraseNeeded,
  PassphraseProblem,
  WrongPassphrase,
  WeakPassphrase,
  KeyFileUnreadable,
  RecoveryProblem,
  SyncBusy,
  UsageError,
  ...TRIGGER_FAILURES,
  ReviewProblem,
  TeamProblem,
  UnknownAccountProblem,
  WebhookAddressRefused,
  CaBundleProblem,
  // A review (or another authenticated row) changed in the cache file outside Ledgerdesk: the
  // sentence names the item; the action says what to run (review I-C1).
  RowAltered,
  ReviewRolledBack,
  // A list file that cannot be imported names its file and line; screening without a list says so.
  ListFileError,
  ScreeningProblem,
  // The officer's record locked (its key lost), read-only or damaged: its sentence names the way back.
  RecordError,
  // A record archive's sealed notes that the recovery key or passphrase given does not open.
  ArchiveKeyProblem,
];

/** Failures after which the cache's answer is better than none. */
const UNREACHABLE: readonly BankErrorKind[] = [
  'unreachable',
  'timeout',
  'bank-offline',
  'unavailable',
  'gateway-timeout',
];

/** One line, whatever went wrong: never a stack trace, never a secret. */
export function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const known = KNOWN_FAILURES.some((kind) => error instanceof kind);
  const action = error instanceof RowAltered || error instanceof ReviewRolledBack ? ` ${error.action}` : '';
  return (known ? `${message}${action}` : `unexpected failure: ${message}`).replace(/\s*\n\s*/g, ' ').trim();
}

class Ledger {
  readonly #arguments: LedgerArguments;
  readonly #io: LedgerIo;
  readonly #dataFolder: string;
  #services: LedgerServices | null = null;
  #secretStore: SecretStore | null = null;
  #sandbox: EmbeddedSandbox | null = null;

  constructor(parsed: LedgerArguments, io: LedgerIo) {
    this.#arguments = parsed;
    this.#io = io;
    this.#dataFolder = resolve(dataFolderOf(parsed.dataFolder, io.env));
  }

  async run(): Promise<number> {
    try {
      let code: number;
      try {
        code = await this.#dispatch();
      } catch (error) {
        // The locked record's sentence was printed as the services opened: one short line then,
        // not the same sentence twice.
        const printed = this.#services !== null && this.#services !== this.#io.hosted?.services;
        if (!(error instanceof RecordError) || !printed || error.message !== this.#services?.record.problem) {
          throw error;
        }
        this.#io.stderr.write("ledger: Nothing was done: the officer's record is locked (above).\n");
        return EXIT_FAILED;
      }
      // A locked record or dropped cache data is never an "ok" (issue 34): the command's own
      // answer stands, but the run exits 1 after the sentence saying what is wrong.
      const errors = (this.#services?.storeProblems() ?? []).filter((problem) => problem.severity === 'error');
      return errors.length > 0 && code === EXIT_OK ? EXIT_FAILED : code;
    } finally {
      // The app's services stay open: they are its own.
      if (this.#services !== this.#io.hosted?.services) await this.#services?.close();
      await this.#sandbox?.close();
    }
  }

  /** The keychain, or the data folder's key file under its passphrase (app/dataFolderSecrets.ts). */
  async #secrets(): Promise<SecretStore> {
    this.#secretStore ??=
      this.#io.secretStore ??
      (
        await openDataFolderSecrets(this.#dataFolder, {
          file: this.#arguments.passphraseFile,
          env: this.#io.env,
          terminal: { stdin: this.#io.stdin, prompt: this.#io.stderr },
        })
      ).store;
    return this.#secretStore;
  }

  async #dispatch(): Promise<number> {
    const { command, options } = this.#arguments;
    switch (command) {
      case 'profile list':
        return this.#profileList();
      case 'profile add':
        return this.#profileAdd();
      case 'profile remove':
        return this.#profileRemove();
      case 'profile update':
        return profileUpdate({ ...this.#commandContext(), stdin: this.#io.stdin, prompt: this.#io.stderr });
      case 'keychain':
        return this.#keychain();
      case 'record recover':
        return recordRecover({
          ...this.#commandContext(),
          passphraseFile: this.#arguments.passphraseFile,
          env: this.#io.env,
          secretInput: { stdin: this.#io.stdin, prompt: this.#io.stderr },
        });
      case 'accounts':
        return this.#accounts();
      case 'sync pending-transactions':
      case 'sync webhook-sends':
      case 'sync application':
      case 'sync applications':
      case 'sync webhooks':
        return this.#sync();
      case 'list applicants':
        return listApplicants(this.#commandContext());
      case 'list application-history':
        return this.#applicationHistory();
      case 'list webhooks':
        return this.#webhooks();
      case 'cache clear':
        return cacheClear(this.#commandContext());
      case 'record export':
        return recordExport(this.#commandContext());
      case 'record import':
        return recordImport({
          ...this.#commandContext(),
          secrets: () => this.#secrets(),
          env: this.#io.env,
          givenStore: this.#io.secretStore !== undefined,
        });
      case 'record retention':
        return recordRetention(this.#commandContext());
      case 'record hold':
        return recordHold(this.#commandContext());
      case 'record purge':
        return recordPurge(this.#commandContext());
      case 'record backup':
        return recordBackupNow(this.#commandContext());
      case 'record backups':
        return recordBackups(this.#backupContext());
      case 'record restore':
        return recordRestore(this.#backupContext());
      case 'screening import':
        return screeningImport(this.#commandContext());
      case 'screening lists':
        return screeningLists(this.#commandContext());
      case 'screening run':
        return screeningRun(this.#commandContext());
      case 'screening threshold':
        return screeningThreshold(this.#commandContext());
      case 'screening hits':
        return screeningHits(this.#commandContext());
      case 'audit':
        return this.#audit();
      case 'audit verify':
        if (options.team === true) return team.auditVerifyTeam(await this.#teamContext());
        if (options.archive !== undefined) return auditVerifyArchive(options, this.#arguments.json, this.#io.stdout);
        return auditVerifyCommand(await this.#open(), this.#arguments.json, this.#io.stdout);
      case 'drift':
        return driftReport(this.#commandContext());
      case 'drift reset':
        return driftReset(this.#commandContext());
      case 'export unmasked':
        return exportUnmasked(this.#commandContext());
      case 'trigger':
        return runTrigger(this.#commandContext());
      case 'events':
        return runEvents(this.#commandContext());
      case 'review set':
        return reviewSet(this.#commandContext());
      case 'review list':
        return reviewList(this.#commandContext());
      case 'review report':
        return reviewReport(this.#commandContext());
      case 'rules':
        return rulesList(this.#commandContext());
      // Team mode (src/main/cli/ledger/commands/team.ts).
      case 'team init':
        return team.teamInitCommand(await this.#teamContext());
      case 'team join':
        return team.teamJoinCommand(await this.#teamContext());
      case 'team migrate':
        return team.teamMigrateCommand(await this.#teamContext());
      case 'team status':
        return team.teamStatus(await this.#teamContext());
      case 'team push':
        return team.teamPush(await this.#teamContext());
      case 'team pull':
        return team.teamPull(await this.#teamContext());
      case 'team members':
        return team.teamMembers(await this.#teamContext());
      case 'team queues':
        return team.teamQueues(await this.#teamContext());
      case 'team invite':
        return team.teamInvite(await this.#teamContext());
      case 'team remove':
        return team.teamRemove(await this.#teamContext());
      case 'team acknowledge':
        return team.teamAcknowledge(await this.#teamContext());
      case 'team upgrade':
        return team.teamUpgrade(await this.#teamContext());
      case 'team policy':
        return teamPolicy(await this.#teamContext());
      case 'review propose':
      case 'review approve':
      case 'review reject':
      case 'review claim':
      case 'review release':
      case 'review assign':
        return team.reviewTeamAction(await this.#teamContext(), command.slice('review '.length) as 'propose');
      case 'rules add':
        return rulesAdd(this.#commandContext());
      case 'rules remove':
        return rulesRemove(this.#commandContext());
      case 'webhooks list':
        return webhooksList(this.#commandContext());
      case 'webhooks add':
        return webhooksAdd({ ...this.#commandContext(), stdin: this.#io.stdin, prompt: this.#io.stderr });
      case 'webhooks update':
        return webhooksUpdate({ ...this.#commandContext(), stdin: this.#io.stdin, prompt: this.#io.stderr });
      case 'webhooks remove':
        return webhooksRemove(this.#commandContext());
      default:
        if (command.startsWith('list ')) return this.#list();
        if (command.startsWith('export ')) return this.#export();
        throw new UsageError(`Unknown command \`${command}\` (options: ${Object.keys(options).join(', ')}).`);
    }
  }

  async #open(): Promise<LedgerServices> {
    if (this.#services !== null) return this.#services;
    const hosted = this.#io.hosted?.services ?? null;
    if (hosted !== null) {
      this.#services = hosted;
      return hosted;
    }
    const folderMode = dataFolderModeLine(this.#dataFolder, ownDataFolder(this.#dataFolder));
    if (folderMode !== null) this.#io.stderr.write(`ledger: ${folderMode}\n`);
    this.#services = await LedgerServices.open({
      actor: 'cli',
      dataFolder: this.#dataFolder,
      secretStore: await this.#secrets(),
      // The record's keys are sealed to the folder's recovery key too, once the app has made one.
      ...(this.#io.secretStore === undefined
        ? { escrow: new RecoveryEscrow(this.#dataFolder, null, this.#io.env) }
        : {}),
      profileStorage: new FileProfileStorage(this.#dataFolder),
      embeddedBaseUrl: () => this.#sandbox?.baseUrl ?? null,
      // A command line has no Chromium: "the system's proxy settings" are its environment's.
      network: { environment: this.#io.env, systemResolver: null },
      ...defined({
        syncPageSize: read.pageSize(this.#arguments.options),
        syncParallelism: read.parallel(this.#arguments.options),
      }),
    });
    for (const message of this.#services.cache.opened.messages) this.#io.stderr.write(`ledger: ${message}\n`);
    if (this.#services.record.problem !== null) this.#io.stderr.write(`ledger: ${this.#services.record.problem}\n`);
    return this.#services;
  }

  /** The profile named by --profile; the embedded sandbox is started when it is the one. */
  async #profile(services: LedgerServices, needsBank: boolean): Promise<Profile> {
    const profile = services.profiles.find(String(this.#arguments.options.profile));
    // Run by the app: its own embedded sandbox is already the profile's bank.
    const appSandbox = this.#io.hosted?.services != null;
    if (needsBank && profile.kind === 'embedded-sandbox' && this.#sandbox === null && !appSandbox) {
      this.#sandbox = await startEmbeddedSandbox(
        this.#dataFolder,
        profile.lean === true || this.#io.env[LEAN_SANDBOX_VARIABLE] === '1',
      );
      services.credentials.useSessionCredentials(
        profile.id,
        this.#sandbox.keyId,
        this.#sandbox.keySecret,
        this.#sandbox.baseUrl,
      );
    }
    return profile;
  }

  /** What a command in a file of its own needs of this run. */
  /** For the backup commands: the record's key without opening the record (a damaged one does not open). */
  #backupContext(): BackupContext {
    return {
      ...this.#commandContext(),
      credentials: async () =>
        this.#io.hosted?.services?.credentials ??
        new Credentials(await this.#secrets(), {
          ...(this.#io.secretStore === undefined
            ? { escrow: new RecoveryEscrow(this.#dataFolder, null, this.#io.env) }
            : {}),
        }),
    };
  }

  #commandContext(): CommandContext {
    return {
      arguments: this.#arguments,
      dataFolder: this.#dataFolder,
      open: () => this.#open(),
      profile: (services, needsBank = true) => this.#profile(services, needsBank),
      deliveriesMade: async () => (this.#sandbox === null ? null : this.#sandbox.deliveriesMade()),
      print: (text) => {
        this.#print(text);
      },
      printJson: (value) => {
        this.#printJson(value);
      },
      ...(this.#io.signal === undefined ? {} : { signal: this.#io.signal }),
    };
  }

  async #teamContext(): Promise<team.TeamCommandContext> {
    return {
      ...this.#commandContext(),
      dataFolder: this.#dataFolder,
      secretStore: await this.#secrets(),
      env: this.#io.env,
      secretInput: { stdin: this.#io.stdin, prompt: this.#io.stderr },
      warn: (text) => {
        this.#io.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
      },
    };
  }

  #print(text: string): void {
    this.#io.stdout.write(text.endsWith('\n') ? text : text + '\n');
  }

  #printJson(value: unknown): void {
    this.#io.stdout.write(JSON.stringify(value) + '\n');
  }

  #profileList(): number {
    const profiles = new Profiles(new FileProfileStorage(this.#dataFolder)).list();
    if (this.#arguments.json) {
      this.#printJson({
        rows: profiles.map((profile) => ({
          ...profile,
          baseUrl: profile.baseUrl === null ? null : maskedBaseUrl(profile.baseUrl),
          attention: profileAttention(profile),
        })),
      });
      return EXIT_OK;
    }
    this.#print(
      table(
        ['NAME', 'KIND', 'AUTH', 'KEY ID', 'PRODUCTION', 'BASE URL', 'STATE'],
        profiles.map((profile) => [
          profile.name,
          profile.kind,
          profile.authScheme,
          profile.keyId ?? '',
          profile.production ? 'yes' : 'no',
          profile.baseUrl === null ? '(started by the app)' : maskedBaseUrl(profile.baseUrl),
          profileAttention(profile) !== null
            ? 'needs attention (https)'
            : profile.secretDropped !== undefined
              ? 'needs its secret again'
              : 'ready',
        ]),
      ),
    );
    return EXIT_OK;
  }

  async #profileAdd(): Promise<number> {
    const { options, name } = this.#arguments;
    const bearer = options.bearer === true;
    if (bearer && options['key-id'] !== undefined)
      throw new UsageError('--key-id is for Basic profiles; a --bearer profile has none.');
    if (!bearer && options['key-id'] === undefined)
      throw new UsageError('`profile add` needs --key-id (or --bearer for a token).');
    const secret = await readSecret(
      { stdin: this.#io.stdin, prompt: this.#io.stderr },
      bearer ? 'Bearer token' : 'API key secret',
    );
    const services = await this.#open();
    const added = await services.addProfile(
      {
        name: name ?? '',
        baseUrl: String(options['base-url']),
        authScheme: bearer ? 'bearer' : 'basic',
        ...(bearer ? {} : { keyId: String(options['key-id']) }),
        production: options.production === true,
      },
      secret,
    );
    if (this.#arguments.json) this.#printJson({ profile: added });
    else this.#print(`Added profile ${describeProfile(added)}; its ${bearer ? 'token' : 'secret'} is in the keychain.`);
    return EXIT_OK;
  }

  async #profileRemove(): Promise<number> {
    const services = await this.#open();
    const removed = await services.removeProfile(this.#arguments.name ?? '');
    if (this.#arguments.json) this.#printJson({ profile: removed });
    else this.#print(`Removed profile ${removed.name}, its secret and its cached data.`);
    return EXIT_OK;
  }

  async #keychain(): Promise<number> {
    const status = await detectKeychain();
    if (this.#arguments.json) this.#printJson(status);
    else if (status.available) this.#print(`Keychain: ${status.backend}, available.`);
    else this.#print(`${status.message} ${status.remedy}`);
    return status.available ? EXIT_OK : EXIT_FAILED;
  }

  /**
   * The profile's accounts, asked of the bank: where a newcomer finds the id that
   * `sync pending-transactions` needs. When the bank cannot be reached, the accounts this
   * cache holds transactions of, said to come from the cache.
   */
  async #accounts(): Promise<number> {
    const services = await this.#open();
    const profile = await this.#profile(services, true);
    let accounts: AccountResponse[];
    try {
      accounts = await services.clients.clientFor(profile.id).listAccounts();
    } catch (error) {
      if (!(error instanceof BankError) || !UNREACHABLE.includes(error.kind)) throw error;
      const cached = services.cache.pendingTransactions.accounts(profile.id);
      this.#io.stderr.write(`ledger: ${oneLine(error)} Showing the accounts with cached transactions.\n`);
      if (this.#arguments.json) this.#printJson({ source: 'cache', rows: cached.map((id) => ({ id })) });
      else if (cached.length === 0) this.#print('No account has cached transactions.');
      else
        this.#print(
          table(
            ['ID'],
            cached.map((id) => [id]),
          ),
        );
      return EXIT_OK;
    }
    if (this.#arguments.json) {
      this.#printJson({ asOf: new Date().toISOString(), source: 'bank', rows: accounts });
      return EXIT_OK;
    }
    this.#print(`${String(accounts.length)} ${accounts.length === 1 ? 'account' : 'accounts'} at the bank.`);
    if (accounts.length > 0) {
      this.#print(
        table(
          ['ID', 'NAME', 'NUMBER', 'STATUS', 'BALANCE', 'AVAILABLE'],
          accounts.map((account) => [
            account.id,
            shownField(account.name),
            shownField(account.account_number),
            shownField(account.status),
            shownField(account.balance),
            shownField(account.available_balance),
          ]),
        ),
      );
    }
    return EXIT_OK;
  }

  #syncRequest(profile: Profile): SyncRequest {
    const { command, options } = this.#arguments;
    switch (command) {
      case 'sync pending-transactions':
        return {
          kind: 'pending-transactions',
          profileId: profile.id,
          accountId: String(options.account),
          ...defined({ fromDate: read.date(options, 'from'), toDate: read.date(options, 'to') }),
        };
      case 'sync webhook-sends':
        return {
          kind: 'webhook-sends',
          profileId: profile.id,
          ...defined({
            webhookId: read.text(options, 'webhook'),
            status: read.sendStatus(options),
            fromDate: read.date(options, 'from'),
            toDate: read.date(options, 'to'),
            full: options.full === true ? true : undefined,
          }),
        };
      case 'sync application':
        return { kind: 'account-application', profileId: profile.id, applicationId: String(options.id) };
      case 'sync applications':
        return {
          kind: 'applications',
          profileId: profile.id,
          ...defined({
            status: read.applicationStatus(options),
            fromDate: read.date(options, 'from'),
            toDate: read.date(options, 'to'),
          }),
        };
      default:
        return { kind: 'webhooks', profileId: profile.id };
    }
  }

  async #sync(): Promise<number> {
    const services = await this.#open();
    const profile = await this.#profile(services, true);
    const request = this.#syncRequest(profile);
    const job = services.sync.start(request);
    const bar = new ProgressBar(this.#io.stderr);
    const unsubscribe = services.sync.onProgress((progress) => {
      if (progress.jobId === job.jobId) bar.update(progress);
    });
    const onAbort = (): void => {
      services.sync.cancel(job.jobId);
    };
    this.#io.signal?.addEventListener('abort', onAbort, { once: true });
    const started = performance.now();
    const outcome = await job.done;
    this.#io.signal?.removeEventListener('abort', onAbort);
    unsubscribe();
    bar.finish();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const { failure: _failure, ...reported } = outcome;
    if (this.#arguments.json) this.#printJson(reported);
    if (outcome.state === 'failed') {
      this.#io.stderr.write(`ledger: ${oneLine(outcome.failure ?? outcome.error)}\n`);
      return EXIT_FAILED;
    }
    if (outcome.state === 'cancelled') {
      if (!this.#arguments.json)
        this.#print(
          `Stopped after ${outcome.fetched.toLocaleString('en-US')} records; run the same command to resume.`,
        );
      return EXIT_CANCELLED;
    }
    if (!this.#arguments.json) {
      this.#print(
        `Synced ${outcome.fetched.toLocaleString('en-US')} records (${outcome.written.toLocaleString('en-US')} new or changed, ${String(outcome.removed)} removed) in ${seconds} s${outcome.resumed ? ', resumed from where the last run stopped' : ''}.`,
      );
    }
    return EXIT_OK;
  }

  /** The pending-transaction filters (usage mistakes first), then the account, which must be cached. */
  #pendingQuery(services: LedgerServices, profile: Profile) {
    const { options } = this.#arguments;
    const query = {
      profileId: profile.id,
      accountId: String(options.account),
      ...defined({
        type: read.pendingType(options),
        search: read.text(options, 'search'),
        fromDate: read.date(options, 'from'),
        toDate: read.date(options, 'to'),
        sort: read.pendingSort(options),
      }),
    };
    checkCachedAccount(services.cache.pendingTransactions.accounts(profile.id), profile.name, query.accountId);
    return query;
  }

  #sendQuery(profile: Profile) {
    const { options } = this.#arguments;
    return {
      profileId: profile.id,
      ...defined({
        webhookId: read.text(options, 'webhook'),
        status: read.sendStatus(options),
        objectId: read.text(options, 'object'),
        event: read.text(options, 'event'),
        fromDate: read.date(options, 'from'),
        toDate: read.date(options, 'to'),
        sort: read.sendSort(options),
      }),
    };
  }

  #applicationQuery(profile: Profile) {
    const { options } = this.#arguments;
    return {
      profileId: profile.id,
      ...defined({
        status: read.applicationStatus(options),
        ownershipType: read.ownership(options),
        accountProductId: read.text(options, 'product'),
        accountId: read.text(options, 'account'),
        sort: read.applicationSort(options),
      }),
    };
  }

  async #list(): Promise<number> {
    const { command, options } = this.#arguments;
    const services = await this.#open();
    const profile = await this.#profile(services, false);
    const next = options.next === true;
    if (next && read.text(options, 'cursor') !== undefined) throw new UsageError('--next and --cursor: give one.');
    const key = listKey(command, { ...options, profile: profile.id });
    const paging = {
      limit: read.limit(options) ?? 50,
      cursor: next ? rememberedCursor(this.#dataFolder, key) : (read.text(options, 'cursor') ?? null),
      withTotal: true,
      ...defined({ review: read.reviewFilter(options, 'review') }),
    };
    const cache = services.cache;
    let read_: { rows: unknown[]; nextCursor: string | null; asOf: string | null; source: 'cache'; total?: number };
    let text: () => string;
    if (command === 'list pending-transactions') {
      const result = cache.pendingTransactions.list({ ...this.#pendingQuery(services, profile), ...paging });
      read_ = {
        ...result,
        rows: withReviews(services.reviews, profile.id, 'pending-transaction', result.rows, (row) => row.row_key),
      };
      const reviewed = read_.rows as { review?: Review | null }[];
      text = () =>
        table(
          ['DATE', 'AMOUNT', 'TYPE', 'DESCRIPTION', 'SUMMARY', 'REVIEW', 'REF'],
          result.rows.map((row, index) => [
            ...[row.date, formatMoney(row.amount ?? null), row.type, row.desc, row.summary].map(shownField),
            reviewWord(reviewed[index]?.review),
            row.row_key,
          ]),
        );
    } else if (command === 'list webhook-sends') {
      const result = cache.webhookSends.list({ ...this.#sendQuery(profile), ...paging });
      read_ = {
        ...result,
        rows: withReviews(services.reviews, profile.id, 'webhook-send', result.rows, (row) => row.id),
      };
      const reviewed = read_.rows as { review?: Review | null }[];
      text = () =>
        table(
          ['CREATED', 'ID', 'WEBHOOK', 'OBJECT', 'STATUS', 'ATTEMPT', 'ERROR', 'REVIEW', 'REF'],
          result.rows.map((row, index) => [
            ...[row.created_at, row.id, row.webhook_id, row.object_id, row.status, row.attempt_number, row.error].map(
              shownField,
            ),
            reviewWord(reviewed[index]?.review),
            row.id,
          ]),
        );
    } else {
      const result = cache.accountApplications.list({ ...this.#applicationQuery(profile), ...paging });
      read_ = {
        ...result,
        rows: withReviews(services.reviews, profile.id, 'application', result.rows, (row) => row.id),
      };
      const reviewed = read_.rows as { review?: Review | null }[];
      text = () =>
        table(
          ['ID', 'STATUS', 'OWNERSHIP', 'PRODUCT', 'ACCOUNT', 'CREATED', 'UPDATED', 'REVIEW', 'REF'],
          result.rows.map((row, index) => [
            ...[
              row.id,
              row.status,
              row.ownership_type,
              row.account_product_id,
              row.account_id,
              row.created_at,
              row.updated_at,
            ].map(shownField),
            reviewWord(reviewed[index]?.review),
            row.id,
          ]),
        );
    }
    rememberCursor(this.#dataFolder, key, read_.nextCursor);
    this.#answerRead(read_, text, 'More: run the same command with --next.');
    return EXIT_OK;
  }

  #answerRead(
    result: { rows: unknown[]; nextCursor: string | null; asOf: string | null; source: 'cache'; total?: number },
    text: () => string,
    more?: string,
  ): void {
    if (this.#arguments.json) {
      this.#printJson({
        asOf: result.asOf,
        source: result.source,
        rows: result.rows,
        nextCursor: result.nextCursor,
        total: result.total,
      });
      return;
    }
    const total = result.total === undefined ? '' : ` of ${result.total.toLocaleString('en-US')}`;
    this.#print(`${String(result.rows.length)}${total} from the offline cache, ${ago(result.asOf)}.`);
    if (result.rows.length > 0) this.#print(text());
    if (result.nextCursor !== null) this.#print(more ?? `More: add --cursor ${result.nextCursor}`);
  }

  async #applicationHistory(): Promise<number> {
    const services = await this.#open();
    const profile = await this.#profile(services, false);
    const history = services.cache.accountApplications.history(profile.id, String(this.#arguments.options.id));
    this.#answerRead(history, () =>
      table(
        ['VERSION', 'STATUS', 'UPDATED', 'FETCHED'],
        history.rows.map((row) => [String(row.version), row.status, row.updatedAt, row.fetchedAt]),
      ),
    );
    return EXIT_OK;
  }

  async #webhooks(): Promise<number> {
    const services = await this.#open();
    const profile = await this.#profile(services, false);
    const { options } = this.#arguments;
    const result = services.cache.webhooks.list({
      profileId: profile.id,
      ...defined({ status: read.webhookStatus(options), event: read.text(options, 'event') }),
    });
    this.#answerRead(result, () =>
      table(
        ['ID', 'EVENT', 'STATUS', 'URL', 'ERROR'],
        result.rows.map((row) => [row.id, row.event, row.status, row.url, row.error].map(shownField)),
      ),
    );
    return EXIT_OK;
  }

  async #audit(): Promise<number> {
    const services = await this.#open();
    const { options } = this.#arguments;
    const profileId = options.profile === undefined ? undefined : (await this.#profile(services, false)).id;
    const result = services.cache.audit.list({
      ...defined({ profileId }),
      limit: read.limit(options) ?? 50,
      cursor: read.text(options, 'cursor') ?? null,
    });
    const who = whoLookupOf(services);
    const rows = result.rows.map((row) => ({ ...row, who: whoOf(row.actor, who) }));
    if (this.#arguments.json) {
      this.#printJson({ asOf: result.asOf, source: result.source, rows, nextCursor: result.nextCursor });
      return EXIT_OK;
    }
    this.#print(
      rows.length === 0
        ? 'The audit log is empty.'
        : table(
            ['AT', 'WHO', 'PROFILE', 'ACTION', 'TARGET', 'RESULT', 'DETAIL'],
            rows.map((row) => [
              row.at,
              row.who ?? '(not recorded)',
              row.profileName,
              row.action,
              row.target,
              row.result,
              row.detail ?? '',
            ]),
          ),
    );
    if (result.nextCursor !== null) this.#print(`More: add --cursor ${result.nextCursor}`);
    return EXIT_OK;
  }

  async #export(): Promise<number> {
    const { command, options } = this.#arguments;
    const services = await this.#open();
    const file = resolve(String(options.csv));
    let view: ExportView;
    if (command === 'export audit') {
      const profileId = options.profile === undefined ? undefined : (await this.#profile(services, false)).id;
      view = { kind: 'audit', query: defined({ profileId }) };
    } else {
      const profile = await this.#profile(services, false);
      if (command === 'export pending-transactions')
        view = { kind: 'pending-transactions', query: this.#pendingQuery(services, profile) };
      else if (command === 'export webhook-sends') view = { kind: 'webhook-sends', query: this.#sendQuery(profile) };
      else
        view = {
          kind: 'account-applications',
          query: this.#applicationQuery(profile),
          unmasked: unmaskedFieldsOf(profile.exportUnmasked ?? []),
        };
    }
    const result = await exportCsv(services.cache, view, file, this.#io.signal);
    if (this.#arguments.json) this.#printJson(result);
    else this.#print(`Wrote ${result.rows.toLocaleString('en-US')} rows to ${result.file}.`);
    return EXIT_OK;
  }
}

/** A row's review in a word or two, for the REVIEW column ("flagged (rule Large debits)"). */
function reviewWord(review: Review | null | undefined): string {
  if (review === null || review === undefined) return 'unreviewed';
  if (review.byRule !== null) return `flagged (rule ${review.byRule})`;
  return review.state;
}

export async function runLedger(argv: readonly string[], io: LedgerIo): Promise<number> {
  let parsed: LedgerArguments;
  try {
    parsed = parseLedgerArguments(argv);
  } catch (error) {
    io.stderr.write(`ledger: ${oneLine(error)}\n`);
    return EXIT_USAGE;
  }
  if (parsed.help) {
    io.stdout.write(USAGE);
    return EXIT_OK;
  }
  try {
    // One writer per data folder: run here under the folder's lock, or by the app that holds it.
    if (io.hosted !== undefined) return await new Ledger(parsed, io).run();
    return await withFolder(parsed, argv, io, () => new Ledger(parsed, io).run());
  } catch (error) {
    io.stderr.write(`ledger: ${oneLine(error)}\n`);
    return error instanceof UsageError ? EXIT_USAGE : EXIT_FAILED;
  }
}
