/**
 * `ledger cache clear --profile NAME`: drops the profile's cached bank data (it re-syncs), as
 * Settings → Cache does. The officer's reviews, notes, their history and watch rules stay
 * (issue 34); the clearing itself is audited.
 */
import type { CommandContext } from '../triggerCommand.ts';

export async function cacheClear(context: CommandContext): Promise<number> {
  const services = await context.open();
  const profile = await context.profile(services, false);
  await services.clearCachedData(profile.id);
  if (context.arguments.json) {
    context.printJson({ profile: profile.name, cleared: true });
  } else {
    context.print(
      `Cleared ${profile.name}'s cached bank data: the next sync fetches it again. Its reviews, notes and watch rules are kept.`,
    );
  }
  return 0;
}
