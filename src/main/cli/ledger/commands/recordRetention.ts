/**
 * How long the officer's record is kept (issue 34, item 5):
 *   ledger record retention --profile NAME [--years N]   show or set the retention (default 5 years)
 *   ledger record hold --reason TEXT | --lift             place or lift the legal hold
 *   ledger record purge --profile NAME                    purge reviews past their retention (audited)
 */
import { UsageError } from '../../common/usageError.ts';
import { read } from '../cliArguments.ts';
import type { CommandContext } from '../triggerCommand.ts';

function yearsText(years: number): string {
  return `${String(years)} ${years === 1 ? 'year' : 'years'}`;
}

export async function recordRetention(context: CommandContext): Promise<number> {
  const services = await context.open();
  const profile = await context.profile(services, false);
  const given = read.text(context.arguments.options, 'years');
  if (given !== undefined) {
    const years = Number(given);
    if (!/^\d+$/.test(given)) throw new UsageError(`--years takes a whole number of years, not "${given}".`);
    await services.setRetention(profile.id, years);
  }
  const years = services.retention.years(profile.id);
  const hold = services.retention.hold();
  if (context.arguments.json) {
    context.printJson({ profile: profile.name, years, hold });
    return 0;
  }
  context.print(
    `${profile.name}'s reviews are kept ${yearsText(years)} after the review.` +
      (hold === null ? '' : ` Nothing is purged while the legal hold placed ${hold.placedAt} holds: ${hold.reason}`),
  );
  return 0;
}

export async function recordHold(context: CommandContext): Promise<number> {
  const services = await context.open();
  const { options } = context.arguments;
  const reason = read.text(options, 'reason');
  if (options.lift === true) {
    if (reason !== undefined) throw new UsageError('Give --lift or --reason, not both.');
    const lifted = await services.liftLegalHold();
    context.print(lifted ? 'The legal hold is lifted: purges run again.' : 'There was no legal hold.');
    return 0;
  }
  if (reason === undefined) {
    const hold = services.retention.hold();
    context.print(hold === null ? 'No legal hold.' : `Legal hold placed ${hold.placedAt}: ${hold.reason}`);
    return 0;
  }
  const hold = await services.placeLegalHold(reason);
  context.print(`Legal hold placed ${hold.placedAt}: nothing of the record is purged until it is lifted.`);
  return 0;
}

export async function recordPurge(context: CommandContext): Promise<number> {
  const services = await context.open();
  const profile = await context.profile(services, false);
  const { purged, cutoff, years } = await services.purgeExpired(profile.id);
  if (context.arguments.json) {
    context.printJson({ profile: profile.name, purged, cutoff, years });
    return 0;
  }
  context.print(
    `Purged ${purged.toLocaleString('en-US')} of ${profile.name}'s ${purged === 1 ? 'review' : 'reviews'} given before ${cutoff} (a retention of ${yearsText(years)}); the purge is in the audit log.`,
  );
  return 0;
}
