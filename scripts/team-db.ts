/**
 * `npm run team-db`: a throwaway PostgreSQL cluster to try team mode on one machine. Starts
 * Debian's server in a temporary folder on 127.0.0.1 at a free port, TLS only, writes the CA
 * certificate and the admin's password (mode 0600) next to it, prints the admin URL (without
 * the password) and the commands that set up a team of two officers with it, and stops the
 * cluster (by its postmaster's PID) and deletes its folder, with the invites written there, on
 * Ctrl+C.
 *
 * The password is never printed nor put on a command line (every user of the machine can read a
 * process's arguments): `team init` reads it from the file. The printed commands are the ones
 * tests/security/team/teamDbCommands.test.ts runs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startThrowawayCluster } from './postgres/throwawayCluster.ts';

const cluster = await startThrowawayCluster();
const caFile = join(cluster.folder, 'team-ca.crt');
writeFileSync(caFile, cluster.caPem);
const passwordFile = join(cluster.folder, 'admin-password');
writeFileSync(passwordFile, `${cluster.adminPassword}\n`, { mode: 0o600 });
const invites = join(cluster.folder, 'invites');
mkdirSync(invites, { mode: 0o700 });
const url = `postgres://${cluster.adminUser}@${cluster.host}:${String(cluster.port)}/postgres`;
const quote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;
process.stdout.write(
  [
    `A throwaway PostgreSQL ${cluster.host}:${String(cluster.port)} is running (postmaster PID ${String(cluster.postmasterPid)}).`,
    `Admin URL (TLS only): ${url}`,
    `Admin password: in ${passwordFile} (mode 0600; never on a command line)`,
    `Team CA certificate: ${caFile}`,
    '',
    'Try it (alice leads, on her data folder; bob joins on his):',
    `  npm run ledger -- --data ${quote(join(cluster.folder, 'alice'))} team init ${quote(url)} --password-file ${quote(passwordFile)} --ca ${quote(caFile)} --workspace demo --officer alice --officer bob --out ${quote(invites)}`,
    `  npm run ledger -- --data ${quote(join(cluster.folder, 'bob'))} team join ${quote(join(invites, 'bob.invite'))}`,
    '',
    'Ctrl+C stops the cluster and deletes its data, the invites and both data folders.',
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
