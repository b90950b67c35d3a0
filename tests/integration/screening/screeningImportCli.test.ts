/**
 * `ledger screening import` and `ledger screening lists` on a real data folder (cache, audit
 * log, screening-lists.db) with the fixtures in OFAC's and OpenSanctions' published forms: a
 * first import, the same file again, an update that delists an entry (named in the sentence),
 * the CSV set with its date given, a FollowTheMoney export; a malformed and a partial file are
 * one line naming the file and line, exit 1, and leave the store as it was; every bad input is
 * refused with nothing lost; each import is one audit entry with its source, digest and counts.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { openScreeningListFile, ScreeningListStore } from '../../../src/main/services/screening/screeningListStore.ts';
import { ledger } from '../services/support/ledgerRun.ts';
import { makeTempFolder } from '../services/support/tempFolder.ts';

const FIXTURES = join(import.meta.dirname, '../../fixtures/screening');
const secrets = new InMemorySecretStore();
let temp: { folder: string; remove: () => void };
let dataFolder: string;
let files: string;

beforeAll(() => {
  temp = makeTempFolder('ledgerdesk-screening-cli-');
  dataFolder = join(temp.folder, 'data');
  files = join(temp.folder, 'files');
  mkdirSync(files);
});
afterAll(() => {
  temp.remove();
});

function cli(...argv: string[]) {
  return ledger(['--data', dataFolder, ...argv], secrets);
}

function fixture(name: string): string {
  return join(FIXTURES, name);
}

/** A fixture changed as a test says (written beside the others under the same name). */
function changed(name: string, folder: string, change: (text: string) => string): string {
  mkdirSync(join(files, folder), { recursive: true });
  const path = join(files, folder, name);
  writeFileSync(path, change(readFileSync(fixture(name), 'utf8')));
  return path;
}

/** Everything the store holds now: each list's current version and its entries. */
function storeContent(): unknown {
  const database = openScreeningListFile(dataFolder);
  try {
    const store = new ScreeningListStore(database);
    return store.current().map((version) => ({ version, entries: store.entries(version.source) }));
  } finally {
    database.close();
  }
}

interface AuditRow {
  action: string;
  target: string;
  result: string;
  detail: string | null;
}

async function importEntries(): Promise<AuditRow[]> {
  const answer = await cli('--json', 'audit', '--limit', '100');
  expect(answer.code).toBe(0);
  return (JSON.parse(answer.stdout) as { rows: AuditRow[] }).rows.filter(
    (row) => row.action === 'screening.list-import',
  );
}

/** SDN.XML's next publication: the vessel 10004 delisted. */
function delisted(text: string): string {
  const start = text.indexOf('  <sdnEntry>\n    <uid>10004</uid>');
  const end = text.indexOf('</sdnEntry>', start) + '</sdnEntry>\n'.length;
  return (text.slice(0, start) + text.slice(end))
    .replace('<Publish_Date>03/14/2025</Publish_Date>', '<Publish_Date>04/01/2025</Publish_Date>')
    .replace('<Record_Count>4</Record_Count>', '<Record_Count>3</Record_Count>');
}

describe('ledger screening import and lists', () => {
  it('says when nothing is loaded, then imports SDN.XML with its date and digest', async () => {
    const empty = await cli('screening', 'lists');
    expect(empty).toMatchObject({ code: 0, stderr: '' });
    expect(empty.stdout).toBe('No sanctions list is loaded. Import one: ledger screening import FILE\n');

    const first = await cli('screening', 'import', fixture('SDN.XML'));
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^Imported OFAC SDN of 2025-03-14 \(sha256 [0-9a-f]{12}…\): 4 entries, the first version of this list\.\n$/,
    );
    const lists = await cli('screening', 'lists');
    const lines = lists.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^LIST\s+PUBLISHED\s+IMPORTED\s+SHA256\s+ENTRIES$/);
    expect(lines[1]).toMatch(/^OFAC SDN\s+2025-03-14\s+\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z\s+[0-9a-f]{12}…\s+4$/);
  });

  it('finds the same file unchanged, and names the entry an update removes', async () => {
    const again = await cli('screening', 'import', fixture('SDN.XML'));
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      /^OFAC SDN of 2025-03-14 \(sha256 [0-9a-f]{12}…\) is the loaded version already: nothing changed\.\n$/,
    );

    const update = await cli('screening', 'import', changed('SDN.XML', 'update', delisted));
    expect(update.stderr).toBe('');
    expect(update.stdout).toMatch(
      /^Imported OFAC SDN of 2025-04-01 \(sha256 [0-9a-f]{12}…\): 3 entries, 0 added, 0 changed, 1 removed: OCEAN PEARL\. It replaces OFAC SDN of 2025-03-14\.\n$/,
    );
    const json = await cli('--json', 'screening', 'lists');
    const { lists } = JSON.parse(json.stdout) as {
      lists: { source: string; publishedAt: string; entryCount: number }[];
    };
    expect(lists).toEqual([expect.objectContaining({ source: 'ofac-sdn', publishedAt: '2025-04-01', entryCount: 3 })]);
  });

  it('refuses a malformed file and a partial one in one line naming file and line, changing nothing', async () => {
    const before = storeContent();
    const misspelt = changed('SDN.XML', 'misspelt', (text) =>
      text.replace('<lastName>KARIMOV</lastName>', '<lastName>KARIMOV</lastNme>'),
    );
    const bad = await cli('screening', 'import', misspelt);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(
      /^ledger: SDN\.XML, line 10, column \d+: <\/lastNme> where <\/lastName> was expected\. Nothing was imported\.\n$/,
    );
    const partial = changed('SDN.XML', 'partial', (text) => text.slice(0, text.indexOf('<uid>10003</uid>')));
    const cut = await cli('screening', 'import', partial);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(/^ledger: SDN\.XML, line \d+(, column \d+)?: .+\. Nothing was imported\.\n$/);
    expect(cut.stderr.split('\n')).toHaveLength(2);
    expect(storeContent()).toEqual(before);
  });

  it('reads the CSV set with the date given, an OpenSanctions export, and --source', async () => {
    const csv = await cli(
      'screening',
      'import',
      fixture('alt.csv'),
      fixture('sdn.csv'),
      fixture('add.csv'),
      '--source',
      'consolidated',
      '--published',
      '2025-03-14',
    );
    expect(csv.stderr).toBe('');
    expect(csv.stdout).toMatch(
      /^Imported OFAC Consolidated of 2025-03-14 \(sha256 [0-9a-f]{12}…\): 4 entries, the first version of this list\.\n$/,
    );
    const ftm = await cli('screening', 'import', fixture('entities.ftm.json'));
    expect(ftm.stdout).toMatch(
      /^Imported OpenSanctions of \d{4}-\d{2}-\d{2} \(sha256 [0-9a-f]{12}…\): 2 entries, the first version of this list\.\n$/,
    );
    const lists = await cli('screening', 'lists');
    expect(lists.stdout).toMatch(/OFAC Consolidated\s+2025-03-14 .* 4\n/);
    expect(lists.stdout).toMatch(/OpenSanctions\s+\d{4}-\d{2}-\d{2} .* 2\n/);
  });

  it('refuses every bad input in one line, with nothing lost', async () => {
    const before = storeContent();
    const cases: [string[], number, RegExp][] = [
      [
        [join(files, 'nowhere.xml')],
        1,
        /^ledger: nowhere\.xml: there is no such file \(.+\)\. Nothing was imported\.\n$/,
      ],
      [[files], 1, /^ledger: files: a folder, not a list file\. Nothing was imported\.\n$/],
      [
        [fixture('SDN.XML'), '--source', 'ofac'],
        2,
        /^ledger: --source: must be one of sdn, consolidated, opensanctions\n$/,
      ],
      [[fixture('sdn.csv'), '--published', '14/03/2025'], 2, /^ledger: --published: /],
      [
        [fixture('sdn.csv'), fixture('add.csv')],
        1,
        /^ledger: sdn\.csv, add\.csv: a CSV set is three files.*Nothing was imported\.\n$/,
      ],
      [
        [fixture('README.md')],
        1,
        /^ledger: README\.md, line 1: not a list Ledgerdesk reads .*Nothing was imported\.\n$/,
      ],
      [[], 2, /^ledger: `screening import` needs at least one FILE\.\n$/],
    ];
    for (const [words, code, message] of cases) {
      const answer = await cli('screening', 'import', ...words);
      expect({ words, code: answer.code }).toEqual({ words, code });
      expect(answer.stderr).toMatch(message);
      expect(answer.stdout).toBe('');
    }
    expect(storeContent()).toEqual(before);
  });

  it('says a profile with no cached applicant has none to screen, not that none matches', async () => {
    const answer = await cli('screening', 'run', '--profile', 'Local sandbox');
    expect(answer).toMatchObject({ code: 0, stderr: '' });
    expect(answer.stdout).toBe(
      'Local sandbox has no cached applicant to screen: sync the application book first (ledger sync applications --profile "Local sandbox").\n',
    );
  });

  it('audits each import once: its list, digest and counts, or why it failed', async () => {
    const entries = (await importEntries()).reverse();
    const ok = entries.filter((entry) => entry.result === 'ok');
    expect(ok.map((entry) => entry.target)).toEqual([
      'ofac-sdn',
      'ofac-sdn',
      'ofac-sdn',
      'ofac-consolidated',
      'opensanctions',
    ]);
    expect(ok[0]?.detail).toMatch(
      /^OFAC SDN of 2025-03-14, sha256 [0-9a-f]{64}: 4 entries, 4 added, 0 changed, 0 removed$/,
    );
    expect(ok[1]?.detail).toMatch(/: already loaded, nothing changed$/);
    expect(ok[2]?.detail).toMatch(
      /^OFAC SDN of 2025-04-01, sha256 [0-9a-f]{64}: 3 entries, 0 added, 0 changed, 1 removed; replaces sha256 [0-9a-f]{12}…$/,
    );
    // The malformed, the partial, the unknown, the folder, the half set, the README: the usage
    // mistakes (exit 2) never reached the service.
    const failed = entries.filter((entry) => entry.result === 'failed');
    expect(failed).toHaveLength(6);
    expect(failed[0]?.detail).toContain('SDN.XML, line 10');
  });
});
