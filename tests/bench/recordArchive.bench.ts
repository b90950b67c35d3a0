/**
 * `npm run bench -- recordArchive`: the record archive (issue 34, item 6) of a record of 100,000
 * reviews (LEDGERDESK_BENCH_ARCHIVE_REVIEWS=N for another size), each with one step of history
 * and an audit entry, its body sealed under the record's key as the review service seals it.
 *   1. `record export` against reading the same reviews from the record (every row selected and
 *      its body opened): target within 2×.
 *   2. `audit verify --archive` (every line's chained hash, the signature, the audit chain's
 *      order) against hashing the archive's bytes with SHA-256 alone: target within 1.5×.
 * No figure here is asserted by a test: targets are reported, met or not.
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { OfflineCache } from '../../src/main/services/cache/offlineCache.ts';
import { Credentials } from '../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import type { Profile } from '../../src/main/services/profiles/profile.ts';
import { reviewIdentity, stepIdentity } from '../../src/main/services/review/reviewIdentity.ts';
import { exportRecordArchive } from '../../src/main/services/record/recordArchiveExport.ts';
import { verifyArchiveFile } from '../../src/main/services/record/recordArchiveVerify.ts';
import { RecordStore } from '../../src/main/services/record/recordStore.ts';
import type { BenchFigure, Benchmark } from './benchmark.ts';
import { temporaryFolder } from './sandboxChild.ts';

const REVIEWS = Number(process.env['LEDGERDESK_BENCH_ARCHIVE_REVIEWS'] ?? 100_000);
const ROUNDS = 3;
const PROFILE: Profile = {
  id: 'prof_bench',
  name: 'Compliance EU',
  kind: 'remote',
  baseUrl: 'https://bank.example',
  authScheme: 'basic',
  keyId: 'key_bench',
  production: false,
  createdAt: '2026-12-01T00:00:00.000Z',
  updatedAt: '2026-12-01T00:00:00.000Z',
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function timed<Result>(work: () => Result): Promise<{ seconds: number; result: Awaited<Result> }> {
  const started = performance.now();
  return Promise.resolve(work()).then((result) => ({ seconds: (performance.now() - started) / 1000, result }));
}

const benchmark: Benchmark = {
  title: 'record archive',
  async run(): Promise<BenchFigure[]> {
    const temp = temporaryFolder('ledgerdesk-bench-archive-');
    try {
      const credentials = new Credentials(new InMemorySecretStore());
      const record = await RecordStore.open({ folder: temp.folder, credentials });
      const cache = await OfflineCache.open({ folder: temp.folder, credentials, writer: 'inline', record });
      const sealer = record.sealer;
      const database = record.database;
      const insertReview = database.prepare(
        `INSERT INTO reviews (profile_id, kind, ref, account_id, posted_at, state, rule_name, record_digest, version, updated_at, body)
         VALUES (?, 'pending-transaction', ?, 'acct_1', ?, ?, NULL, ?, 1, ?, ?)`,
      );
      const insertStep = database.prepare(
        `INSERT INTO review_history (profile_id, kind, ref, version, at, state, rule_name, body)
         VALUES (?, 'pending-transaction', ?, 1, ?, ?, NULL, ?)`,
      );
      record.transaction(() => {
        for (let n = 0; n < REVIEWS; n += 1) {
          const ref = `ptx_${n.toString(36).padStart(10, '0')}`;
          const at = new Date(Date.UTC(2026, 10, 1) + n * 1000).toISOString();
          const state = ['cleared', 'flagged', 'escalated'][n % 3] ?? 'cleared';
          const body = {
            disposition: state,
            note: `Checked against the invoice ${String(n)}`,
            reviewer: 'A. Officer',
            reviewedAt: at,
            record: { date: at.slice(0, 10), desc: `Card purchase ${String(n % 500)}`, amount: '12.50', type: 'card' },
            changes: [],
          };
          insertReview.run(
            PROFILE.id,
            ref,
            at,
            state,
            `digest_${String(n)}`,
            at,
            sealer.sealJson(body, reviewIdentity(PROFILE.id, 'pending-transaction', ref)),
          );
          insertStep.run(
            PROFILE.id,
            ref,
            at,
            state,
            sealer.sealJson(
              { note: body.note, reviewer: body.reviewer, changes: [] },
              stepIdentity(PROFILE.id, 'pending-transaction', ref, 1),
            ),
          );
        }
      });
      cache.audit.recordMany(
        Array.from({ length: REVIEWS }, (_, n) => ({
          profileId: PROFILE.id,
          profileName: PROFILE.name,
          action: 'review.cleared',
          target: `pending-transaction/ptx_${n.toString(36).padStart(10, '0')}`,
          result: 'ok' as const,
        })),
      );
      await cache.audit.settled();
      const liveVerify = await cache.audit.verify();

      const readSeconds: number[] = [];
      const exportSeconds: number[] = [];
      const verifySeconds: number[] = [];
      const hashSeconds: number[] = [];
      let size = 0;
      const select = database.prepare('SELECT * FROM reviews ORDER BY id');
      const steps = database.prepare('SELECT * FROM review_history ORDER BY profile_id, kind, ref, version');
      for (let round = 0; round < ROUNDS; round += 1) {
        // The baseline: every review and step read from the record, its body opened.
        readSeconds.push(
          (
            await timed(() => {
              let opened = 0;
              for (const row of select.iterate() as Iterable<Record<string, unknown>>) {
                sealer.openJson(
                  row['body'] as Uint8Array,
                  reviewIdentity(String(row['profile_id']), String(row['kind']), String(row['ref'])),
                );
                opened += 1;
              }
              for (const row of steps.iterate() as Iterable<Record<string, unknown>>) {
                sealer.openJson(
                  row['body'] as Uint8Array,
                  stepIdentity(String(row['profile_id']), String(row['kind']), String(row['ref']), 1),
                );
                opened += 1;
              }
              return opened;
            })
          ).seconds,
        );
        const file = join(temp.folder, `archive-${String(round)}.ledgerarchive`);
        exportSeconds.push(
          (
            await timed(() =>
              exportRecordArchive({
                record,
                credentials,
                profiles: [PROFILE],
                only: null,
                recoveryPublicKey: null,
                passphrase: 'bench passphrase of some length',
                liveVerify,
                file,
              }),
            )
          ).seconds,
        );
        const verified = await timed(() => verifyArchiveFile(file));
        if (!verified.result.verification.ok) throw new Error(verified.result.verification.problem?.message);
        verifySeconds.push(verified.seconds);
        hashSeconds.push(
          (
            await timed(() => {
              const bytes = readFileSync(file);
              size = bytes.length;
              return createHash('sha256').update(bytes).digest('hex');
            })
          ).seconds,
        );
        rmSync(file);
      }
      await cache.close();
      record.close();
      process.stdout.write(`  (${String(REVIEWS)} reviews, an archive of ${String(Math.round(size / 2 ** 20))} MiB)\n`);
      const exportRatio = median(readSeconds) / median(exportSeconds);
      const verifyRatio = median(hashSeconds) / median(verifySeconds);
      return [
        {
          name: `record export of ${REVIEWS.toLocaleString('en-US')} reviews (reviews/s, median of ${String(ROUNDS)}; ${median(exportSeconds).toFixed(2)} s)`,
          value: REVIEWS / median(exportSeconds),
          unit: 'reviews/s',
          baseline: {
            name: `reading them and their steps from the record, bodies opened (${median(readSeconds).toFixed(2)} s)`,
            value: REVIEWS / median(readSeconds),
          },
          target: '≥ 0.5 of reading them (within 2×)',
          met: exportRatio >= 0.5,
        },
        {
          name: `audit verify --archive of it (MiB/s, median of ${String(ROUNDS)}; ${median(verifySeconds).toFixed(2)} s)`,
          value: size / 2 ** 20 / median(verifySeconds),
          unit: 'MiB/s',
          baseline: {
            name: `reading and SHA-256 of its bytes alone (${median(hashSeconds).toFixed(3)} s)`,
            value: size / 2 ** 20 / median(hashSeconds),
          },
          target: '≥ 0.67 of hashing its bytes (within 1.5×)',
          met: verifyRatio >= 1 / 1.5,
        },
      ];
    } finally {
      temp.remove();
    }
  },
};

export default benchmark;
