/**
 * The `ledger` command line's grammar: `ledger [--data DIR] [--json] <group> [<kind>] [options]`.
 * Every option value is checked here, so a typo is one clear line naming the option.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import {
  ACCOUNT_APPLICATION_STATUSES,
  isoDate,
  OWNERSHIP_TYPES,
  PENDING_TRANSACTION_TYPES,
  WEBHOOK_SEND_STATUSES,
  parseWith,
} from '../../../shared/bank/index.ts';
import { DISPOSITIONS, REVIEW_FILTERS, REVIEW_KINDS, REVIEW_REASONS } from '../../../shared/review/reviewTerms.ts';
import { PENDING_TRANSACTION_SORTS } from '../../services/cache/pendingTransactionsTable.ts';
import { WEBHOOK_SEND_SORTS } from '../../services/cache/webhookSendsTable.ts';
import { ACCOUNT_APPLICATION_SORTS } from '../../services/cache/accountApplicationsTable.ts';
import type { ListSource } from '../../../shared/screening/listEntry.ts';
import { COMMON_OPTIONS } from '../common/commonOptions.ts';
import { UsageError } from '../common/usageError.ts';

export const USAGE = `Usage: ledger [--data DIR] [--json] <command>

Profiles (the secret is read from standard input, never from an argument):
  profile add NAME --base-url URL --key-id ID [--production]     Basic: key id + secret on stdin
  profile add NAME --base-url URL --bearer [--production]        Bearer: token on stdin
  profile update NAME [--base-url URL] [--name NEW] [--production|--no-production]
                                                                 a new origin drops the secret; a new one
                                                                 on stdin is kept, else the profile waits
  profile update "Local sandbox" --lean|--no-lean                the embedded sandbox answers in the real
                                                                 service's lean shapes (development)
  profile update NAME --proxy system|environment|none|URL         how the profile reaches its bank (docs/network.md)
                      [--proxy-user USER]                         the proxy's login: its password on stdin ('' clears)
                      [--ca FILE|none]                            also trust the CAs of this PEM file
  profile list
  profile remove NAME

The bank's accounts of a profile (the ids to sync; offline, those with cached transactions):
  accounts --profile NAME

Sync from the bank into the offline cache (resumes where a stopped sync left off):
  sync pending-transactions --profile NAME --account ID [--from DATE] [--to DATE] [--parallel N]
  sync webhook-sends --profile NAME [--webhook ID] [--status sent|skipped|error] [--from DATE] [--to DATE] [--full]
                     [--parallel N]
  (--parallel: date windows walked at once, 1-16, default 6; fewer while the bank answers 429)
  sync application --profile NAME --id ID
  sync applications --profile NAME [--status S] [--from DATE] [--to DATE] [--parallel N]
                    the application book: every application and the people and businesses it names
  sync webhooks --profile NAME

Read from the offline cache (says how old it is):
  list pending-transactions --profile NAME --account ID [--type T] [--search TEXT] [--from DATE] [--to DATE]
                            [--sort ${PENDING_TRANSACTION_SORTS.join('|')}] [--limit N] [--cursor C | --next]
  list webhook-sends --profile NAME [--webhook ID] [--status S] [--object ID] [--event E] [--from DATE] [--to DATE]
                     [--sort ${WEBHOOK_SEND_SORTS.join('|')}] [--limit N] [--cursor C | --next]
  list applications --profile NAME [--status S] [--ownership personal|business] [--product ID] [--account ID]
                    [--sort ${ACCOUNT_APPLICATION_SORTS.join('|')}] [--limit N] [--cursor C | --next]
  list application-history --profile NAME --id ID
  list applicants --profile NAME [--search TEXT] [--limit N]   people and businesses, personal data masked
  list webhooks --profile NAME [--status S] [--event E]

Export any of those lists as CSV (same filters):
  export pending-transactions|webhook-sends|applications|audit ... --csv FILE
  export unmasked --profile NAME [--show CLASS[,CLASS…] | --none]
                    what exports and review reports print unmasked (default: nothing; audited):
                    date_of_birth, tax_id, phone, email, street_lines

Make the bank send an event (sandbox profiles; a remote sandbox needs --yes; never production):
  trigger EVENT --profile NAME [--account ID] [--application ID] [--webhook ID] [--ach ID] [--status S] [--amount 0.00] [--yes]
  trigger --scenario FILE|NAME --profile NAME [--yes]   a scenario file (docs/scenarios.md) or a shipped one
  events                                              every event: what causes it, the notification body, an example

Webhooks at the bank (one per event; --basic reads its secret from standard input; production needs --yes):
  webhooks list --profile NAME [--event E]            grouped by the address they post to
  webhooks add --profile NAME --url URL --event E [--event E2 ...] [--basic USER] [--allow-http]
  webhooks update ID --profile NAME [--url URL] [--event E] [--status enabled|disabled] [--basic USER] [--allow-http]
  webhooks remove ID|--url URL --profile NAME         one webhook, or every webhook posting to URL
Review (the officer's dispositions, kept in the offline cache; REF is a row's "ref" in list --json):
  review set --profile NAME --kind ${REVIEW_KINDS.join('|')} --ref REF [--ref REF…]
             --disposition ${DISPOSITIONS.join('|')} [--note TEXT] [--reason no-match]
             (--reason no-match: clearing a screening hit whitelists the pair until the applicant or entry changes)
  review list --profile NAME [--status unreviewed|changed|flagged|flagged-by-person|flagged-by-rule|escalated|cleared]
              [--kind K] [--account ID] [--from DATE] [--to DATE] [--min-amount A] [--max-amount A] [--rule RULE]
              [--limit N] [--cursor C | --next]       the queue across every account; --next: the next page
  review report --profile NAME [--from DATE] [--to DATE] --html FILE [--csv FILE]
  rules --profile NAME                                 the profile's watch rules
  rules add RULE --profile NAME --kind K [--amount-beyond A] [--description-has WORDS] [--type T] [--type-source S]
            [--application-status S] [--younger-than YEARS] [--older-than YEARS]
            [--citizenship-outside "US, CA"] [--send-status S] [--attempt-at-least N]
  rules remove RULE --profile NAME
  (list … --review ${REVIEW_FILTERS.join('|')} filters any list by review; its --json rows carry ref and review)

Sanctions screening (docs/screening.md; lists are read from files, nothing is downloaded):
  screening import FILE [FILE…] [--source sdn|consolidated|opensanctions] [--published DATE]
                                                      OFAC's SDN.XML, sdn_advanced.xml or CSV set (sdn.csv add.csv
                                                      alt.csv), or an OpenSanctions FollowTheMoney JSON export:
                                                      replaces that list's version at once (audited); a bad file
                                                      changes nothing. --published: the date of a CSV set
  screening lists                                     the lists loaded: published, imported, digest, entries
  screening run --profile NAME [--threshold 0.88]     the profile's cached applicants against the loaded lists:
                                                      each hit with its score and why (--json: every part); the hits
                                                      are kept as review items (kind screening-hit). --threshold:
                                                      this run only; the profile's own is set with:
  screening threshold --profile NAME [--threshold 0.NN | --default]
                                                      the profile's screening threshold (default 0.88; audited)
  screening hits --profile NAME                       the open hits: applicant, list entry, list, score, ref

  drift --profile NAME                                what the bank left out of its answers and sent beyond the
                                                      interface, per resource (field names and counts only)
  drift reset --profile NAME                          start those counts over
  cache clear --profile NAME                          drop the profile's cached bank data (it re-syncs); its
                                                      reviews, notes and watch rules are kept
  record export FILE [--profile NAME] [--archive-passphrase-file FILE]
                                                      one signed, self-verifying archive of the officer's record;
                                                      its notes open with the recovery key (or that passphrase)
  record import FILE --recovery-key FILE | --archive-passphrase-file FILE
                                                      restore an archive into an empty data folder (--data DIR)
  record retention --profile NAME [--years N]         how many years after its review a review is kept (default 5)
  record hold [--reason TEXT | --lift]                place or lift the legal hold: while it holds, nothing is purged
  record purge --profile NAME                         purge the reviews past their retention, with their history
                                                      (audited and anchored; refused under a legal hold, exit 1)
  record backup                                       a verified backup of the record now (daily by itself; the
                                                      newest 7 are kept in the data folder's backups/)
  record backups                                      the backups, newest first: when, size, whether each verifies
  record restore BACKUP                               put a backup (its name or path) in place of the record, the
                                                      current file kept aside; only with no Ledgerdesk running
  audit [--profile NAME] [--limit N] [--cursor C]     the log of every write made from this app
  audit verify                                        check the log's hash chain: ok with its entries and head,
                                                      or the first entry that breaks it (exit 1)
  audit verify --archive FILE [--recovery-key FILE | --archive-passphrase-file FILE]
                                                      check an archive on any machine, no keychain needed: its
                                                      counts and signing key's fingerprint, or the first bad entry
  audit verify --team                                 re-read the team server's whole history: chain, signatures,
                                                      this laptop's copy and anchor; names the first bad event

Team review (docs/team.md; the server is PostgreSQL, every action works offline and is queued):
  team init URL --ca FILE --workspace NAME --officer NAME [--officer NAME…] [--lead NAME] [--out DIR]
       [--password-file FILE] [--valid-for 7d] [--profile NAME]
                                                      the lead, once, on their own laptop: schema, the lead's keys,
                                                      the signed genesis, one invite file per officer (the admin's
                                                      password from FILE, PGPASSWORD or a prompt: never the URL)
  team migrate URL --ca FILE [--password-file FILE]   the admin: this build's team schema on an existing server
  team join FILE [--profile NAME]                     an officer, once per laptop
  team status | push | pull | members | queues [--limit N]
  team acknowledge NAME --fingerprint "…"             after comparing NAME's key fingerprint with them
  team invite NAME [--role officer|lead] [--out DIR] [--valid-for 7d]   team remove NAME (rotates the team key)
  team upgrade [--sign]                               a lead, once, on a team made before signed membership
  team policy [--require FROM>TO…|--none|--approve|--withdraw]
                                                      the four-eyes policy; a lead changes it (a weaker one waits
                                                      for a second lead to --approve it)
  review propose --kind K --ref REF --disposition cleared|flagged|escalated|closed [--note TEXT]
  review approve|reject --kind K --ref REF [--note TEXT] (a rejection needs one)
  review claim|release --kind K --ref REF             review assign --kind K --ref REF --assignee NAME
  keychain                                            whether secrets can be kept, and what to do if not
  record recover --recovery-key FILE                  after the keychain or the key file's passphrase is lost: the
                                                      record's keys back from the recovery key made on first use
  serve [--no-open] [--json] [--port N]               the app in your browser (web mode; serve --help)

Global: --data DIR (default: the app data folder), --json (machine-readable output), --help,
--passphrase-file FILE (the data folder's key file, where the machine has no keychain; or LEDGERDESK_PASSPHRASE_FILE).
While the desktop app, web mode or the listener runs on the data folder, each command is run by it (one writer).
Dates are YYYY-MM-DD (--from inclusive, --to exclusive). Errors: one line on standard error, exit code 1 (2 for usage).
`;

const OPTIONS = {
  ...COMMON_OPTIONS,
  help: { type: 'boolean', short: 'h' },
  'base-url': { type: 'string' },
  name: { type: 'string' },
  'key-id': { type: 'string' },
  bearer: { type: 'boolean' },
  production: { type: 'boolean' },
  lean: { type: 'boolean' },
  profile: { type: 'string' },
  account: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  webhook: { type: 'string' },
  status: { type: 'string' },
  id: { type: 'string' },
  type: { type: 'string' },
  search: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  sort: { type: 'string' },
  object: { type: 'string' },
  // Repeatable for `webhooks add`; every other command takes one (parseLedgerArguments).
  event: { type: 'string', multiple: true },
  url: { type: 'string' },
  basic: { type: 'string' },
  ownership: { type: 'string' },
  product: { type: 'string' },
  csv: { type: 'string' },
  full: { type: 'boolean' },
  'page-size': { type: 'string' },
  application: { type: 'string' },
  ach: { type: 'string' },
  amount: { type: 'string' },
  scenario: { type: 'string' },
  yes: { type: 'boolean' },
  kind: { type: 'string' },
  ref: { type: 'string', multiple: true },
  disposition: { type: 'string' },
  note: { type: 'string' },
  html: { type: 'string' },
  review: { type: 'string' },
  ca: { type: 'string' },
  workspace: { type: 'string' },
  officer: { type: 'string', multiple: true },
  lead: { type: 'string' },
  out: { type: 'string' },
  role: { type: 'string' },
  assignee: { type: 'string' },
  team: { type: 'boolean' },
  require: { type: 'string', multiple: true },
  none: { type: 'boolean' },
  approve: { type: 'boolean' },
  withdraw: { type: 'boolean' },
  'password-file': { type: 'string' },
  'valid-for': { type: 'string' },
  fingerprint: { type: 'string' },
  sign: { type: 'boolean' },
  show: { type: 'string', multiple: true },
  'amount-beyond': { type: 'string' },
  'description-has': { type: 'string' },
  'type-source': { type: 'string' },
  'application-status': { type: 'string' },
  'send-status': { type: 'string' },
  'attempt-at-least': { type: 'string' },
  'younger-than': { type: 'string' },
  'older-than': { type: 'string' },
  'citizenship-outside': { type: 'string' },
  parallel: { type: 'string' },
  rule: { type: 'string' },
  'min-amount': { type: 'string' },
  'max-amount': { type: 'string' },
  next: { type: 'boolean' },
  proxy: { type: 'string' },
  'proxy-user': { type: 'string' },
  'recovery-key': { type: 'string' },
  archive: { type: 'string' },
  'archive-passphrase-file': { type: 'string' },
  'allow-http': { type: 'boolean' },
  years: { type: 'string' },
  reason: { type: 'string' },
  lift: { type: 'boolean' },
  source: { type: 'string' },
  published: { type: 'string' },
  threshold: { type: 'string' },
  default: { type: 'boolean' },
} as const;

type OptionName = keyof typeof OPTIONS;
export type Values = Partial<Record<OptionName, string | boolean | string[]>>;

const PENDING_FILTERS: OptionName[] = ['profile', 'account', 'type', 'search', 'from', 'to', 'sort'];
const SEND_FILTERS: OptionName[] = ['profile', 'webhook', 'status', 'object', 'event', 'from', 'to', 'sort'];
const APPLICATION_FILTERS: OptionName[] = ['profile', 'status', 'ownership', 'product', 'account', 'sort'];
const PAGING: OptionName[] = ['limit', 'cursor'];
const RULE_CONDITIONS: OptionName[] = [
  'kind',
  'amount-beyond',
  'description-has',
  'type',
  'type-source',
  'application-status',
  'send-status',
  'attempt-at-least',
  'younger-than',
  'older-than',
  'citizenship-outside',
];

/** Each command: the options it accepts, those it requires, and how many positional words. */
const COMMANDS: Record<
  string,
  {
    accepts: OptionName[];
    requires: OptionName[];
    names?: string;
    nameOptional?: boolean;
    /** One or more positional words (`screening import FILE [FILE…]`), in `names`. */
    several?: boolean;
  }
> = {
  'profile add': { accepts: ['base-url', 'key-id', 'bearer', 'production'], requires: ['base-url'], names: 'NAME' },
  'profile update': {
    accepts: ['base-url', 'name', 'production', 'lean', 'proxy', 'proxy-user', 'ca'],
    requires: [],
    names: 'NAME',
  },
  'profile list': { accepts: [], requires: [] },
  'profile remove': { accepts: [], requires: [], names: 'NAME' },
  accounts: { accepts: ['profile'], requires: ['profile'] },
  'sync pending-transactions': {
    accepts: ['profile', 'account', 'from', 'to', 'page-size', 'parallel'],
    requires: ['profile', 'account'],
  },
  'sync webhook-sends': {
    accepts: ['profile', 'webhook', 'status', 'from', 'to', 'full', 'page-size', 'parallel'],
    requires: ['profile'],
  },
  'sync application': { accepts: ['profile', 'id'], requires: ['profile', 'id'] },
  'sync applications': {
    accepts: ['profile', 'status', 'from', 'to', 'page-size', 'parallel'],
    requires: ['profile'],
  },
  'sync webhooks': { accepts: ['profile', 'page-size'], requires: ['profile'] },
  'list pending-transactions': {
    accepts: [...PENDING_FILTERS, ...PAGING, 'next', 'review'],
    requires: ['profile', 'account'],
  },
  'list webhook-sends': { accepts: [...SEND_FILTERS, ...PAGING, 'next', 'review'], requires: ['profile'] },
  'list applications': { accepts: [...APPLICATION_FILTERS, ...PAGING, 'next', 'review'], requires: ['profile'] },
  'list application-history': { accepts: ['profile', 'id'], requires: ['profile', 'id'] },
  'list applicants': { accepts: ['profile', 'search', 'limit'], requires: ['profile'] },
  'list webhooks': { accepts: ['profile', 'status', 'event'], requires: ['profile'] },
  'export pending-transactions': { accepts: [...PENDING_FILTERS, 'csv'], requires: ['profile', 'account', 'csv'] },
  'export webhook-sends': { accepts: [...SEND_FILTERS, 'csv'], requires: ['profile', 'csv'] },
  'export applications': { accepts: [...APPLICATION_FILTERS, 'csv'], requires: ['profile', 'csv'] },
  'export audit': { accepts: ['profile', 'csv'], requires: ['csv'] },
  'export unmasked': { accepts: ['profile', 'show', 'none'], requires: ['profile'] },
  'cache clear': { accepts: ['profile'], requires: ['profile'] },
  'record retention': { accepts: ['profile', 'years'], requires: ['profile'] },
  'record hold': { accepts: ['reason', 'lift'], requires: [] },
  'record purge': { accepts: ['profile'], requires: ['profile'] },
  'record backup': { accepts: [], requires: [] },
  'record backups': { accepts: [], requires: [] },
  'record restore': { accepts: [], requires: [], names: 'BACKUP' },
  'screening import': { accepts: ['source', 'published'], requires: [], names: 'FILE', several: true },
  'screening lists': { accepts: [], requires: [] },
  'screening run': { accepts: ['profile', 'threshold'], requires: ['profile'] },
  'screening threshold': { accepts: ['profile', 'threshold', 'default'], requires: ['profile'] },
  'screening hits': { accepts: ['profile'], requires: ['profile'] },
  audit: { accepts: ['profile', ...PAGING], requires: [] },
  'audit verify': { accepts: ['team', 'archive', 'recovery-key', 'archive-passphrase-file'], requires: [] },
  'record export': { accepts: ['profile', 'archive-passphrase-file'], requires: [], names: 'FILE' },
  'record import': { accepts: ['recovery-key', 'archive-passphrase-file'], requires: [], names: 'FILE' },
  'team init': {
    accepts: ['ca', 'workspace', 'officer', 'lead', 'out', 'password-file', 'valid-for', 'profile'],
    requires: ['ca', 'workspace', 'officer'],
    names: 'URL',
  },
  'team join': { accepts: ['profile'], requires: [], names: 'FILE' },
  'team migrate': { accepts: ['ca', 'password-file'], requires: ['ca'], names: 'URL' },
  'team status': { accepts: [], requires: [] },
  'team push': { accepts: [], requires: [] },
  'team pull': { accepts: [], requires: [] },
  'team members': { accepts: [], requires: [] },
  'team queues': { accepts: ['limit'], requires: [] },
  'team invite': { accepts: ['role', 'out', 'valid-for'], requires: [], names: 'NAME' },
  'team remove': { accepts: [], requires: [], names: 'NAME' },
  'team acknowledge': { accepts: ['fingerprint'], requires: ['fingerprint'], names: 'NAME' },
  'team upgrade': { accepts: ['sign'], requires: [] },
  'team policy': { accepts: ['require', 'none', 'approve', 'withdraw'], requires: [] },
  'review propose': { accepts: ['kind', 'ref', 'disposition', 'note'], requires: ['kind', 'ref', 'disposition'] },
  'review approve': { accepts: ['kind', 'ref', 'note'], requires: ['kind', 'ref'] },
  'review reject': { accepts: ['kind', 'ref', 'note'], requires: ['kind', 'ref', 'note'] },
  'review claim': { accepts: ['kind', 'ref'], requires: ['kind', 'ref'] },
  'review release': { accepts: ['kind', 'ref'], requires: ['kind', 'ref'] },
  'review assign': { accepts: ['kind', 'ref', 'assignee'], requires: ['kind', 'ref', 'assignee'] },
  drift: { accepts: ['profile'], requires: ['profile'] },
  'drift reset': { accepts: ['profile'], requires: ['profile'] },
  keychain: { accepts: [], requires: [] },
  'record recover': { accepts: ['recovery-key'], requires: ['recovery-key'] },
  trigger: {
    accepts: ['profile', 'account', 'application', 'webhook', 'ach', 'status', 'amount', 'scenario', 'yes'],
    requires: ['profile'],
    names: 'EVENT',
    nameOptional: true,
  },
  events: { accepts: [], requires: [] },
  'review set': {
    accepts: ['profile', 'kind', 'ref', 'disposition', 'note', 'reason'],
    requires: ['profile', 'kind', 'ref', 'disposition'],
  },
  'review list': {
    accepts: [
      'profile',
      'kind',
      'status',
      'account',
      'from',
      'to',
      'rule',
      'min-amount',
      'max-amount',
      'next',
      ...PAGING,
    ],
    requires: ['profile'],
  },
  'review report': { accepts: ['profile', 'from', 'to', 'html', 'csv'], requires: ['profile', 'html'] },
  rules: { accepts: ['profile'], requires: ['profile'] },
  'rules add': { accepts: ['profile', ...RULE_CONDITIONS], requires: ['profile', 'kind'], names: 'RULE' },
  'rules remove': { accepts: ['profile'], requires: ['profile'], names: 'RULE' },
  'webhooks list': { accepts: ['profile', 'event'], requires: ['profile'] },
  'webhooks add': {
    accepts: ['profile', 'url', 'event', 'basic', 'yes', 'allow-http'],
    requires: ['profile', 'url', 'event'],
  },
  'webhooks update': {
    accepts: ['profile', 'url', 'event', 'status', 'basic', 'yes', 'allow-http'],
    requires: ['profile'],
    names: 'ID',
  },
  'webhooks remove': { accepts: ['profile', 'url', 'yes'], requires: ['profile'], names: 'ID', nameOptional: true },
};

/** Commands that take --event more than once (as a list); the others take one, as a plain value. */
const REPEATED_EVENT = new Set(['webhooks add', 'webhooks list']);

export interface LedgerArguments {
  command: string;
  /** The positional NAME of profile add/remove. */
  name: string | null;
  /** Every positional word of a command that takes several (the FILEs of `screening import`). */
  names: string[];
  dataFolder: string | null;
  /** `--passphrase-file`: where the key file's passphrase is (app/dataFolderSecrets.ts). */
  passphraseFile: string | null;
  json: boolean;
  help: boolean;
  options: Values;
}

/** Whether a word of the command line is one of our options (`--name`, `--name=…`, `--no-name`, `-h`). */
function isOptionWord(word: string): boolean {
  if (word === '-h') return true;
  if (!word.startsWith('--')) return false;
  const name = word.slice(2).split('=')[0] ?? '';
  return Object.hasOwn(OPTIONS, name) || (name.startsWith('no-') && Object.hasOwn(OPTIONS, name.slice(3)));
}

/**
 * Joins an option that takes a value with a next word that starts with a dash
 * (`--ref -Xb3…` → `--ref=-Xb3…`), unless that word is itself one of our options. Refs and
 * cursors are base64url and may start with `-`, as may a negative amount; parseArgs would
 * refuse them as "ambiguous" and make the user guess the `--ref=…` form.
 */
export function joinDashedValues(argv: readonly string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const word = argv[index] ?? '';
    const next = argv[index + 1];
    const name = word.startsWith('--') && !word.includes('=') ? word.slice(2) : null;
    const takesValue = name !== null && Object.hasOwn(OPTIONS, name) && OPTIONS[name as OptionName].type === 'string';
    if (takesValue && next !== undefined && next.startsWith('-') && !isOptionWord(next)) {
      joined.push(`${word}=${next}`);
      index += 1;
    } else {
      joined.push(word);
    }
  }
  return joined;
}

export function parseLedgerArguments(argv: readonly string[]): LedgerArguments {
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({
      args: joinDashedValues(argv),
      options: OPTIONS,
      allowPositionals: true,
      allowNegative: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/\. To specify a positional.*$/s, '.'));
  }
  const { values, positionals } = parsed;
  const help = values.help === true;
  const [group, second, ...rest] = positionals;
  if (group === undefined) {
    if (help)
      return {
        command: 'help',
        name: null,
        names: [],
        dataFolder: null,
        passphraseFile: null,
        json: false,
        help: true,
        options: {},
      };
    throw new UsageError('Say what to do, e.g. `ledger profile list` (see --help).');
  }
  // A two-word command wins over a one-word one it starts with (`audit verify` over `audit`).
  const oneWord = COMMANDS[group] !== undefined && COMMANDS[`${group} ${second ?? ''}`] === undefined;
  const command = oneWord ? group : `${group} ${second ?? ''}`.trim();
  const spec = COMMANDS[command];
  if (spec === undefined) throw new UsageError(`Unknown command \`${command}\` (see --help).`);
  const extra = oneWord ? [second, ...rest].filter((word) => word !== undefined) : rest;
  let name: string | null = null;
  let names: string[] = [];
  if (spec.several === true) {
    names = [...extra];
    if (names.length === 0) throw new UsageError(`\`${command}\` needs at least one ${spec.names ?? 'word'}.`);
    name = names[0] ?? null;
  } else if (spec.names !== undefined) {
    if (spec.nameOptional === true && extra.length === 0) name = null;
    else if (extra.length !== 1 || extra[0] === undefined) {
      throw new UsageError(`\`${command}\` needs exactly one ${spec.names}.`);
    } else {
      name = extra[0];
      names = [name];
    }
  } else if (extra.length > 0) {
    throw new UsageError(`\`${command}\` takes no ${extra.length === 1 ? 'word' : 'words'} like "${extra.join(' ')}".`);
  }
  const options: Values = {};
  for (const [option, value] of Object.entries(values) as [OptionName, string | boolean | string[]][]) {
    if (option === 'data' || option === 'json' || option === 'help' || option === 'passphrase-file') continue;
    if (!spec.accepts.includes(option)) throw new UsageError(`\`${command}\` has no option --${option}.`);
    if (option === 'event' && Array.isArray(value) && !REPEATED_EVENT.has(command)) {
      if (value.length > 1) throw new UsageError(`\`${command}\` takes one --event.`);
      options[option] = value[0] ?? '';
      continue;
    }
    options[option] = value;
  }
  if (!help) {
    for (const option of spec.requires) {
      if (options[option] === undefined) throw new UsageError(`\`${command}\` needs --${option}.`);
    }
  }
  return {
    command,
    name,
    names,
    dataFolder: typeof values.data === 'string' ? values.data : null,
    passphraseFile: typeof values['passphrase-file'] === 'string' ? values['passphrase-file'] : null,
    json: values.json === true,
    help,
    options,
  };
}

function checked<Schema extends z.ZodType>(
  schema: Schema,
  option: string,
  value: string | boolean | string[] | undefined,
): z.output<Schema> | undefined {
  if (value === undefined) return undefined;
  const parsed = parseWith(schema, value);
  if (!parsed.ok)
    throw new UsageError(`--${option}: ${parsed.problems.map((problem) => problem.replace(/^: /, '')).join('; ')}`);
  return parsed.value;
}

const wholeNumber = (maximum: number) =>
  z
    .string()
    .regex(/^[0-9]+$/, { message: `must be a whole number from 1 to ${String(maximum)}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, { message: `must be from 1 to ${String(maximum)}` })
        .max(maximum, { message: `must be from 1 to ${String(maximum)}` }),
    );

const text = z.string().min(1, { message: 'must not be empty' });

const LIST_SOURCES = {
  sdn: 'ofac-sdn',
  consolidated: 'ofac-consolidated',
  opensanctions: 'opensanctions',
} as const satisfies Record<string, ListSource>;

/** Option readers: each checks its value and names the option in its message. */
export const read = {
  text: (values: Values, option: OptionName) => checked(text, option, values[option]),
  date: (values: Values, option: 'from' | 'to') => checked(isoDate, option, values[option]),
  limit: (values: Values) => checked(wholeNumber(1000), 'limit', values.limit),
  pageSize: (values: Values) => checked(wholeNumber(1000), 'page-size', values['page-size']),
  parallel: (values: Values) => checked(wholeNumber(16), 'parallel', values.parallel),
  pendingType: (values: Values) =>
    checked(
      z.enum(PENDING_TRANSACTION_TYPES, { message: `must be one of ${PENDING_TRANSACTION_TYPES.join(', ')}` }),
      'type',
      values.type,
    ),
  sendStatus: (values: Values) =>
    checked(
      z.enum(WEBHOOK_SEND_STATUSES, { message: `must be one of ${WEBHOOK_SEND_STATUSES.join(', ')}` }),
      'status',
      values.status,
    ),
  applicationStatus: (values: Values) =>
    checked(
      z.enum(ACCOUNT_APPLICATION_STATUSES, { message: `must be one of ${ACCOUNT_APPLICATION_STATUSES.join(', ')}` }),
      'status',
      values.status,
    ),
  webhookStatus: (values: Values) =>
    checked(
      z.enum(['enabled', 'error', 'disabled'], { message: 'must be one of enabled, error, disabled' }),
      'status',
      values.status,
    ),
  ownership: (values: Values) =>
    checked(
      z.enum(OWNERSHIP_TYPES, { message: `must be one of ${OWNERSHIP_TYPES.join(', ')}` }),
      'ownership',
      values.ownership,
    ),
  pendingSort: (values: Values) =>
    checked(
      z.enum(PENDING_TRANSACTION_SORTS, { message: `must be one of ${PENDING_TRANSACTION_SORTS.join(', ')}` }),
      'sort',
      values.sort,
    ),
  sendSort: (values: Values) =>
    checked(
      z.enum(WEBHOOK_SEND_SORTS, { message: `must be one of ${WEBHOOK_SEND_SORTS.join(', ')}` }),
      'sort',
      values.sort,
    ),
  reviewKind: (values: Values) =>
    checked(z.enum(REVIEW_KINDS, { message: `must be one of ${REVIEW_KINDS.join(', ')}` }), 'kind', values.kind),
  disposition: (values: Values) =>
    checked(
      z.enum(DISPOSITIONS, { message: `must be one of ${DISPOSITIONS.join(', ')}` }),
      'disposition',
      values.disposition,
    ),
  reviewFilter: (values: Values, option: 'status' | 'review') =>
    checked(z.enum(REVIEW_FILTERS, { message: `must be one of ${REVIEW_FILTERS.join(', ')}` }), option, values[option]),
  /** Every --ref given (the option may repeat), each checked. */
  refs: (values: Values) => {
    const given = values.ref;
    const list = Array.isArray(given) ? given : typeof given === 'string' ? [given] : [];
    return list.map((ref) => checked(text, 'ref', ref) ?? '');
  },
  wholeNumber: (values: Values, option: OptionName, maximum: number) =>
    checked(wholeNumber(maximum), option, values[option]),
  /** `--source sdn|consolidated|opensanctions`, as the list store names them. */
  listSource: (values: Values) =>
    checked(
      z
        .enum(['sdn', 'consolidated', 'opensanctions'], { message: 'must be one of sdn, consolidated, opensanctions' })
        .transform((source) => LIST_SOURCES[source]),
      'source',
      values.source,
    ),
  published: (values: Values) => checked(isoDate, 'published', values.published),
  /** `--reason no-match` of `review set` (the reasons a disposition can carry). */
  reviewReason: (values: Values) =>
    checked(
      z.enum(REVIEW_REASONS, { message: `must be ${REVIEW_REASONS.join(' or ')} (for a screening hit)` }),
      'reason',
      values.reason,
    ),
  /** `--threshold 0.NN`: a score from 0 to 1, as the screener compares it. */
  threshold: (values: Values) =>
    checked(
      z
        .string()
        .refine((text) => /^(0|1)?(\.[0-9]+)?$/.test(text) && /[0-9]/.test(text) && Number(text) <= 1, {
          message: 'must be a number from 0 to 1, such as 0.88',
        })
        .transform(Number),
      'threshold',
      values.threshold,
    ),
  applicationSort: (values: Values) =>
    checked(
      z.enum(ACCOUNT_APPLICATION_SORTS, { message: `must be one of ${ACCOUNT_APPLICATION_SORTS.join(', ')}` }),
      'sort',
      values.sort,
    ),
};

/** Drops undefined entries, so optional filters are simply absent. */
export function defined<Shape extends Record<string, unknown>>(
  shape: Shape,
): { [Key in keyof Shape]?: Exclude<Shape[Key], undefined> } {
  return Object.fromEntries(Object.entries(shape).filter(([, value]) => value !== undefined)) as {
    [Key in keyof Shape]?: Exclude<Shape[Key], undefined>;
  };
}
