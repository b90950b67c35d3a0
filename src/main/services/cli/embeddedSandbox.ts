/**
 * The embedded sandbox for the command line: started in this process for the duration of a
 * command that talks to the "Local sandbox" profile, on its data file in the data folder,
 * with a fresh key that lives only in memory for this run.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startSandbox } from '../../../sandbox/index.ts';

export const EMBEDDED_SANDBOX_FILE = 'sandbox.db';

export interface EmbeddedSandbox {
  baseUrl: string;
  keyId: string;
  keySecret: string;
  close(): Promise<void>;
}

export async function startEmbeddedSandbox(dataFolder: string): Promise<EmbeddedSandbox> {
  const keyId = `key_ledger_${randomBytes(6).toString('hex')}`;
  const keySecret = randomBytes(24).toString('base64url');
  const sandbox = await startSandbox({ port: 0, dataFile: join(dataFolder, EMBEDDED_SANDBOX_FILE), keyId, keySecret });
  return { baseUrl: sandbox.baseUrl, keyId, keySecret, close: () => sandbox.close() };
}
