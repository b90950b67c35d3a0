/**
 * `ledger review set`: one disposition (and note) on one or more items of the offline cache,
 * signed with the reviewer's name and recorded in the audit log. All or nothing: when a ref
 * is not cached, nothing is reviewed.
 */
import { read } from '../cliArguments.ts';
import { UsageError } from '../../common/usageError.ts';
import type { CommandContext } from '../triggerCommand.ts';

export async function reviewSet(context: CommandContext): Promise<number> {
  const { options } = context.arguments;
  const kind = read.reviewKind(options);
  const disposition = read.disposition(options);
  const refs = read.refs(options);
  const note = typeof options.note === 'string' ? options.note : undefined;
  const reason = read.reviewReason(options);
  if (kind === undefined || disposition === undefined || refs.length === 0)
    throw new UsageError('`review set` needs --kind, --disposition and at least one --ref.');
  const services = await context.open();
  const profile = await context.profile(services, false);
  const given = services.reviews.give({
    profileId: profile.id,
    kind,
    refs,
    disposition,
    note: note ?? null,
    reason: reason ?? null,
  });
  if (context.arguments.json) context.printJson({ rows: given });
  else
    context.print(
      `${disposition.charAt(0).toUpperCase()}${disposition.slice(1)} ${String(given.length)} ${kind} ${given.length === 1 ? 'item' : 'items'} of ${profile.name} as ${given[0]?.reviewer ?? ''}` +
        (reason === 'no-match'
          ? ': no match. The pair is not a hit again until the applicant or the list entry changes.'
          : '.'),
    );
  return 0;
}
