/**
 * Sanctions screening from the command line (issue 40; docs/screening.md):
 *   ledger screening import FILE [FILE…] [--source …] [--published DATE]   a list version, atomically
 *   ledger screening lists                                                 what is loaded
 *   ledger screening run --profile NAME [--threshold 0.NN]                 the applicants' hits, kept for review
 *   ledger screening threshold --profile NAME [--threshold 0.NN|--default]  the profile's threshold
 *   ledger screening hits --profile NAME                                   the open hits kept for review
 * The work is the ScreeningService's (services/screening/screeningService.ts), which the window
 * calls too; this file only reads the options and says the outcome as a person reads it.
 */
import { listSourceName, listVersionName, shortDigest } from '../../../../shared/screening/listNames.ts';
import { DEFAULT_THRESHOLD } from '../../../../shared/screening/screener.ts';
import {
  ScreeningProblem,
  type KeptCounts,
  type ListImport,
  type ScreeningHit,
} from '../../../services/screening/screeningService.ts';
import { UsageError } from '../../common/usageError.ts';
import { defined, read } from '../cliArguments.ts';
import { table } from '../cliOutput.ts';
import type { CommandContext } from '../triggerCommand.ts';

/** Removed entries named in the import's line, apart by semicolons (OFAC names hold commas); the rest are counted (all are in --json). */
const NAMED_REMOVALS = 10;

function count(value: number, one: string, many: string): string {
  return `${value.toLocaleString('en-US')} ${value === 1 ? one : many}`;
}

function importSentence(outcome: ListImport): string {
  const { version } = outcome;
  const what = `${listVersionName(version)} (sha256 ${shortDigest(version.digest)})`;
  if (outcome.unchanged) return `${what} is the loaded version already: nothing changed.`;
  const entries = count(version.entryCount, 'entry', 'entries');
  if (outcome.previous === null) return `Imported ${what}: ${entries}, the first version of this list.`;
  const removed = outcome.removed.map((entry) => entry.name);
  const named =
    removed.length === 0
      ? ''
      : `: ${removed.slice(0, NAMED_REMOVALS).join('; ')}${removed.length > NAMED_REMOVALS ? `; and ${String(removed.length - NAMED_REMOVALS)} more` : ''}`;
  return (
    `Imported ${what}: ${entries}, ${count(outcome.added.length, 'added', 'added')}, ` +
    `${count(outcome.changed.length, 'changed', 'changed')}, ${count(outcome.removed.length, 'removed', 'removed')}${named}. ` +
    `It replaces ${listVersionName(outcome.previous)}.` +
    (outcome.goneHits === 0
      ? ''
      : ` ${count(outcome.goneHits, 'open hit says', 'open hits say')} its entry is no longer on the list.`)
  );
}

/** What a run kept, in one sentence; empty when it found nothing. */
function keptSentence(kept: KeptCounts): string {
  const parts = [
    kept.new === 0 ? null : `${count(kept.new, 'new hit', 'new hits')} for review`,
    kept.back === 0 ? null : `${count(kept.back, 'reviewed hit', 'reviewed hits')} back (applicant or entry changed)`,
    kept.again === 0 ? null : `${count(kept.again, 'hit', 'hits')} already kept`,
    kept.noMatch === 0 ? null : `${count(kept.noMatch, 'pair', 'pairs')} decided no match, unchanged`,
  ].filter((part) => part !== null);
  return parts.length === 0 ? '' : `Kept in the review queue: ${parts.join('; ')}.`;
}

export async function screeningImport(context: CommandContext): Promise<number> {
  const { options, names } = context.arguments;
  const readOptions = defined({ source: read.listSource(options), publishedAt: read.published(options) });
  const services = await context.open();
  const outcome = await services.screening.importList(names, readOptions);
  if (context.arguments.json) context.printJson(outcome);
  else {
    context.print(importSentence(outcome));
    for (const again of outcome.screenedAgain) {
      const kept = keptSentence(again.kept);
      if (again.screened > 0 && kept !== '')
        context.print(
          `${services.profiles.find(again.profileId).name}: ${count(again.screened, 'applicant', 'applicants')} screened against it. ${kept}`,
        );
    }
  }
  return 0;
}

export async function screeningLists(context: CommandContext): Promise<number> {
  const services = await context.open();
  const lists = services.screening.lists();
  if (context.arguments.json) {
    context.printJson({ lists });
    return 0;
  }
  if (lists.length === 0) {
    context.print('No sanctions list is loaded. Import one: ledger screening import FILE');
    return 0;
  }
  context.print(
    table(
      ['LIST', 'PUBLISHED', 'IMPORTED', 'SHA256', 'ENTRIES'],
      lists.map((list) => [
        listSourceName(list.source),
        list.publishedAt ?? 'unknown',
        list.importedAt.replace(/\.\d+Z$/, 'Z'),
        shortDigest(list.digest),
        list.entryCount.toLocaleString('en-US'),
      ]),
    ),
  );
  return 0;
}

/** 0.88 as given: two decimals, or as many as the officer wrote (0.875). */
function thresholdText(threshold: number): string {
  return Number.isInteger(Math.round(threshold * 1e6) / 1e4) ? threshold.toFixed(2) : String(threshold);
}

function hitBlock(hit: ScreeningHit): string {
  const programs = hit.entry.programs.length === 0 ? 'no program given' : hit.entry.programs.join(', ');
  // The applicant's id last: two applicants may share a name, and the id is what finds the one.
  const head = `${hit.applicantName}  ~  ${hit.entry.name} (${listSourceName(hit.source)} ${hit.entry.uid}; ${programs})  score ${hit.score.toFixed(2)}  · applicant ${hit.applicantId}`;
  return [head, ...hit.words.map((line) => `    ${line}`)].join('\n');
}

export async function screeningRun(context: CommandContext): Promise<number> {
  // Given: this run's only; else the profile's own (its setting, or the default).
  const given = read.threshold(context.arguments.options);
  const services = await context.open();
  const profile = await context.profile(services, false);
  if (services.screening.lists().length === 0)
    throw new ScreeningProblem('No sanctions list is loaded. Import a list first: ledger screening import FILE');
  const run = await services.screening.screen(profile.id, given);
  const threshold = run.threshold;
  const against = run.lists.map((list) => listVersionName(list)).join(', ');
  if (context.arguments.json) {
    context.printJson({ profile: profile.name, source: 'cache', masked: true, ...run });
    return 0;
  }
  if (run.screened === 0) {
    // Not "no match": nothing was screened, and the officer must not read it as a clean result.
    context.print(
      `${profile.name} has no cached applicant to screen: sync the application book first (ledger sync applications --profile "${profile.name}").`,
    );
    return 0;
  }
  if (run.hits.length === 0) {
    context.print(
      `No applicant of ${profile.name} matches the loaded lists at ${thresholdText(threshold)}. Screened ${count(run.screened, 'applicant', 'applicants')} against ${against}.`,
    );
    return 0;
  }
  context.print(
    `${count(run.hits.length, 'hit', 'hits')} among ${count(run.screened, 'applicant', 'applicants')} of ${profile.name} at ${thresholdText(threshold)}, against ${against} (personal data masked):`,
  );
  context.print(run.hits.map(hitBlock).join('\n\n'));
  const kept = keptSentence(run.kept);
  if (kept !== '') context.print(`\n${kept} Disposition them with ledger review set --kind screening-hit --ref REF.`);
  return 0;
}

/** `screening threshold`: the profile's threshold, shown, set (--threshold) or back to the default (--default). */
export async function screeningThreshold(context: CommandContext): Promise<number> {
  const { options } = context.arguments;
  const wanted = read.threshold(options);
  const reset = options.default === true;
  if (wanted !== undefined && reset)
    throw new UsageError('`screening threshold` takes --threshold or --default, not both.');
  if (wanted === 0) throw new UsageError('--threshold: must be above 0 (0 would make every applicant a hit).');
  const services = await context.open();
  const profile = await context.profile(services, false);
  const before = profile.screeningThreshold ?? DEFAULT_THRESHOLD;
  if (wanted === undefined && !reset) {
    if (context.arguments.json)
      context.printJson({
        profile: profile.name,
        threshold: before,
        default: profile.screeningThreshold === undefined,
      });
    else
      context.print(
        `${profile.name} screens at ${thresholdText(before)}${profile.screeningThreshold === undefined ? ' (the default)' : ''}.`,
      );
    return 0;
  }
  const changed = services.setScreeningThreshold(profile.id, reset ? null : (wanted ?? null));
  const after = changed.screeningThreshold ?? DEFAULT_THRESHOLD;
  if (context.arguments.json)
    context.printJson({
      profile: changed.name,
      threshold: after,
      default: changed.screeningThreshold === undefined,
      was: before,
    });
  else
    context.print(
      `${changed.name} screens at ${thresholdText(after)}${changed.screeningThreshold === undefined ? ' (the default)' : ''} from its next run (was ${thresholdText(before)}; written to the audit log).`,
    );
  return 0;
}

/** `screening hits`: the open hits kept for review, applicant first. */
export async function screeningHits(context: CommandContext): Promise<number> {
  const services = await context.open();
  const profile = await context.profile(services, false);
  // Open hits, and those whose entry a newer list version dropped (they say so): never deleted.
  const hits = services.screening.hits.list(profile.id, 'all');
  const reviews = services.reviews.ofRefs(
    profile.id,
    'screening-hit',
    hits.map((hit) => hit.ref),
  );
  if (context.arguments.json) {
    context.printJson({
      profile: profile.name,
      masked: true,
      hits: hits.map((hit) => ({ ref: hit.ref, review: reviews.get(hit.ref)?.state ?? 'unreviewed', ...hit.record })),
    });
    return 0;
  }
  if (hits.length === 0) {
    context.print(`${profile.name} has no screening hit.`);
    return 0;
  }
  context.print(
    table(
      ['APPLICANT', 'LIST ENTRY', 'LIST', 'SCORE', 'STATE', 'REVIEW', 'REF'],
      hits.map((hit) => [
        hit.record.applicant.names[0] ?? '',
        hit.record.entry.name,
        `${listSourceName(hit.source)} ${hit.entryUid}`,
        hit.score.toFixed(2),
        hit.state === 'gone' ? (hit.record.goneNote ?? 'entry no longer on the list') : 'open',
        reviews.get(hit.ref)?.state ?? 'unreviewed',
        hit.ref,
      ]),
    ),
  );
  return 0;
}
