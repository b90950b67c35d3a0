/**
 * Who acted, as a person reads it (issue 38, "the audit log shows who"): the officer's name and
 * login as the entry records them. An entry's actor (actor.ts) holds the OS login in clear and
 * the reviewer only as the log's keyed reference (the name is sealed with the review settings),
 * so the reference is turned back into a name only where this data folder knows the name (the
 * reviewer now, the OS user); an entry signed under a name this folder no longer holds keeps its
 * reference, which still tells two such officers apart.
 */
import { osUserName } from '../review/reviewer.ts';

/** The parts of an actor line (actor.ts): which program, the OS login, the reviewer's reference. */
interface ActorParts {
  program: 'app' | 'ledger' | 'listen';
  login: string;
  reviewerRef: string;
}

const ACTOR = /^(app instance|ledger command line|listen command line) \S+; OS user (.*); reviewer (#[0-9a-f]{12})$/;

function partsOf(actor: string): ActorParts | null {
  const match = ACTOR.exec(actor);
  if (match === null) return null;
  const [, where = '', login = '', reviewerRef = ''] = match;
  const program = where === 'app instance' ? 'app' : where.startsWith('ledger') ? 'ledger' : 'listen';
  return { program, login, reviewerRef };
}

export interface WhoLookup {
  /** The log's keyed reference of a reviewer name (AuditLog.reviewerRef). */
  reviewerRef: (name: string) => string;
  /** Names this data folder knows: the reviewer now, the OS user name. */
  knownNames: readonly string[];
}

/**
 * "Dana Ortiz (login dana)", or "dana" when the reviewer is the login itself, "dana (reviewer
 * #…)" for a name this folder no longer holds, the actor as written when it has another shape,
 * null for an entry written before actors were recorded.
 */
export function whoOf(actor: string | null | undefined, lookup: WhoLookup): string | null {
  if (actor === null || actor === undefined) return null;
  const parts = partsOf(actor);
  if (parts === null) return actor;
  const name = lookup.knownNames.find((known) => lookup.reviewerRef(known) === parts.reviewerRef);
  const via = parts.program === 'app' ? '' : `, ${parts.program} command line`;
  if (name === undefined) return `${parts.login} (reviewer ${parts.reviewerRef}${via})`;
  if (name === parts.login) return via === '' ? parts.login : `${parts.login} (${via.slice(2)})`;
  return `${name} (login ${parts.login}${via})`;
}

/** A lookup for `whoOf` that computes each name's reference once per listing. */
export function whoLookup(reviewerRef: (name: string) => string, knownNames: readonly string[]): WhoLookup {
  const refs = new Map<string, string>();
  return {
    reviewerRef: (name) => {
      let ref = refs.get(name);
      if (ref === undefined) {
        ref = reviewerRef(name);
        refs.set(name, ref);
      }
      return ref;
    },
    knownNames: [...new Set(knownNames)],
  };
}

/** The lookup of a ledger's services: its log's references, its reviewer now and the OS user. */
export function whoLookupOf(ledger: {
  cache: { audit: { reviewerRef: (name: string) => string } };
  reviews: { reviewer: { get: () => { name: string } } };
}): WhoLookup {
  return whoLookup((name) => ledger.cache.audit.reviewerRef(name), [ledger.reviews.reviewer.get().name, osUserName()]);
}
