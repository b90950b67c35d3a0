/**
 * Handlers of the `reviews` domain: dispositions, the drawer's detail, the queue, watch rules,
 * the reviewer's name, and the report saved where the user chooses. The PDF is printed by
 * Chromium in the shell (printToPdf, an injected port), from the same HTML the CLI writes.
 */
import { writeWholeFile } from '../services/files/partialFile.ts';
import type { LedgerServices } from '../services/ledgerServices.ts';
import { reportCsv } from '../services/review/reportCsv.ts';
import { reportHtml, usualPaper } from '../services/review/reportHtml.ts';
import { buildReviewReport } from '../services/review/reviewReport.ts';
import type { Handlers } from './handlerTypes.ts';
import { IpcFailure } from './serviceErrors.ts';

export interface ReviewHandlerServices {
  ledger: LedgerServices | null;
  ledgerProblem: string | null;
  chooseSavePath(defaultName: string): Promise<string | null>;
  /** Prints a self-contained HTML page to PDF with Chromium (the shell); absent outside Electron. */
  printToPdf?: (html: string) => Promise<Uint8Array>;
  now?: () => Date;
}

/** Writes without following a link at `<file>.partial` or at the file (review N6). */
async function saveFile(file: string, content: string | Uint8Array): Promise<void> {
  await writeWholeFile(file, content);
}

/** A time zone Intl knows, or a clear refusal (the window sends its own). */
function knownZone(zone: string): string {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    throw new IpcFailure('invalid_input', `${zone} is not a time zone this machine knows.`, { field: 'timeZone' });
  }
}

export function createReviewHandlers(services: ReviewHandlerServices): Pick<Handlers, 'reviews'> {
  const now = services.now ?? (() => new Date());

  function ledger(): LedgerServices {
    if (services.ledger === null) {
      throw new IpcFailure('not_available', services.ledgerProblem ?? 'The offline cache is not running.');
    }
    return services.ledger;
  }

  return {
    reviews: {
      give: ({ profileId, kind, refs, disposition, note, reason }) => {
        const services_ = ledger();
        services_.profiles.find(profileId);
        return {
          rows: services_.reviews.give({
            profileId,
            kind,
            refs,
            disposition,
            note: note ?? null,
            reason: reason ?? null,
          }),
        };
      },
      detail: ({ profileId, kind, ref }) => ledger().reviews.detail(profileId, kind, ref),
      list: (input) =>
        ledger().reviews.list({
          profileId: input.profileId,
          ...(input.kind === undefined ? {} : { kind: input.kind }),
          ...(input.state === undefined ? {} : { state: input.state }),
          ...(input.fromDate === undefined ? {} : { fromDate: input.fromDate }),
          ...(input.toDate === undefined ? {} : { toDate: input.toDate }),
          limit: input.limit,
          cursor: input.cursor ?? null,
        }),
      counts: ({ profileId, kind }) => ledger().reviews.counts(profileId, kind),
      rules: ({ profileId }) => ({ rows: ledger().reviews.rules.list(profileId) }),
      saveRule: ({ profileId, rule }) => {
        ledger().profiles.find(profileId);
        return ledger().reviews.saveRule(profileId, rule);
      },
      removeRule: ({ profileId, name }) => {
        ledger().reviews.removeRule(profileId, name);
        return { removed: true as const };
      },
      reviewer: () => ledger().reviews.reviewer.get(),
      setReviewer: ({ name }) => ledger().reviews.setReviewer(name),
      saveReport: async ({ profileId, fromDate, toDate, format, paper, timeZone }) => {
        const services_ = ledger();
        const profile = services_.profiles.find(profileId);
        const print = services.printToPdf;
        if (format === 'pdf' && print === undefined) {
          throw new IpcFailure(
            'not_available',
            'Saving as PDF needs the desktop app, or in web mode Chromium or Google Chrome on this machine (LEDGERDESK_CHROMIUM names another); none was found. Save as HTML and print it from your browser instead.',
          );
        }
        const report = await buildReviewReport(services_.cache, services_.reviews, {
          profileId,
          profileName: profile.name,
          ...(fromDate === undefined ? {} : { from: fromDate }),
          ...(toDate === undefined ? {} : { to: toDate }),
          now: now(),
          unmasked: profile.exportUnmasked ?? [],
          ...(timeZone === undefined ? {} : { timeZone: knownZone(timeZone) }),
        });
        const stamp = report.generatedAt.slice(0, 10);
        const path = await services.chooseSavePath(
          `review-report-${profile.name}-${stamp}.${format}`.replace(/[\\/:*?"<>|\s]+/g, '-'),
        );
        if (path === null) return { saved: false, path: null, rows: 0 };
        const html = reportHtml(report, { paper: paper ?? usualPaper() });
        if (format === 'csv') await saveFile(path, reportCsv(report));
        else if (format === 'html') await saveFile(path, html);
        else if (print !== undefined) await saveFile(path, await print(html));
        services_.reviews.recordReport(profileId, report, format);
        return { saved: true, path, rows: report.items.length };
      },
    },
  };
}
