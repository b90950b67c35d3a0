/**
 * Who acted, as every audit entry records it (issue 23, "who did it"): the running program (the
 * app, with this run's instance id, or the `ledger` command line), the OS user it runs as, and
 * the reviewer the officer signs reviews as (the OS user name unless set in Settings), named by
 * the log's keyed reference (AuditLog.reviewerRef), never by the name: the name is sealed with
 * the review settings. One line, chained with the entry (auditChain.ts), so it cannot be edited
 * afterwards unnoticed (docs/security.md, "Who did it").
 */
import { randomUUID } from 'node:crypto';
import { osUserName } from '../review/reviewer.ts';

/** The app, `ledger`, or `npm run listen` (which registers and removes webhooks with --register). */
export type ActorProgram = 'app' | 'cli' | 'listen';

/** This process's instance: the pid and a random id, so two runs at once are told apart. */
const INSTANCE = `${String(process.pid)}-${randomUUID().slice(0, 8)}`;

/** Control characters would let a name forge another line in an export: they are dropped. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- the actor is one line of plain text
  return text.replace(/[\u0000-\u001f\u007f]/g, ' ').slice(0, 200);
}

/** @param reviewerRef the log's reference for the reviewer (AuditLog.reviewerRef), not the name */
export function actorText(program: ActorProgram, reviewerRef: string): string {
  const where =
    program === 'app'
      ? `app instance ${INSTANCE}`
      : program === 'listen'
        ? `listen command line ${INSTANCE}`
        : `ledger command line ${INSTANCE}`;
  return oneLine(`${where}; OS user ${osUserName()}; reviewer ${reviewerRef}`);
}
