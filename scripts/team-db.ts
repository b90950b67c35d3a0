/**
 * `npm run team-db`: a throwaway PostgreSQL cluster to try team mode on one machine. Starts
 * Debian's server in a temporary folder on 127.0.0.1 at a free port, TLS only, writes the CA
 * certificate next to it, prints the admin URL and the `ledger team init` command, and stops
 * the cluster (by its postmaster's PID) and deletes its folder on Ctrl+C.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminUrl, startThrowawayCluster } from './postgres/throwawayCluster.ts';

const cluster = await startThrowawayCluster();
const caFile = join(cluster.folder, 'team-ca.crt');
writeFileSync(caFile, cluster.caPem);
const url = adminUrl(cluster);
process.stdout.write(
  [
    `A throwaway PostgreSQL ${cluster.host}:${String(cluster.port)} is running (postmaster PID ${String(cluster.postmasterPid)}).`,
    `Admin URL (TLS only; keep it to yourself): ${url}`,
    `Team CA certificate: ${caFile}`,
    '',
    'Try it:',
    `  npm run ledger -- team init '${url}' --ca ${caFile} --workspace demo --officer alice --officer bob --out .`,
    '  npm run ledger -- --data-folder /tmp/alice team join alice.invite',
    '',
    'Ctrl+C stops the cluster and deletes its data.',
    '',
  ].join('\n'),
);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await cluster.stop();
  process.stdout.write('The throwaway cluster is stopped and its folder deleted.\n');
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
setInterval(() => undefined, 1 << 30);
