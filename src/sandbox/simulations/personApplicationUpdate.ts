/**
 * An applicant's details change at the bank (the simulation person_application.update): the
 * record is rewritten with a new updated_at and person_application.update is emitted, the real
 * service's event for it (conventions.md).
 */
import { timestampOf } from '../../shared/bank/index.ts';
import { personApplicationPath } from '../routes/personApplicationRoutes.ts';
import type { SandboxContext } from '../sandboxContext.ts';

export function updatePersonApplication(context: SandboxContext, id: string, change: Record<string, unknown>): void {
  const current = context.records.read('person_application', id);
  if (current === undefined) return;
  const defined = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
  context.records.replace('person_application', id, { ...current, ...defined, updated_at: timestampOf(new Date()) });
  context.events.publish({ event: 'person_application.update', objectId: id, objectPath: personApplicationPath(id) });
}
