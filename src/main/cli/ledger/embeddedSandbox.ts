/**
 * The embedded sandbox for the command line: started in this process for the duration of a
 * command that talks to the "Local sandbox" profile, on its data file in the data folder,
 * with a fresh key that lives only in memory for this run.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startSandbox } from '../../../sandbox/index.ts';
import { EMBEDDED_SANDBOX_FILE } from '../../app/embeddedSandbox.ts';

export interface EmbeddedSandbox {
  baseUrl: string;
  keyId: string;
  keySecret: string;
  /**
   * Waits (bounded: a few seconds) until the notifications owed now are delivered, so a command
   * that caused events does not end the sandbox before it sends them. Null when none is left;
   * otherwise a sentence on what stays owed (retries wait in the data file for the next run).
   */
  deliveriesMade(): Promise<string | null>;
  close(): Promise<void>;
}

const DELIVERY_WAIT_ROUNDS = 200;
const DELIVERY_WAIT_MS = 25;

/**
 * @param lean answer in the real service's lean shapes (the profile's `lean`, or
 *   LEDGERDESK_SANDBOX_LEAN=1 in development)
 */
export async function startEmbeddedSandbox(dataFolder: string, lean = false): Promise<EmbeddedSandbox> {
  const keyId = `key_ledger_${randomBytes(6).toString('hex')}`;
  const keySecret = randomBytes(24).toString('base64url');
  const sandbox = await startSandbox({
    port: 0,
    dataFile: join(dataFolder, EMBEDDED_SANDBOX_FILE),
    keyId,
    keySecret,
    lean,
  });
  return {
    baseUrl: sandbox.baseUrl,
    keyId,
    keySecret,
    async deliveriesMade() {
      for (let round = 0; round < DELIVERY_WAIT_ROUNDS; round += 1) {
        const { owed, inFlight } = sandbox.deliveryBacklog();
        if (owed === 0 && inFlight === 0) return null;
        await new Promise((resolve) => setTimeout(resolve, DELIVERY_WAIT_MS));
      }
      const { owed } = sandbox.deliveryBacklog();
      return `${String(owed)} notification${owed === 1 ? ' is' : 's are'} still owed (a webhook is failing); the sandbox retries ${owed === 1 ? 'it' : 'them'} the next time it runs.`;
    },
    close: () => sandbox.close(),
  };
}
