/**
 * The document a real sandbox serves passes Redocly CLI's recommended rules (redocly.yaml at
 * the repository root) with no error and no warning, offline: Redocly runs in its own process
 * with a preload that refuses every connection beyond loopback (support/refuseNetwork.ts), and
 * the test fails if it tried one. (Without `telemetry: off` it does: it reports each command
 * to otel.cloud.redocly.com. Its update check is off on its own when stderr is not a terminal;
 * REDOCLY_SUPPRESS_UPDATE_NOTICE says so anyway.)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedDocument } from './bankApiTypes.ts';

const REDOCLY = fileURLToPath(new URL('../../../node_modules/@redocly/cli/bin/cli.js', import.meta.url));
const CONFIG = fileURLToPath(new URL('../../../redocly.yaml', import.meta.url));
const REFUSE_NETWORK = fileURLToPath(new URL('./support/refuseNetwork.ts', import.meta.url));

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

interface LintRun {
  status: number | null;
  report: LintReport;
  stderr: string;
}

let folder: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-redocly-'));
});

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

function lint(file: string, config = CONFIG): Promise<LintRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', REFUSE_NETWORK, REDOCLY, 'lint', file, '--config', config, '--format=json'],
      {
        cwd: folder,
        // HOME in the temporary folder: whatever Redocly keeps between runs stays out of the user's.
        env: { PATH: process.env['PATH'] ?? '', HOME: folder, REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => {
      try {
        resolve({ status, report: JSON.parse(stdout) as LintReport, stderr });
      } catch {
        reject(new Error(`Redocly printed no JSON report (exit ${String(status)}):\n${stdout}\n${stderr}`));
      }
    });
  });
}

function summary(report: LintReport): string {
  return report.problems
    .map(
      (problem) =>
        `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer ?? '?'}`,
    )
    .join('\n');
}

describe("the sandbox's OpenAPI document, by Redocly's recommended rules", () => {
  it('has no error and no warning, and Redocly reaches for no network', async () => {
    const file = join(folder, 'openapi.json');
    writeFileSync(file, JSON.stringify(await servedDocument(), null, 2));
    const run = await lint(file);
    expect(run.stderr).not.toContain('refused network');
    expect(summary(run.report)).toBe('');
    expect(run.report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
    expect(run.status).toBe(0);
  });

  it('would report what the issue found: no operationId, no license, an unused component, a bad example', async () => {
    // The same document, broken the ways the issue describes (and one more), so the clean
    // run above is known to be Redocly judging, not a lint that sees nothing.
    const document = (await servedDocument()) as unknown as {
      info: Record<string, unknown>;
      paths: Record<string, Record<string, Record<string, unknown>>>;
      components: { schemas: Record<string, Record<string, unknown>> };
    };
    delete document.info['license'];
    const listPendingTransactions = document.paths['/account/{account_id}/pending_transaction']?.['get'];
    delete listPendingTransactions?.['operationId'];
    document.components.schemas['Unused'] = { type: 'object', examples: [{}] };
    const documentSchema = document.components.schemas['Document'] as { examples: Record<string, unknown>[] };
    documentSchema.examples = [{ ...documentSchema.examples[0], created_at: 5 }];
    const file = join(folder, 'broken.json');
    writeFileSync(file, JSON.stringify(document));
    const run = await lint(file);
    expect(run.stderr).not.toContain('refused network');
    expect(run.report.problems.map((problem) => problem.ruleId).sort()).toEqual([
      'info-license',
      'no-invalid-schema-examples',
      'no-unused-components',
      'operation-operationId',
    ]);
  });

  it('is what keeps Redocly offline: without telemetry: off it reaches out, and the preload refuses it', async () => {
    const file = join(folder, 'openapi.json');
    writeFileSync(file, JSON.stringify(await servedDocument()));
    const config = join(folder, 'redocly-with-telemetry.yaml');
    writeFileSync(config, 'extends:\n  - recommended\n');
    const run = await lint(file, config);
    expect(run.stderr).toMatch(/refused network: connect [a-z.]*redocly\.com:443/);
    // Refused, the report is the same.
    expect(run.report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });
});
