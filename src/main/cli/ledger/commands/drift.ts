/**
 * `ledger drift --profile NAME [--json]`: what the profile's bank left out of its answers and
 * what it sent that the interface does not list, per resource, counted from every answer read
 * (field names only); `ledger drift reset --profile NAME` starts the counts over.
 */
import type { DriftReport } from '../../../services/drift/driftLedger.ts';
import { table } from '../cliOutput.ts';
import type { CommandContext } from '../triggerCommand.ts';

function plural(count: number, one: string, many: string): string {
  return `${String(count)} ${count === 1 ? one : many}`;
}

function driftTable(report: DriftReport): string {
  const rows: string[][] = [];
  for (const resource of report.resources) {
    const read = String(resource.records);
    const malformed = resource.malformed;
    if (resource.missing.length === 0 && resource.unknown.length === 0 && malformed.length === 0) {
      rows.push([resource.resource, read, '', 'as the interface lists it', '']);
      continue;
    }
    for (const field of resource.missing) {
      rows.push([resource.resource, read, field.field, 'left out', String(field.count)]);
    }
    for (const field of resource.unknown) {
      rows.push([resource.resource, read, field.field, 'not in the interface', String(field.count)]);
    }
    for (const field of malformed) {
      rows.push([resource.resource, read, field.field, 'malformed (record kept as received)', String(field.count)]);
    }
  }
  return table(['RESOURCE', 'READ', 'FIELD', 'DRIFT', 'RECORDS'], rows);
}

export async function driftReport(context: CommandContext): Promise<number> {
  const services = await context.open();
  const profile = await context.profile(services, false);
  const report = services.drift.report(profile.id);
  if (context.arguments.json) {
    context.printJson({ profile: profile.name, ...report });
    return 0;
  }
  if (report.resources.length === 0) {
    context.print(`Nothing read from ${profile.name}'s bank yet: sync or browse, then ask again.`);
    return 0;
  }
  const drifting = report.resources.filter(
    (resource) => resource.missing.length + resource.unknown.length + resource.malformed.length > 0,
  );
  context.print(
    `Bank compatibility of ${profile.name}, since ${report.since ?? '?'} (field names and record counts only): ` +
      `${plural(report.resources.length, 'resource', 'resources')} read, ${String(drifting.length)} not as the interface lists ${drifting.length === 1 ? 'it' : 'them'}.`,
  );
  context.print(driftTable(report));
  for (const resource of report.resources) {
    if (resource.droppedNames > 0) {
      context.print(
        `${resource.resource}: ${plural(resource.droppedNames, 'field name', 'field names')} seen longest ago let go to keep these counts bounded.`,
      );
    }
  }
  return 0;
}

export async function driftReset(context: CommandContext): Promise<number> {
  const services = await context.open();
  const profile = await context.profile(services, false);
  services.drift.reset(profile.id);
  if (context.arguments.json) context.printJson({ profile: profile.name, reset: true });
  else context.print(`The drift counts of ${profile.name} start over from now.`);
  return 0;
}
