/**
 * The audit log's "Who" (issue 38): the officer's name and login as an entry's actor line
 * records them, the reviewer's keyed reference turned back into a name only where it is known.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { actorText } from '../../../src/main/services/audit/actor.ts';
import { whoLookup, whoOf } from '../../../src/main/services/audit/auditWho.ts';
import { osUserName } from '../../../src/main/services/review/reviewer.ts';

const reviewerRef = (name: string): string =>
  `#${createHmac('sha256', 'a test key').update(name).digest('hex').slice(0, 12)}`;
const login = osUserName();

describe('whoOf', () => {
  it('names the reviewer with the login, and the command line when it was not the app', () => {
    const lookup = whoLookup(reviewerRef, ['Dana Ortiz', login]);
    expect(whoOf(actorText('app', reviewerRef('Dana Ortiz')), lookup)).toBe(`Dana Ortiz (login ${login})`);
    expect(whoOf(actorText('cli', reviewerRef('Dana Ortiz')), lookup)).toBe(
      `Dana Ortiz (login ${login}, ledger command line)`,
    );
    expect(whoOf(actorText('listen', reviewerRef('Dana Ortiz')), lookup)).toBe(
      `Dana Ortiz (login ${login}, listen command line)`,
    );
  });

  it('says the login once when the officer reviews under it', () => {
    const lookup = whoLookup(reviewerRef, [login]);
    expect(whoOf(actorText('app', reviewerRef(login)), lookup)).toBe(login);
    expect(whoOf(actorText('cli', reviewerRef(login)), lookup)).toBe(`${login} (ledger command line)`);
  });

  it('keeps the reference of a reviewer name this folder no longer holds, so two such officers differ', () => {
    const lookup = whoLookup(reviewerRef, [login]);
    const first = whoOf(actorText('app', reviewerRef('Former Officer')), lookup);
    const second = whoOf(actorText('app', reviewerRef('Another Officer')), lookup);
    expect(first).toBe(`${login} (reviewer ${reviewerRef('Former Officer')})`);
    expect(second).not.toBe(first);
  });

  it('says nothing for an entry written before actors were recorded, and shows any other shape as written', () => {
    const lookup = whoLookup(reviewerRef, [login]);
    expect(whoOf(null, lookup)).toBeNull();
    expect(whoOf(undefined, lookup)).toBeNull();
    expect(whoOf('team sync of demo', lookup)).toBe('team sync of demo');
  });
});
