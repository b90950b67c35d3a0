/**
 * `npm run bench -- audit`: the tamper-evident audit log at 1,000,000 entries
 * (LEDGERDESK_BENCH_AUDIT_ENTRIES=N for another size).
 *   1. `audit verify` (every MAC computed again from the previous one, read from the cache
 *      file in id order, the end compared with the keychain's anchor), against hashing the
 *      same bytes alone: the same HMAC-SHA256 chain over the entries' canonical bytes already
 *      in memory. The ratio is what reading and encoding the rows costs on top of the hashing.
 *   2. Appending the 1,000,000 entries through the public append API in one transaction (how
 *      the fixture is built), against plain INSERTs of the same rows with no MAC.
 * No figure here is asserted by a test: targets are reported, met or not.
 */
import { randomBytes } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import {
  canonicalEntryBytes,
  CHAIN_GENESIS,
  CHAINED_COLUMNS,
  chainKeyOf,
  entryMac,
  type ChainedFields,
} from '../../src/main/services/audit/auditChain.ts';
import type { NewAuditEntry } from '../../src/main/services/audit/auditLog.ts';
import { OfflineCache } from '../../src/main/services/cache/offlineCache.ts';
import { Credentials } from '../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import type { BenchFigure, Benchmark } from './benchmark.ts';
import { temporaryFolder } from './sandboxChild.ts';

/** LEDGERDESK_BENCH_AUDIT_ENTRIES=N for another size (a quick look). */
const ENTRIES = Number(process.env['LEDGERDESK_BENCH_AUDIT_ENTRIES'] ?? 1_000_000);
const ROUNDS = 5;
const ACTIONS = ['document.create', 'webhook.update', 'review.set', 'card_art.upload', 'webhook.delete'] as const;

/** A varied entry, like a real log's: review actions, writes that failed with a sentence. */
function entryOf(n: number): NewAuditEntry {
  const failed = n % 17 === 0;
  return {
    profileId: `prof_${String(n % 4)}`,
    profileName: ['Operations', 'Compliance EU', 'Sandbox', 'Production US'][n % 4] ?? '',
    action: ACTIONS[n % ACTIONS.length] ?? 'document.create',
    target: `ptx_${n.toString(36).padStart(10, '0')}`,
    result: failed ? 'failed' : 'ok',
    ...(failed ? { detail: 'PATCH /webhook/{id} (409): the webhook was changed by someone else.' } : {}),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function timed(work: () => unknown): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

const benchmark: Benchmark = {
  title: 'audit log (hash chain)',
  async run(): Promise<BenchFigure[]> {
    const temp = temporaryFolder('ledgerdesk-bench-audit-');
    try {
      const cache = await OfflineCache.open({
        folder: temp.folder,
        credentials: new Credentials(new InMemorySecretStore()),
        writer: 'inline',
      });
      const appendSeconds = await timed(() => {
        cache.transaction(() => {
          for (let n = 0; n < ENTRIES; n += 1) cache.audit.record(entryOf(n));
        });
      });
      await cache.audit.settled();

      // The baseline of the append: the same rows, plain INSERTs, one transaction, no MAC.
      const plain = new DatabaseSync(`${temp.folder}/plain.db`);
      plain.exec(
        `PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
         CREATE TABLE audit_log (id INTEGER PRIMARY KEY, profile_id TEXT NOT NULL, profile_name TEXT NOT NULL,
           action TEXT NOT NULL, target TEXT NOT NULL, at TEXT NOT NULL, result TEXT NOT NULL, detail TEXT) STRICT`,
      );
      const insert = plain.prepare(
        'INSERT INTO audit_log (profile_id, profile_name, action, target, at, result, detail) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      const plainSeconds = await timed(() => {
        plain.exec('BEGIN');
        for (let n = 0; n < ENTRIES; n += 1) {
          const entry = entryOf(n);
          const at = new Date().toISOString();
          insert.run(
            entry.profileId,
            entry.profileName,
            entry.action,
            entry.target,
            at,
            entry.result,
            entry.detail ?? null,
          );
        }
        plain.exec('COMMIT');
      });
      plain.close();

      // The baseline's input: the same canonical bytes, encoded once, held in memory.
      const rows = cache.database
        .prepare(`SELECT ${CHAINED_COLUMNS} FROM audit_log ORDER BY id`)
        .all() as unknown as ChainedFields[];
      const encoded = rows.map((row) => canonicalEntryBytes(row));
      rows.length = 0;
      const bytes = encoded.reduce((sum, entry) => sum + entry.length, 0);
      const key = chainKeyOf(randomBytes(32));

      // Rounds alternate (verify, then the baseline), so both meet the same load on a shared machine.
      const verifySeconds: number[] = [];
      const hashSeconds: number[] = [];
      let head: string | null = null;
      for (let round = 0; round < ROUNDS; round += 1) {
        const started = performance.now();
        const verification = await cache.audit.verify();
        verifySeconds.push((performance.now() - started) / 1000);
        if (!verification.ok || verification.entries !== ENTRIES) throw new Error('The benchmark log did not verify.');
        head = verification.head;
        hashSeconds.push(
          await timed(() => {
            let previous: Uint8Array = CHAIN_GENESIS;
            for (const entry of encoded) previous = entryMac(key, previous, entry);
            return previous;
          }),
        );
      }
      await cache.close();

      const verifyRate = ENTRIES / median(verifySeconds);
      const hashRate = ENTRIES / median(hashSeconds);
      const ratio = verifyRate / hashRate;
      process.stdout.write(
        `  (${String(ENTRIES)} entries, ${String(Math.round(bytes / 2 ** 20))} MiB of canonical bytes, head ${String(head)})\n`,
      );
      return [
        {
          name: `audit verify over ${ENTRIES.toLocaleString('en-US')} entries (entries/s, median of ${String(ROUNDS)}; ${median(verifySeconds).toFixed(2)} s)`,
          value: verifyRate,
          unit: 'entries/s',
          baseline: {
            name: `HMAC-SHA256 chain over the same bytes in memory (${median(hashSeconds).toFixed(2)} s)`,
            value: hashRate,
          },
          // Issue 23: verify within 1.2× of hashing the same bytes alone.
          target: '≥ 0.83 of hashing alone (within 1.2×)',
          met: ratio >= 1 / 1.2,
        },
        {
          name: `appending ${ENTRIES.toLocaleString('en-US')} entries through the append API, one transaction (${appendSeconds.toFixed(2)} s)`,
          value: ENTRIES / appendSeconds,
          unit: 'entries/s',
          baseline: {
            name: `plain INSERTs of the same rows, no MAC (${plainSeconds.toFixed(2)} s)`,
            value: ENTRIES / plainSeconds,
          },
        },
      ];
    } finally {
      temp.remove();
    }
  },
};

export default benchmark;
