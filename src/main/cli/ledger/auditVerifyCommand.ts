/**
 * `ledger audit verify [--json]`: checks the audit log's hash chain and its end against the
 * keychain. Ok: the number of entries and the chain head, exit 0. Otherwise the first entry
 * that breaks the chain, exit 1. The verdict is the command's answer, so both go to standard
 * output; --json prints the verification as one object (see AuditVerification).
 */
import type { Writable } from 'node:stream';
import type { LedgerServices } from '../../services/ledgerServices.ts';

/** runLedger's EXIT_OK and EXIT_FAILED (not imported: runLedger imports this file). */
const VERIFIED = 0;
const NOT_VERIFIED = 1;

export async function auditVerifyCommand(services: LedgerServices, json: boolean, stdout: Writable): Promise<number> {
  const verification = await services.cache.audit.verify();
  if (json) {
    stdout.write(JSON.stringify(verification) + '\n');
    return verification.ok ? VERIFIED : NOT_VERIFIED;
  }
  const lines: string[] = [];
  if (verification.problem === null) {
    const entries = verification.entries.toLocaleString('en-US');
    lines.push(
      verification.head === null
        ? 'The audit log is empty: nothing to verify.'
        : `The audit log verifies: ${entries} ${verification.entries === 1 ? 'entry' : 'entries'}, chain head ${verification.head}.`,
    );
  } else {
    lines.push(verification.problem.message);
  }
  lines.push(...verification.notes.map((note) => `Note: ${note}`));
  stdout.write(lines.join('\n') + '\n');
  return verification.ok ? VERIFIED : NOT_VERIFIED;
}
