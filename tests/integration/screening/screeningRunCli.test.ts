/**
 * `ledger screening run` against the real sandbox bank: the application book synced (so the
 * cache holds the seeded people and businesses), a list built in SDN.XML's published form to
 * name one seeded applicant, and the project's own fixture list that names none. The hit is
 * found, names first, with the entry's program, the score and its parts; the applicant's date
 * of birth is masked as everywhere else on the command line; --json carries every part; the
 * fixture list gives "No applicant … matches"; no list loaded, a bad --threshold and an
 * unknown profile are each one clear line.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { LedgerServices } from '../../../src/main/services/ledgerServices.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import type { Profile } from '../../../src/main/services/profiles/profile.ts';
import { applicantSubjects } from '../../../src/main/services/screening/applicantSubjects.ts';
import type { ScreeningHit } from '../../../src/main/services/screening/screeningService.ts';
import { createScreeningHandlers } from '../../../src/main/ipc/screeningHandlers.ts';
import type { LedgerHandlerServices } from '../../../src/main/ipc/ledgerAccess.ts';
import { screeningOperations } from '../../../src/shared/ipc/domains/screening.ts';
import { ledger } from '../services/support/ledgerRun.ts';
import { startBank, type RunningSandbox } from '../services/support/sandboxBank.ts';
import { makeTempFolder } from '../services/support/tempFolder.ts';

const FIXTURES = join(import.meta.dirname, '../../fixtures/screening');
const secrets = new InMemorySecretStore();
let sandbox: RunningSandbox;
let temp: { folder: string; remove: () => void };
let services: LedgerServices;
let profile: Profile;
let data: string[];
/** The seeded person the list is made to name. */
let seeded: { applicantId: string; first: string; last: string; born: string };

beforeAll(async () => {
  sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 5 });
  temp = makeTempFolder('ledgerdesk-screening-run-');
  const folder = join(temp.folder, 'data');
  data = ['--data', folder];
  services = await LedgerServices.open({
    dataFolder: folder,
    secretStore: secrets,
    profileStorage: new FileProfileStorage(folder),
    cacheWriter: 'inline',
  });
  profile = await services.addProfile(
    { name: 'Sandbox', baseUrl: sandbox.baseUrl, authScheme: 'basic', keyId: sandbox.keyId, production: false },
    sandbox.keySecret,
  );
  const outcome = await services.sync.start({ kind: 'applications', profileId: profile.id }).done;
  expect(outcome.state).toBe('done');
  // The sandbox's seeded names, as the cache holds them.
  const person = applicantSubjects(services.cache, profile.id).find((subject) => subject.subject.kind === 'person');
  const record = person === undefined ? null : services.cache.applicants.get(profile.id, person.applicantId)?.record;
  if (person === undefined || record === null || record === undefined) throw new Error('the sandbox seeded no person');
  seeded = {
    applicantId: person.applicantId,
    first: String(record['first_name']),
    last: String(record['last_name']),
    born: String(record['date_of_birth']),
  };
});

afterAll(async () => {
  await services.close();
  await sandbox.close();
  temp.remove();
});

function cli(...argv: string[]) {
  return ledger([...data, ...argv], secrets);
}

/**
 * SDN.XML's form with the seeded person listed under SDGT, born in the seeded year (the list
 * gives the year only, as OFAC often does), beside the fixture's four parties.
 */
function listNamingSeeded(): string {
  const text = readFileSync(join(FIXTURES, 'SDN.XML'), 'utf8');
  const entry = `  <sdnEntry>
    <uid>20001</uid>
    <firstName>${seeded.first}</firstName>
    <lastName>${seeded.last.toUpperCase()}</lastName>
    <sdnType>Individual</sdnType>
    <programList>
      <program>SDGT</program>
    </programList>
    <dateOfBirthList>
      <dateOfBirthItem>
        <uid>9901</uid>
        <dateOfBirth>${seeded.born.slice(0, 4)}</dateOfBirth>
        <mainEntry>true</mainEntry>
      </dateOfBirthItem>
    </dateOfBirthList>
  </sdnEntry>
</sdnList>`;
  const path = join(temp.folder, 'SDN.XML');
  writeFileSync(
    path,
    text
      .replace('</sdnList>', entry)
      .replace('<Record_Count>4</Record_Count>', '<Record_Count>5</Record_Count>')
      .replace('<Publish_Date>03/14/2025</Publish_Date>', '<Publish_Date>04/01/2025</Publish_Date>'),
  );
  return path;
}

describe('ledger screening run', () => {
  it('asks for a list first when none is loaded', async () => {
    const answer = await cli('screening', 'run', '--profile', 'Sandbox');
    expect(answer.code).toBe(1);
    expect(answer.stdout).toBe('');
    expect(answer.stderr).toBe(
      'ledger: No sanctions list is loaded. Import a list first: ledger screening import FILE\n',
    );
  });

  it('finds no one in a list that names none of the applicants', async () => {
    expect((await cli('screening', 'import', join(FIXTURES, 'SDN.XML'))).code).toBe(0);
    const answer = await cli('screening', 'run', '--profile', 'Sandbox');
    expect(answer.stderr).toBe('');
    expect(answer.code).toBe(0);
    const screened = applicantSubjects(services.cache, profile.id).length;
    expect(screened).toBeGreaterThan(1);
    expect(answer.stdout).toBe(
      `No applicant of Sandbox matches the loaded lists at 0.88. Screened ${String(screened)} applicants against OFAC SDN of 2025-03-14.\n`,
    );
  });

  it('finds the seeded applicant in a list naming them: names first, program, score and its parts, masked', async () => {
    expect((await cli('screening', 'import', listNamingSeeded())).code).toBe(0);
    const answer = await cli('screening', 'run', '--profile', 'Sandbox');
    expect(answer.stderr).toBe('');
    expect(answer.code).toBe(0);
    const lines = answer.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^\d+ hits? among \d+ applicants of Sandbox at 0\.88, against OFAC SDN of 2025-04-01 \(personal data masked\):$/,
    );
    const name = `${seeded.first} ${seeded.last}`;
    const listed = `${seeded.last.toUpperCase()}, ${seeded.first}`;
    expect(lines[1]).toMatch(
      new RegExp(`^${name}  ~  ${listed} \\(OFAC SDN 20001; SDGT\\)  score (0\\.9\\d|1\\.00)  · applicant [a-z_0-9]+$`),
    );
    expect(lines[2]).toContain(`"${name.toLowerCase()}" against "${listed}" (primary): `);
    expect(lines[2]).toContain(`${seeded.first.toLowerCase()} ~ ${seeded.first.toLowerCase()} 1.00`);
    expect(answer.stdout).toContain(
      `born •••• ${seeded.born.slice(0, 4)}, the list says ${seeded.born.slice(0, 4)}: +0.02`,
    );
    // The command line never prints an applicant's date of birth in full.
    expect(answer.stdout).not.toContain(seeded.born);
  });

  it('gives every part of the score with --json, at the threshold given', async () => {
    const answer = await cli('--json', 'screening', 'run', '--profile', 'Sandbox', '--threshold', '0.9');
    expect(answer.code).toBe(0);
    const run = JSON.parse(answer.stdout) as {
      threshold: number;
      screened: number;
      masked: boolean;
      hits: ScreeningHit[];
    };
    expect(run).toMatchObject({ threshold: 0.9, masked: true });
    const hit = run.hits.find((candidate) => candidate.applicantId === seeded.applicantId);
    expect(hit).toMatchObject({
      applicantKind: 'person',
      applicantName: `${seeded.first} ${seeded.last}`,
      source: 'ofac-sdn',
      entry: { uid: '20001', kind: 'person', programs: ['SDGT'] },
    });
    expect(hit?.explanation.entryUid).toBe('20001');
    expect(hit?.explanation.name.pairs.map((pair) => pair.listed).sort()).toEqual(
      [seeded.first.toLowerCase(), seeded.last.toLowerCase()].sort(),
    );
    const born = hit?.explanation.adjustments.find((adjustment) => adjustment.factor === 'date-of-birth');
    expect(born).toEqual({
      factor: 'date-of-birth',
      change: 0.02,
      reason: `born •••• ${seeded.born.slice(0, 4)}, the list says ${seeded.born.slice(0, 4)}`,
    });
    expect(answer.stdout).not.toContain(seeded.born);
    // Every hit is of a person named as the seeded one (the sandbox may seed the name twice).
    for (const other of run.hits) expect(other.applicantName).toBe(`${seeded.first} ${seeded.last}`);
  });

  it('answers Settings → Screening the same over the contract: the lists, and the hit with its words', async () => {
    const handlers = createScreeningHandlers({
      ledger: services,
      ledgerProblem: null,
    } as unknown as LedgerHandlerServices);
    const lists = screeningOperations.lists.output.parse(
      await handlers.screening.lists({}, { webContentsId: 1, channel: 'screening.lists' }),
    );
    expect(lists.lists.map((list) => [list.source, list.publishedAt])).toEqual([['ofac-sdn', '2025-04-01']]);
    const run = screeningOperations.run.output.parse(
      await handlers.screening.run({ profileId: profile.id }, { webContentsId: 1, channel: 'screening.run' }),
    );
    const hit = run.hits.find((candidate) => candidate.applicantId === seeded.applicantId);
    expect(hit?.entry.name).toBe(`${seeded.last.toUpperCase()}, ${seeded.first}`);
    expect(hit?.words).toContain(
      `born •••• ${seeded.born.slice(0, 4)}, the list says ${seeded.born.slice(0, 4)}: +0.02`,
    );
    expect(JSON.stringify(run)).not.toContain(seeded.born);
  });

  it('refuses a bad --threshold and an unknown profile in one line', async () => {
    for (const threshold of ['high', '1.5', '-0.1', '', '.']) {
      const answer = await cli('screening', 'run', '--profile', 'Sandbox', '--threshold', threshold);
      expect({ threshold, code: answer.code }).toEqual({ threshold, code: 2 });
      expect(answer.stderr).toMatch(/^ledger: --threshold: must be a number from 0 to 1, such as 0\.88\n$/);
    }
    const unknown = await cli('screening', 'run', '--profile', 'Nobody');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^ledger: .*Nobody.*\n$/);
    expect(unknown.stderr.split('\n')).toHaveLength(2);
  });
});
