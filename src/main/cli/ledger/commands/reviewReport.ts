/**
 * `ledger review report`: the review report of a profile over a date range, as a printable
 * HTML page (and CSV with --csv). The app prints the same page to PDF.
 */
import { resolve } from 'node:path';
import { writeWholeFile } from '../../../services/files/partialFile.ts';
import { reportCsv } from '../../../services/review/reportCsv.ts';
import { reportHtml, usualPaper } from '../../../services/review/reportHtml.ts';
import { buildReviewReport } from '../../../services/review/reviewReport.ts';
import { defined, read } from '../cliArguments.ts';
import { UsageError } from '../../common/usageError.ts';
import type { CommandContext } from '../triggerCommand.ts';

export async function reviewReport(context: CommandContext): Promise<number> {
  const { options } = context.arguments;
  const from = read.date(options, 'from');
  const to = read.date(options, 'to');
  if (from !== undefined && to !== undefined && to <= from)
    throw new UsageError(`--to (${to}) must be after --from (${from}); --to is exclusive.`);
  const html = resolve(String(options.html));
  const csv = typeof options.csv === 'string' ? resolve(options.csv) : null;
  const services = await context.open();
  const profile = await context.profile(services, false);
  const report = await buildReviewReport(services.cache, services.reviews, {
    profileId: profile.id,
    profileName: profile.name,
    ...defined({ from, to }),
    unmasked: profile.exportUnmasked ?? [],
  });
  // Never through a link, at the file or its temporary (review N6).
  await writeWholeFile(html, reportHtml(report, { paper: usualPaper() }));
  if (csv !== null) await writeWholeFile(csv, reportCsv(report));
  services.reviews.recordReport(profile.id, report, csv === null ? 'html' : 'html and csv');
  if (context.arguments.json)
    context.printJson({ html, csv, items: report.items.length, counts: report.counts, chain: report.chain });
  else
    context.print(
      `Wrote the review report of ${profile.name} (${String(report.items.length)} flagged, escalated or changed ${report.items.length === 1 ? 'item' : 'items'}) to ${html}${csv === null ? '' : ` and ${csv}`}.`,
    );
  return 0;
}
