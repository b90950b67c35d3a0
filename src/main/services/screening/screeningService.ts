/**
 * Screening as the officer uses it, from the command line and from Settings → Screening (both
 * call these methods): import a list version, see what is loaded, and screen a profile's cached
 * applicants against every loaded list.
 *
 * The lists live in their own file (`screening-lists.db`, docs/decisions/40-screening-list-
 * store-own-file.md), opened on first use so a data folder that never screens has none. An
 * import is audited once, in the record's audit log, whether it replaced the list, found it
 * unchanged or was refused.
 *
 * Every run keeps its hits in the officer's record as review items of kind `screening-hit`
 * (screeningHits.ts, docs/decisions/40-screening-hits-are-review-items.md): a new pair is a new
 * item; a pair the officer decided "no match" on is not a hit again while the applicant and the
 * entry are the ones decided on; a reviewed hit found on a changed applicant or entry comes back
 * (`changed`). A hit is never cleared by a run. Runs start after each sync of applications
 * (applicants new or changed since their last screening), after a list import (every applicant:
 * the lists changed) and on demand (every applicant); each is audited once.
 */
import { statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { ListFileError, type ListEntry, type ListSource } from '../../../shared/screening/listEntry.ts';
import { listSourceName, listVersionName, shortDigest } from '../../../shared/screening/listNames.ts';
import type { ScoreExplanation, ScreeningSubject } from '../../../shared/screening/scoring.ts';
import { hitRef, type HitRecord } from '../../../shared/screening/screeningHit.ts';
import { DEFAULT_THRESHOLD } from '../../../shared/screening/screener.ts';
import type { AuditLog } from '../audit/auditLog.ts';
import type { OfflineCache } from '../cache/offlineCache.ts';
import { applicantSubjects, type DigestedSubject } from './applicantSubjects.ts';
import { entryName, hitRecordOf } from './hitRecords.ts';
import { ScreeningHits, type FoundHit } from './screeningHits.ts';
import { readList, type ListReadOptions } from './listFiles.ts';
import { openScreeningListFile, ScreeningListStore, type ListVersion } from './screeningListStore.ts';
import { ScreeningPool } from './screeningPool.ts';
import type { ContractAnswer } from '../../../shared/ipc/contractAnswer.ts';

/** A screening that cannot run as asked (no list loaded): one sentence; nothing was changed. */
export class ScreeningProblem extends Error {
  /** No list loaded, or no record file to keep hits in. */
  readonly kind: 'no-list' | 'no-record';
  constructor(message: string, kind: 'no-list' | 'no-record' = 'no-list') {
    super(message);
    this.name = 'ScreeningProblem';
    this.kind = kind;
  }

  /** No list loaded: the window says so and how to load one. */
  get answer(): ContractAnswer {
    if (this.kind === 'no-record') return { code: 'storage_error' };
    return {
      code: 'not_available',
      action:
        'Import a list first: ledger screening import FILE (OFAC SDN.XML, its CSV set, or an OpenSanctions export).',
    };
  }
}

interface NamedEntry {
  uid: string;
  name: string;
}

/** What an import did, as the officer is told it. */
export interface ListImport {
  version: ListVersion;
  /** The version it replaced; null the first time this list is imported. */
  previous: ListVersion | null;
  /** The file is the loaded version already: nothing was written. */
  unchanged: boolean;
  added: NamedEntry[];
  changed: NamedEntry[];
  /** Entries the new version no longer holds: their open hits now say so. */
  removed: NamedEntry[];
  /** Open hits marked "entry no longer on <list>" by this version (every profile's). */
  goneHits: number;
  /** The profiles screened again against the new version, and what each run kept. */
  screenedAgain: { profileId: string; screened: number; kept: KeptCounts }[];
}

/** What a run did to the kept hits. */
export interface KeptCounts {
  /** Pairs found the first time: new review items. */
  new: number;
  /** Reviewed hits found again on a changed applicant or entry: back in the queue (`changed`). */
  back: number;
  /** Hits kept before, on the same applicant and entry. */
  again: number;
  /** Pairs the officer decided "no match" on, unchanged since: not hits. */
  noMatch: number;
}

/** One applicant matching one list entry at or above the threshold. */
export interface ScreeningHit {
  applicantId: string;
  applicantKind: ScreeningSubject['kind'];
  /** The applicant's name as the app shows it (names are not masked; see masking.ts). */
  applicantName: string;
  source: ListSource;
  entry: { uid: string; name: string; kind: ListEntry['kind']; programs: string[] };
  score: number;
  /** The score's parts; the applicant's date of birth in them masked as everywhere else. */
  explanation: ScoreExplanation;
  /** The same parts in words (explanationWords.ts). */
  words: string[];
}

export interface ScreeningRun {
  threshold: number;
  lists: ListVersion[];
  /** Applicants screened (those with a name; after a sync, those new or changed only). */
  screened: number;
  /** Best score first; a pair decided "no match" and unchanged is not among them. */
  hits: ScreeningHit[];
  kept: KeptCounts;
}

/** Which applicants a run screens: every one, or those new or changed since their last screening. */
export type ScreeningScope = 'all' | 'changed';

interface ScreeningServiceOptions {
  dataFolder: string;
  cache: OfflineCache;
  now: () => Date;
  /** The profile's threshold: its setting, else the default. */
  thresholdOf?: (profileId: string) => number;
  /** Every profile, screened again after a list import. */
  profileIds?: () => string[];
  profileName?: (profileId: string) => string;
  /**
   * A reviewed hit found on a changed applicant or entry: its review is marked `changed` (in
   * the run's transaction, audited); returns null when the hit has no review.
   */
  markChanged?: (profileId: string, ref: string, current: HitRecord, at: string) => number | null;
}

/** An entry's uid across lists: two lists may use the same number for different parties. */
const SEPARATOR = '\u0000';

/** Every file of an import must be a file that is there: said before any parser starts. */
function checkedPaths(paths: readonly string[]): string[] {
  if (paths.length === 0) throw new ListFileError('(no file)', {}, 'say which list file to import');
  return paths.map((path) => {
    const full = resolve(path);
    let stats;
    try {
      stats = statSync(full);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new ListFileError(
        basename(full),
        {},
        code === 'ENOENT' ? `there is no such file (${full})` : `the file cannot be read (${code ?? String(error)})`,
      );
    }
    if (stats.isDirectory()) throw new ListFileError(basename(full), {}, 'a folder, not a list file');
    return full;
  });
}

export class ScreeningService {
  readonly #options: ScreeningServiceOptions;
  readonly #hits: ScreeningHits;
  /** Runs started by a sync, not awaited by it: settled() waits for them (the CLI, close). */
  readonly #running = new Set<Promise<unknown>>();
  #database: DatabaseSync | null = null;
  #store: ScreeningListStore | null = null;

  constructor(options: ScreeningServiceOptions) {
    this.#options = options;
    this.#hits = new ScreeningHits(options.cache.database, () => options.cache.recordSealer);
  }

  /** The kept hits (the record's screening_hits), for the review items and `ledger screening hits`. */
  get hits(): ScreeningHits {
    return this.#hits;
  }

  #lists(): ScreeningListStore {
    if (this.#store === null) {
      this.#database = openScreeningListFile(this.#options.dataFolder);
      this.#store = new ScreeningListStore(this.#database);
    }
    return this.#store;
  }

  get #audit(): AuditLog {
    return this.#options.cache.audit;
  }

  /** The current version of each loaded list. */
  lists(): ListVersion[] {
    return this.#lists().current();
  }

  /**
   * Reads the file(s) and makes them their list's current version, atomically; a file that
   * cannot be read whole changes nothing. Audited once either way.
   */
  async importList(paths: readonly string[], options: ListReadOptions = {}): Promise<ListImport> {
    let outcome: ListImport;
    try {
      const files = checkedPaths(paths);
      const list = await readList(files, options);
      const seen = new Set<string>();
      for (const entry of list.entries) {
        if (seen.has(entry.uid))
          throw new ListFileError(
            files.map((file) => basename(file)).join(', '),
            {},
            `entry ${entry.uid} is there twice`,
          );
        seen.add(entry.uid);
      }
      const replacement = this.#lists().replace(list, this.#options.now().toISOString());
      const names = new Map(list.entries.map((entry) => [entry.uid, entryName(entry)]));
      const named = (uid: string): NamedEntry => ({ uid, name: names.get(uid) ?? uid });
      outcome = {
        version: replacement.version,
        previous: replacement.previous,
        unchanged: replacement.unchanged,
        added: replacement.added.map(named),
        changed: replacement.changed.map(named),
        removed: replacement.removed.map((entry) => ({ uid: entry.uid, name: entry.primaryName })),
        goneHits: 0,
        screenedAgain: [],
      };
      if (outcome.removed.length > 0) {
        const since = replacement.version.publishedAt ?? replacement.version.importedAt.slice(0, 10);
        const note = `entry no longer on ${listSourceName(replacement.version.source)} (${since})`;
        outcome.goneHits = this.#options.cache.transaction(
          () =>
            this.#hits.markGone(
              replacement.version.source,
              outcome.removed.map((entry) => entry.uid),
              note,
            ).length,
        );
      }
    } catch (error) {
      this.#audit.record({
        profileId: '',
        profileName: '',
        action: 'screening.list-import',
        target: options.source ?? paths.map((path) => basename(path)).join(', '),
        result: 'failed',
        detail: error instanceof Error ? error.message : String(error),
      });
      await this.#audit.settled();
      throw error;
    }
    const { version } = outcome;
    this.#audit.record({
      profileId: '',
      profileName: '',
      action: 'screening.list-import',
      target: version.source,
      result: 'ok',
      detail: outcome.unchanged
        ? `${listVersionName(version)}, sha256 ${version.digest}: already loaded, nothing changed`
        : `${listVersionName(version)}, sha256 ${version.digest}: ${String(version.entryCount)} entries, ` +
          `${String(outcome.added.length)} added, ${String(outcome.changed.length)} changed, ${String(outcome.removed.length)} removed` +
          (outcome.previous === null ? '' : `; replaces sha256 ${shortDigest(outcome.previous.digest)}`) +
          (outcome.goneHits === 0
            ? ''
            : `; ${String(outcome.goneHits)} open ${outcome.goneHits === 1 ? 'hit' : 'hits'} marked gone`),
    });
    await this.#audit.settled();
    // A new version: every profile's applicants are screened against it (their lists changed).
    if (!outcome.unchanged) {
      for (const profileId of this.#options.profileIds?.() ?? []) {
        const run = await this.screen(profileId, undefined, 'changed');
        outcome.screenedAgain.push({ profileId, screened: run.screened, kept: run.kept });
      }
    }
    return outcome;
  }

  /**
   * Screens the profile's named applicants against every loaded list and keeps the hits as
   * review items. `threshold`: this run's only (else the profile's); `scope`: every applicant,
   * or those new or changed since their last screening (a new list version or threshold counts
   * as a change). One transaction keeps the hits, and one audit entry says what the run did.
   */
  async screen(profileId: string, threshold?: number, scope: ScreeningScope = 'all'): Promise<ScreeningRun> {
    const store = this.#lists();
    const lists = store.current();
    if (lists.length === 0) throw new ScreeningProblem('No sanctions list is loaded.');
    if (!this.#hits.present)
      throw new ScreeningProblem(
        "The officer's record is not open in its own file (see the top of the window, or `ledger record`), so hits could not be kept for review: nothing was screened.",
        'no-record',
      );
    const used = threshold ?? this.#options.thresholdOf?.(profileId) ?? DEFAULT_THRESHOLD;
    const listsKey = lists.map((version) => `${version.source}:${version.digest}`).join(',');
    const entries = new Map<string, { source: ListSource; entry: ListEntry; digest: string; version: ListVersion }>();
    for (const version of lists) {
      const digests = store.entryDigests(version.source);
      for (const entry of store.entries(version.source))
        entries.set(`${version.source}${SEPARATOR}${entry.uid}`, {
          source: version.source,
          entry,
          digest: digests.get(entry.uid) ?? '',
          version,
        });
    }
    const all = applicantSubjects(this.#options.cache, profileId);
    const before: ReturnType<ScreeningHits['screened']> =
      scope === 'changed' ? this.#hits.screened(profileId) : new Map<string, never>();
    const subjects = all.filter((subject) => {
      const last = before.get(subject.applicantId);
      return (
        scope === 'all' ||
        last === undefined ||
        last.applicantDigest !== subject.digest ||
        last.listsKey !== listsKey ||
        last.threshold !== used
      );
    });
    const kept: KeptCounts = { new: 0, back: 0, again: 0, noMatch: 0 };
    if (subjects.length === 0) return { threshold: used, lists, screened: 0, hits: [], kept };
    const pool = await ScreeningPool.start(
      [...entries].map(([key, { entry }]) => ({ ...entry, uid: key })),
      { threshold: used },
    );
    let results;
    try {
      results = await pool.screen(subjects);
    } finally {
      await pool.close();
    }
    const at = this.#options.now().toISOString();
    const subjectOf = new Map(subjects.map((subject) => [subject.applicantId, subject]));
    const found: FoundHit[] = [];
    for (const result of results) {
      const subject = subjectOf.get(result.applicantId);
      if (subject === undefined) continue;
      for (const hit of result.hits) {
        const listed = entries.get(hit.entryUid);
        if (listed === undefined) continue;
        found.push(this.#found(subject, listed, hit, at));
      }
    }
    const hits = this.#keep(profileId, subjects, found, { listsKey, threshold: used, at, kept });
    hits.sort((a, b) => b.score - a.score || a.applicantName.localeCompare(b.applicantName));
    return { threshold: used, lists, screened: subjects.length, hits, kept };
  }

  #found(
    subject: DigestedSubject,
    listed: { source: ListSource; entry: ListEntry; digest: string; version: ListVersion },
    hit: ScoreExplanation,
    at: string,
  ): FoundHit {
    const ref = hitRef(subject.applicantId, listed.source, listed.entry.uid);
    return {
      ref,
      applicantId: subject.applicantId,
      source: listed.source,
      entryUid: listed.entry.uid,
      listVersion: listed.version.id,
      listDigest: listed.version.digest,
      score: hit.score,
      applicantDigest: subject.digest,
      entryDigest: listed.digest,
      record: hitRecordOf({
        applicantId: subject.applicantId,
        subject: subject.subject,
        source: listed.source,
        entry: listed.entry,
        explanation: hit,
        list: { publishedAt: listed.version.publishedAt, digest: listed.version.digest },
        foundAt: at,
        screenedAt: at,
      }),
    };
  }

  /** Keeps a run's hits and who was screened, in one transaction with its audit entry. */
  #keep(
    profileId: string,
    subjects: readonly DigestedSubject[],
    found: readonly FoundHit[],
    run: { listsKey: string; threshold: number; at: string; kept: KeptCounts },
  ): ScreeningHit[] {
    const { kept, at } = run;
    const shown: ScreeningHit[] = [];
    this.#options.cache.transaction(() => {
      const decided = this.#hits.noMatches(profileId);
      for (const hit of found) {
        const noMatch = decided.get(hit.ref);
        if (noMatch !== undefined) {
          if (noMatch.applicantDigest === hit.applicantDigest && noMatch.entryDigest === hit.entryDigest) {
            kept.noMatch += 1;
            continue;
          }
          // The applicant or the entry changed since "no match": the pair is a hit again.
          this.#hits.forgetNoMatch(profileId, hit.applicantId, hit.source, hit.entryUid);
        }
        const record = { ...hit.record, foundAt: this.#hits.foundAt(profileId, hit.ref) ?? at };
        const outcome = this.#hits.keep(profileId, { ...hit, record }, at);
        if (outcome === 'new') kept.new += 1;
        else if (outcome === 'changed' && this.#options.markChanged?.(profileId, hit.ref, record, at) != null)
          kept.back += 1;
        else kept.again += 1;
        shown.push({
          applicantId: hit.applicantId,
          applicantKind: record.applicant.kind,
          applicantName: record.applicant.names[0] ?? '',
          source: hit.source,
          entry: {
            uid: record.entry.uid,
            name: record.entry.name,
            kind: record.entry.kind,
            programs: record.entry.programs,
          },
          score: hit.score,
          explanation: record.explanation,
          words: record.words,
        });
      }
      for (const subject of subjects)
        this.#hits.markScreened(profileId, subject.applicantId, subject.digest, run.listsKey, run.threshold, at);
      this.#audit.record({
        profileId,
        profileName: this.#options.profileName?.(profileId) ?? '',
        action: 'screening.run',
        target: profileId,
        result: 'ok',
        detail:
          `${String(subjects.length)} ${subjects.length === 1 ? 'applicant' : 'applicants'} screened at ${String(run.threshold)}: ` +
          `${String(kept.new)} new ${kept.new === 1 ? 'hit' : 'hits'}, ${String(kept.back)} back for review, ` +
          `${String(kept.again)} found again, ${String(kept.noMatch)} decided no match`,
      });
    });
    return shown;
  }

  /**
   * After a sync of applications: the applicants new or changed since their last screening,
   * started and not awaited (the sync is done; settled() waits). Nothing is screened while no
   * list is loaded; a run that fails is audited, never thrown at the sync.
   */
  afterSync(profileId: string): void {
    if (this.#lists().current().length === 0) return;
    const run = this.screen(profileId, undefined, 'changed').catch(async (error: unknown) => {
      this.#audit.record({
        profileId,
        profileName: this.#options.profileName?.(profileId) ?? '',
        action: 'screening.run',
        target: profileId,
        result: 'failed',
        detail: error instanceof Error ? error.message : String(error),
      });
      await this.#audit.settled();
    });
    this.#running.add(run);
    void run.finally(() => this.#running.delete(run));
  }

  /** Waits for the runs syncs started. */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
    await this.#audit.settled();
  }

  close(): void {
    this.#database?.close();
    this.#database = null;
    this.#store = null;
  }
}
