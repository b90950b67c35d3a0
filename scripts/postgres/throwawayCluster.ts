/**
 * A throwaway PostgreSQL cluster for tests and for `npm run team-db`: Debian's server binaries,
 * `initdb --no-sync` in a temporary folder, `pg_ctl` on 127.0.0.1 at a free port, TLS only
 * (a throwaway CA and a server certificate for 127.0.0.1 and localhost, made with openssl), so
 * clients connect with verify-full exactly as officers' laptops do against a real server.
 *
 * initdb refuses to run as root: as root the server runs as `nobody` (uid/gid 65534) through
 * `setpriv`, with no user to create. The cluster is stopped by its postmaster's PID (read from
 * postmaster.pid), never by a process name, and its folder is deleted afterwards.
 */
import { execFile as execFileCallback, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFile = promisify(execFileCallback);

const NOBODY = 65534;
export const CLUSTER_ADMIN = 'ledgerdesk_admin';

export interface ClusterInfo {
  host: string;
  port: number;
  /** The cluster administrator (a superuser), with SCRAM. */
  adminUser: string;
  adminPassword: string;
  /** The throwaway CA's certificate (PEM): what an invite pins. */
  caPem: string;
  /** A second CA that did not sign the server's certificate (for refusal tests). */
  otherCaPem: string;
  folder: string;
  postmasterPid: number;
}

export interface RunningCluster extends ClusterInfo {
  stop(): Promise<void>;
}

/** The newest installed server's bin folder (Debian keeps them off PATH). */
export function postgresBinFolder(): string {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root))
    throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql: apt-get install postgresql.');
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(a) - Number(b));
  const newest = versions.at(-1);
  if (newest === undefined) throw new Error('No PostgreSQL version under /usr/lib/postgresql.');
  return join(root, newest, 'bin');
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** The command as the cluster's owner: itself, or `nobody` through setpriv when root. */
function asOwner(command: string, args: string[]): [string, string[]] {
  if (!isRoot()) return [command, args];
  return [
    'setpriv',
    [`--reuid=${String(NOBODY)}`, `--regid=${String(NOBODY)}`, '--clear-groups', '--', command, ...args],
  ];
}

function giveToOwner(path: string): void {
  if (isRoot()) chownSync(path, NOBODY, NOBODY);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

function openssl(args: string[], folder: string): void {
  execFileSync('openssl', args, { cwd: folder, stdio: 'pipe' });
}

/** A CA and a server certificate it signed, for 127.0.0.1 and localhost (EC P-256). */
function makeCertificates(folder: string): { caPem: string; otherCaPem: string } {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    [
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
      '-days',
      '3',
      '-subj',
      '/CN=Ledgerdesk throwaway CA',
    ],
    folder,
  );
  openssl(
    ['req', '-x509', ...ec, '-keyout', 'other-ca.key', '-out', 'other-ca.crt', '-days', '3', '-subj', '/CN=Another CA'],
    folder,
  );
  openssl(['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost'], folder);
  writeFileSync(join(folder, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.crt',
      '-days',
      '3',
      '-extfile',
      'server.ext',
    ],
    folder,
  );
  // The CA keys are not needed once the certificate is made.
  rmSync(join(folder, 'ca.key'));
  rmSync(join(folder, 'other-ca.key'));
  return {
    caPem: readFileSync(join(folder, 'ca.crt'), 'utf8'),
    otherCaPem: readFileSync(join(folder, 'other-ca.crt'), 'utf8'),
  };
}

export async function startThrowawayCluster(): Promise<RunningCluster> {
  const bin = postgresBinFolder();
  const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-pg-'));
  giveToOwner(folder);
  const adminPassword = randomBytes(18).toString('base64url');
  try {
    const passwordFile = join(folder, 'pw');
    writeFileSync(passwordFile, `${adminPassword}\n`, { mode: 0o600 });
    giveToOwner(passwordFile);
    const data = join(folder, 'data');
    const [initdb, initdbArgs] = asOwner(join(bin, 'initdb'), [
      '-D',
      data,
      '-U',
      CLUSTER_ADMIN,
      `--pwfile=${passwordFile}`,
      '--auth-local=scram-sha-256',
      '--auth-host=scram-sha-256',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
      '--no-sync',
    ]);
    await execFile(initdb, initdbArgs);
    rmSync(passwordFile);

    const { caPem, otherCaPem } = makeCertificates(folder);
    for (const file of ['server.key', 'server.crt', 'ca.crt']) {
      const from = join(folder, file);
      const to = join(data, file);
      writeFileSync(to, readFileSync(from), { mode: 0o600 });
      giveToOwner(to);
    }
    rmSync(join(folder, 'server.key'));
    // TLS only on TCP: a plain-text connection has no line to match and is refused.
    const hba = join(data, 'pg_hba.conf');
    writeFileSync(hba, 'local all all scram-sha-256\nhostssl all all 127.0.0.1/32 scram-sha-256\n', { mode: 0o600 });
    giveToOwner(hba);

    const port = await freePort();
    const options = [
      `-p ${String(port)}`,
      `-k ${folder}`,
      '-c listen_addresses=127.0.0.1',
      '-c max_connections=60',
      '-c shared_buffers=32MB',
      '-c ssl=on',
      '-c ssl_cert_file=server.crt',
      '-c ssl_key_file=server.key',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
    ].join(' ');
    const [pgCtl, startArgs] = asOwner(join(bin, 'pg_ctl'), [
      '-D',
      data,
      '-l',
      join(folder, 'server.log'),
      '-w',
      '-t',
      '60',
      '-o',
      options,
      'start',
    ]);
    await execFile(pgCtl, startArgs);
    const postmasterPid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);

    const stop = async (): Promise<void> => {
      try {
        const [command, stopArgs] = asOwner(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']);
        await execFile(command, stopArgs);
      } catch {
        // pg_ctl failed (folder gone?): stop the postmaster by its own PID.
        try {
          process.kill(postmasterPid, 'SIGINT');
        } catch {
          // Already gone.
        }
      }
      // The postmaster may linger a moment after pg_ctl returns: wait (bounded) before deleting.
      for (let tries = 0; tries < 50 && existsSync(`/proc/${String(postmasterPid)}`); tries += 1)
        await new Promise((resolve) => setTimeout(resolve, 100));
      if (!existsSync(`/proc/${String(postmasterPid)}`)) rmSync(folder, { recursive: true, force: true });
    };
    return {
      host: '127.0.0.1',
      port,
      adminUser: CLUSTER_ADMIN,
      adminPassword,
      caPem,
      otherCaPem,
      folder,
      postmasterPid,
      stop,
    };
  } catch (error) {
    const log = join(folder, 'server.log');
    const detail = existsSync(log) ? `\n${readFileSync(log, 'utf8').slice(-2000)}` : '';
    rmSync(folder, { recursive: true, force: true });
    throw new Error(
      `The throwaway PostgreSQL cluster did not start: ${error instanceof Error ? error.message : String(error)}${detail}`,
      {
        cause: error,
      },
    );
  }
}

/** A postgres:// URL for the admin (the password is percent-encoded). */
export function adminUrl(cluster: ClusterInfo, database = 'postgres'): string {
  return `postgres://${cluster.adminUser}:${encodeURIComponent(cluster.adminPassword)}@${cluster.host}:${String(cluster.port)}/${database}`;
}
