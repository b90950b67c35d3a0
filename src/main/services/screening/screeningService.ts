/**
 * Screening as the officer uses it, from the command line now and from Settings → Screening
 * later (both call these methods): import a list version, see what is loaded, and screen a
 * profile's cached applicants against every loaded list.
 *
 * The lists live in their own file (`screening-lists.db`, docs/decisions/40-screening-list-
 * store-own-file.md), opened on first use so a data folder that never screens has none. An
 * import is audited once, in the cache's audit log, whether it replaced the list, found it
 * unchanged or was refused; a screening run reads only and is not audited.
 *
 * Hits are returned, not kept: making them review items waits for the record store's move
 * (issue 34), which another change is making now.
 */
import { statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { maskDateOfBirth } from '../../../shared/personalData/masking.ts';
import { ListFileError, type ListEntry, type ListSource } from '../../../shared/screening/listEntry.ts';
import { explanationWords } from '../../../shared/screening/explanationWords.ts';
import { listVersionName, shortDigest } from '../../../shared/screening/listNames.ts';
import type { ScoreExplanation, ScreeningSubject } from '../../../shared/screening/scoring.ts';
import { DEFAULT_THRESHOLD } from '../../../shared/screening/screener.ts';
import type { AuditLog } from '../audit/auditLog.ts';
import type { OfflineCache } from '../cache/offlineCache.ts';
import { applicantSubjects } from './applicantSubjects.ts';
import { readList, type ListReadOptions } from './listFiles.ts';
import { openScreeningListFile, ScreeningListStore, type ListVersion } from './screeningListStore.ts';
import { ScreeningPool } from './screeningPool.ts';
import type { ContractAnswer } from '../../../shared/ipc/contractAnswer.ts';

/** A screening that cannot run as asked (no list loaded): one sentence; nothing was changed. */
export class ScreeningProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScreeningProblem';
  }

  /** No list loaded: the window says so and how to load one. */
  get answer(): ContractAnswer {
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
  /** Entries the new version no longer holds: what will tell their open hits they are gone. */
  removed: NamedEntry[];
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
  /** Applicants screened (those with a name). */
  screened: number;
  /** Best score first. */
  hits: ScreeningHit[];
}

interface ScreeningServiceOptions {
  dataFolder: string;
  cache: OfflineCache;
  now: () => Date;
}

/** An entry's uid across lists: two lists may use the same number for different parties. */
const SEPARATOR = '\u0000';

function entryName(entry: ListEntry): string {
  return entry.names.find((name) => name.type === 'primary')?.full ?? entry.names[0]?.full ?? entry.uid;
}

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

/** The applicant's date of birth, where a reason quotes it, as the CLI and screens mask it. */
function maskedExplanation(explanation: ScoreExplanation, subject: ScreeningSubject): ScoreExplanation {
  const born = subject.dateOfBirth ?? null;
  if (born === null || born === '') return explanation;
  return {
    ...explanation,
    adjustments: explanation.adjustments.map((adjustment) => ({
      ...adjustment,
      reason: adjustment.reason.split(born).join(maskDateOfBirth(born)),
    })),
  };
}

export class ScreeningService {
  readonly #options: ScreeningServiceOptions;
  #database: DatabaseSync | null = null;
  #store: ScreeningListStore | null = null;

  constructor(options: ScreeningServiceOptions) {
    this.#options = options;
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
      };
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
          (outcome.previous === null ? '' : `; replaces sha256 ${shortDigest(outcome.previous.digest)}`),
    });
    await this.#audit.settled();
    return outcome;
  }

  /** Screens every named applicant of the profile against every loaded list. */
  async screen(profileId: string, threshold: number = DEFAULT_THRESHOLD): Promise<ScreeningRun> {
    const store = this.#lists();
    const lists = store.current();
    if (lists.length === 0) throw new ScreeningProblem('No sanctions list is loaded.');
    const entries = new Map<string, { source: ListSource; entry: ListEntry }>();
    for (const version of lists) {
      for (const entry of store.entries(version.source))
        entries.set(`${version.source}${SEPARATOR}${entry.uid}`, { source: version.source, entry });
    }
    const subjects = applicantSubjects(this.#options.cache, profileId);
    const pool = await ScreeningPool.start(
      [...entries].map(([key, { entry }]) => ({ ...entry, uid: key })),
      { threshold },
    );
    let results;
    try {
      results = await pool.screen(subjects);
    } finally {
      await pool.close();
    }
    const subjectOf = new Map(subjects.map((subject) => [subject.applicantId, subject.subject]));
    const hits: ScreeningHit[] = [];
    for (const result of results) {
      const subject = subjectOf.get(result.applicantId);
      if (subject === undefined) continue;
      for (const hit of result.hits) {
        const listed = entries.get(hit.entryUid);
        if (listed === undefined) continue;
        const { source, entry } = listed;
        const explanation = maskedExplanation({ ...hit, entryUid: entry.uid }, subject);
        hits.push({
          applicantId: result.applicantId,
          applicantKind: subject.kind,
          applicantName: subject.names[0] ?? '',
          source,
          entry: { uid: entry.uid, name: entryName(entry), kind: entry.kind, programs: entry.programs },
          score: hit.score,
          explanation,
          words: explanationWords(explanation),
        });
      }
    }
    hits.sort((a, b) => b.score - a.score || a.applicantName.localeCompare(b.applicantName));
    return { threshold, lists, screened: subjects.length, hits };
  }

  close(): void {
    this.#database?.close();
    this.#database = null;
    this.#store = null;
  }
}
