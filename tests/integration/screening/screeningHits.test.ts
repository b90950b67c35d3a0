/**
 * Screening hits kept as review items (issue 40, item 2), end to end on real files: the real
 * sandbox bank behind a forwarding proxy (which can change an applicant as the bank would), a
 * real data folder with its record.sqlite and keychain key, and lists in SDN.XML's published form
 * (the project's fixture, and the same file naming one seeded person). In order:
 * - a list imported, then a sync of the application book: the seeded person's hit is kept as a
 *   review item of kind screening-hit (in the queue, masked, sealed in record.sqlite);
 * - cleared with the reason no-match: a run on demand makes no new hit of the pair;
 * - the applicant changed at the bank, then a sync: re-screened, the hit is back (`changed`);
 * - a list update without the entry: its hits say so, and are kept;
 * - a malformed threshold or reason is refused in one line and changes nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { LedgerServices } from '../../../src/main/services/ledgerServices.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import type { Profile } from '../../../src/main/services/profiles/profile.ts';
import { ReviewQueue } from '../../../src/main/services/review/reviewQueue.ts';
import type { HitRecord } from '../../../src/shared/screening/screeningHit.ts';
import { ledger } from '../services/support/ledgerRun.ts';
import { basicOf, startBank, type RunningSandbox } from '../services/support/sandboxBank.ts';
import { startTamperingProxy, type TamperingProxy } from '../services/support/tamperingProxy.ts';
import { makeTempFolder } from '../services/support/tempFolder.ts';

const FIXTURES = join(import.meta.dirname, '../../fixtures/screening');
const secrets = new InMemorySecretStore();
let sandbox: RunningSandbox;
let proxy: TamperingProxy;
let temp: { folder: string; remove: () => void };
let folder: string;
let services: LedgerServices;
let profile: Profile;
/** The seeded person the list is made to name, as the bank lists them. */
let seeded: { id: string; first: string; last: string; born: string };
let listPath: string;

function cli(...argv: string[]) {
  return ledger(['--data', folder, ...argv], secrets);
}

async function syncBook(): Promise<void> {
  const outcome = await services.sync.start({ kind: 'applications', profileId: profile.id }).done;
  expect(outcome.state).toBe('done');
  await services.screening.settled();
}

function seededHits() {
  return services.screening.hits.list(profile.id, 'all').filter((hit) => hit.applicantId === seeded.id);
}

/** SDN.XML's form with the seeded person listed under SDGT (born in the seeded year), beside the fixture's four. */
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

beforeAll(async () => {
  sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 2 });
  proxy = await startTamperingProxy(sandbox.baseUrl);
  temp = makeTempFolder('ledgerdesk-screening-hits-');
  folder = join(temp.folder, 'data');
  // The seeded person, read from the bank itself: the cache holds no one before the first sync.
  const answer = await fetch(`${sandbox.baseUrl}/apply/person_application?page_size=1`, {
    headers: { authorization: basicOf(sandbox) },
  });
  const answered = (await answer.json()) as { data?: Record<string, string>[] };
  if (!answer.ok) throw new Error(`the bank answered ${String(answer.status)}: ${JSON.stringify(answered)}`);
  const [person] = answered.data ?? [];
  if (person === undefined) throw new Error('the sandbox seeded no person');
  seeded = {
    id: String(person['id']),
    first: String(person['first_name']),
    last: String(person['last_name']),
    born: String(person['date_of_birth']),
  };
  services = await LedgerServices.open({
    dataFolder: folder,
    secretStore: secrets,
    profileStorage: new FileProfileStorage(folder),
    cacheWriter: 'inline',
  });
  profile = await services.addProfile(
    { name: 'Sandbox', baseUrl: proxy.baseUrl, authScheme: 'basic', keyId: sandbox.keyId, production: false },
    sandbox.keySecret,
  );
  listPath = listNamingSeeded();
});

afterAll(async () => {
  await services.close();
  await proxy.close();
  await sandbox.close();
  temp.remove();
});

describe('screening hits as review items', () => {
  it('keeps the hit a sync of the book finds after a list import, as a review item in the queue, masked and sealed', async () => {
    const imported = await cli('screening', 'import', listPath);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(seededHits()).toEqual([]);

    await syncBook();
    const hits = seededHits();
    expect(hits.map((hit) => [hit.source, hit.entryUid, hit.state])).toEqual([['ofac-sdn', '20001', 'open']]);
    const [hit] = hits;
    if (hit === undefined) throw new Error('no hit kept');
    expect(hit.record.applicant).toMatchObject({
      id: seeded.id,
      kind: 'person',
      names: [`${seeded.first} ${seeded.last}`],
      dateOfBirth: `•••• ${seeded.born.slice(0, 4)}`,
    });
    expect(hit.record.entry).toMatchObject({
      uid: '20001',
      name: `${seeded.last.toUpperCase()}, ${seeded.first}`,
      programs: ['SDGT'],
    });
    expect(hit.record.words.join('\n')).toContain(`born •••• ${seeded.born.slice(0, 4)}`);

    // In the review queue as an unreviewed item of its own kind, the record masked.
    const queue = new ReviewQueue(services.cache, services.reviews);
    expect(queue.counts({ profileId: profile.id, kind: 'screening-hit' }).kinds['screening-hit'].unreviewed).toBe(
      services.screening.hits.list(profile.id, 'all').length,
    );
    const page = queue.list({ profileId: profile.id, kind: 'screening-hit', state: 'unreviewed' });
    const item = page.rows.find((row) => row.ref === hit.ref);
    expect(item?.kind).toBe('screening-hit');
    expect((item?.record as HitRecord).entry.uid).toBe('20001');
    expect(JSON.stringify(page.rows)).not.toContain(seeded.born);

    // `screening hits`: the applicant's name first, the entry, the list, the score, the ref last.
    const listed = await cli('screening', 'hits', '--profile', 'Sandbox');
    expect(listed.code).toBe(0);
    const line = listed.stdout.split('\n').find((text) => text.endsWith(hit.ref));
    expect(line).toMatch(
      new RegExp(
        `^${seeded.first} ${seeded.last} +${seeded.last.toUpperCase()}, ${seeded.first} +OFAC SDN 20001 +(0\\.9\\d|1\\.00) +open +unreviewed +`,
      ),
    );

    // Sealed in the officer's record: the applicant's name is nowhere in clear in record.sqlite.
    await services.cache.audit.settled();
    services.cache.database.exec('PRAGMA record.wal_checkpoint(TRUNCATE)');
    const file = readFileSync(join(folder, 'record.sqlite'));
    expect(file.includes(Buffer.from(`${seeded.first} ${seeded.last}`))).toBe(false);
    expect(file.includes(Buffer.from(hit.ref))).toBe(true);
  });

  it('clears a hit with the reason no-match through review set, and a run on demand makes no new hit of the pair', async () => {
    const refs = seededHits().map((hit) => hit.ref);
    const cleared = await cli(
      'review',
      'set',
      '--profile',
      'Sandbox',
      '--kind',
      'screening-hit',
      ...refs.flatMap((ref) => ['--ref', ref]),
      '--disposition',
      'cleared',
      '--reason',
      'no-match',
      '--note',
      'different person: other middle name',
    );
    expect(cleared.stderr).toBe('');
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toMatch(
      /^Cleared 1 screening-hit item of Sandbox as .+: no match\. The pair is not a hit again until the applicant or the list entry changes\.\n$/,
    );
    const audit = services.cache.audit.list({ profileId: profile.id, action: 'review.cleared' }).rows;
    expect(audit.find((entry) => entry.target === `screening-hit:${refs[0] ?? ''}`)?.detail).toBe(
      'version 1, reason no-match, with a note',
    );

    const run = await cli('--json', 'screening', 'run', '--profile', 'Sandbox');
    expect(run.code).toBe(0);
    const answer = JSON.parse(run.stdout) as {
      hits: { applicantId: string }[];
      kept: { new: number; noMatch: number };
    };
    expect(answer.hits.filter((hit) => hit.applicantId === seeded.id)).toEqual([]);
    expect(answer.kept).toMatchObject({ new: 0, noMatch: 1 });
    expect(services.reviews.ofRefs(profile.id, 'screening-hit', refs).get(refs[0] ?? '')?.state).toBe('cleared');
    // A sync with nothing changed screens no one again.
    await syncBook();
    expect(services.reviews.ofRefs(profile.id, 'screening-hit', refs).get(refs[0] ?? '')?.state).toBe('cleared');
  });

  it('re-screens an applicant the bank changed, and the cleared hit comes back to the queue as changed', async () => {
    const [ref] = seededHits().map((hit) => hit.ref);
    // The bank now lists the person with another date of birth in the same year (still a hit).
    const changedBorn = `${seeded.born.slice(0, 4)}-${seeded.born.slice(5, 7) === '01' ? '02' : '01'}-15`;
    proxy.spoil((forwarded) => {
      if (!forwarded.path.startsWith('/apply/person_application')) return null;
      const body = JSON.parse(forwarded.answer) as { data?: Record<string, unknown>[] } & Record<string, unknown>;
      if (Array.isArray(body.data)) {
        body.data = body.data.map((entry) =>
          entry['id'] === seeded.id ? { ...entry, date_of_birth: changedBorn } : entry,
        );
        return { body: JSON.stringify(body) };
      }
      return body['id'] === seeded.id ? { body: JSON.stringify({ ...body, date_of_birth: changedBorn }) } : null;
    });
    try {
      await syncBook();
    } finally {
      proxy.spoil(null);
    }
    const review = services.reviews.ofRefs(profile.id, 'screening-hit', [ref ?? '']).get(ref ?? '');
    expect(review?.state).toBe('changed');
    const queue = new ReviewQueue(services.cache, services.reviews);
    expect(queue.counts({ profileId: profile.id, kind: 'screening-hit' }).kinds['screening-hit'].changed).toBe(1);
    const changed = services.cache.audit.list({ profileId: profile.id, action: 'review.changed' }).rows;
    expect(changed.map((entry) => entry.target)).toContain(`screening-hit:${ref ?? ''}`);
    // The no-match decision was on the old record: it no longer holds.
    expect(services.screening.hits.noMatches(profile.id).has(ref ?? '')).toBe(false);
  });

  it('marks the hits of an entry a newer list version drops as gone, saying so, and keeps them', async () => {
    const [before] = seededHits();
    const imported = await cli('screening', 'import', join(FIXTURES, 'SDN.XML'));
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('1 open hit says its entry is no longer on the list.');
    const [after] = seededHits();
    expect(after?.ref).toBe(before?.ref);
    expect(after?.state).toBe('gone');
    expect(after?.record.goneNote).toBe('entry no longer on OFAC SDN (2025-03-14)');
    // The drawer's record says so too, and the review is kept.
    const detail = services.reviews.detail(profile.id, 'screening-hit', after?.ref ?? '');
    expect((detail.cachedRecord as HitRecord).goneNote).toBe('entry no longer on OFAC SDN (2025-03-14)');
    expect(detail.review?.state).toBe('changed');
    const listed = await cli('screening', 'hits', '--profile', 'Sandbox');
    expect(listed.stdout).toContain('entry no longer on OFAC SDN (2025-03-14)');
  });

  it('refuses a malformed threshold or reason in one line and changes nothing; a good threshold is the profile’s, audited', async () => {
    for (const threshold of ['high', '1.5', '-0.1', '', '0']) {
      const answer = await cli('screening', 'threshold', '--profile', 'Sandbox', '--threshold', threshold);
      expect({ threshold, code: answer.code }).toEqual({ threshold, code: 2 });
      expect(answer.stderr.split('\n')).toHaveLength(2);
      expect(answer.stderr).toMatch(/^ledger: --threshold: must be /);
    }
    expect(services.profiles.find(profile.id).screeningThreshold).toBeUndefined();
    const both = await cli('screening', 'threshold', '--profile', 'Sandbox', '--threshold', '0.9', '--default');
    expect(both.code).toBe(2);

    const set = await cli('screening', 'threshold', '--profile', 'Sandbox', '--threshold', '0.93');
    expect(set.stderr).toBe('');
    expect(set.stdout).toBe('Sandbox screens at 0.93 from its next run (was 0.88; written to the audit log).\n');
    expect(services.profiles.find(profile.id).screeningThreshold).toBe(0.93);
    const entry = services.cache.audit.list({ profileId: profile.id, action: 'profile.screening-threshold' }).rows[0];
    expect(entry?.detail).toBe('screening threshold 0.93 (was: 0.88)');
    const run = JSON.parse((await cli('--json', 'screening', 'run', '--profile', 'Sandbox')).stdout) as {
      threshold: number;
    };
    expect(run.threshold).toBe(0.93);
    const reset = await cli('screening', 'threshold', '--profile', 'Sandbox', '--default');
    expect(reset.stdout).toBe(
      'Sandbox screens at 0.88 (the default) from its next run (was 0.93; written to the audit log).\n',
    );

    const badReason = await cli(
      'review',
      'set',
      '--profile',
      'Sandbox',
      '--kind',
      'screening-hit',
      '--ref',
      'x',
      '--disposition',
      'cleared',
      '--reason',
      'maybe',
    );
    expect(badReason.code).toBe(2);
    expect(badReason.stderr).toBe('ledger: --reason: must be no-match (for a screening hit)\n');
    const wrongKind = await cli(
      'review',
      'set',
      '--profile',
      'Sandbox',
      '--kind',
      'application',
      '--ref',
      'x',
      '--disposition',
      'cleared',
      '--reason',
      'no-match',
    );
    expect(wrongKind.code).toBe(1);
    expect(wrongKind.stderr).toMatch(/^ledger: "no-match" is a reason for clearing a screening hit only/);
  });
});
