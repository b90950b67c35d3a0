/**
 * `ledger audit verify --team`: re-reads the server's whole history of the workspace (not the
 * laptop's copy), page by page, and checks every event: the chain, each hash, the history's
 * first event against the one the invite named, every event re-decided from its start by the
 * team's rules (its signer a member the signed history introduced, with the key it introduced;
 * its result, state and version what the rules make, with the policy the signed events put in
 * force), each signature, the mirror's copy of every event it holds, and the anchor in the
 * keychain; then the laptop's queue (team_reviews) against what the verified events make.
 * Answers the first event that fails, named, or the verified head.
 */
import { ChainVerifier } from './chainVerifier.ts';
import { TEAM_GENESIS, type TeamEventRow } from './crypto/teamCanonical.ts';
import { HistoryJudge, MemoryReviews } from './rules/historyJudge.ts';
import { TeamMembership } from './rules/teamMembership.ts';
import type { TeamSession } from './teamSession.ts';
import { TeamProblem } from './teamProblem.ts';
import { eventsAfter } from './teamServerReads.ts';

export interface TeamVerifyReport {
  workspace: string;
  ok: boolean;
  events: number;
  head: { seq: number; hash: string };
  anchor: { seq: number; hash: string } | null;
  /** The first event that does not verify, and why. */
  firstBad: { seq: number | null; reason: string } | null;
}

const PAGE = 5_000;

export async function verifyTeamHistory(session: TeamSession): Promise<TeamVerifyReport> {
  const workspace = session.workspace;
  const anchor = await session.keychain.anchor().catch((error: unknown) => {
    if (error instanceof TeamProblem) return error;
    throw error;
  });
  const report: TeamVerifyReport = {
    workspace,
    ok: false,
    events: 0,
    head: { seq: 0, hash: TEAM_GENESIS.toString('hex') },
    anchor: anchor instanceof TeamProblem ? null : anchor,
    firstBad: null,
  };
  if (anchor instanceof TeamProblem) {
    report.firstBad = { seq: null, reason: anchor.message };
    return report;
  }
  return session.connection.with(async (db) => {
    let legacy;
    try {
      legacy = await session.sync.legacyDirectory(db);
    } catch (error) {
      if (!(error instanceof TeamProblem) || error.kind !== 'tampered') throw error;
      report.firstBad = { seq: null, reason: error.message };
      return report;
    }
    const pins = new Map(
      [...session.mirror.pinnedOfficers(workspace)].map(([login, officer]) => [login, officer.signPublic]),
    );
    const decided = new MemoryReviews();
    const judge = new HistoryJudge({ membership: new TeamMembership(workspace, legacy), reviews: decided, pins });
    const verifier = new ChainVerifier({ seq: 0, hash: TEAM_GENESIS }, judge);
    const mirrorHead = session.mirror.head(workspace);
    const root = session.mirror.rootHash(workspace);
    try {
      const compare = (event: TeamEventRow, hash: Buffer): void => {
        if (event.seq === 1 && root !== null && !hash.equals(root))
          throw new TeamProblem(
            'tampered',
            `The team history of ${workspace} does not start with the event your invite named: the server shows another history.`,
            1,
          );
        const copy = event.seq <= mirrorHead.seq ? session.mirror.event(workspace, event.seq) : null;
        if (event.seq <= mirrorHead.seq && (copy === null || !Buffer.from(copy.hash).equals(hash)))
          throw new TeamProblem(
            'tampered',
            `Event ${String(event.seq)} of ${workspace} on the server differs from the copy this laptop verified.`,
            event.seq,
          );
        if (anchor !== null && event.seq === anchor.seq && hash.toString('hex') !== anchor.hash)
          throw new TeamProblem(
            'tampered',
            `Event ${String(event.seq)} of ${workspace}, this laptop's anchor, changed on the server.`,
            event.seq,
          );
      };
      // As a pull: the next page is on its way while this one is verified.
      let next = eventsAfter(db, workspace, verifier.seq, PAGE);
      for (;;) {
        const page = await next;
        const last = page.at(-1);
        if (last === undefined) break;
        const full = page.length === PAGE;
        if (full) next = eventsAfter(db, workspace, last.seq, PAGE);
        judge.begin();
        try {
          await verifier.acceptPage(page, compare);
        } catch (error) {
          judge.rollback();
          if (full) await next.catch(() => undefined);
          throw error;
        }
        decided.store(judge.commit());
        report.events += page.length;
        if (!full) break;
      }
      if (mirrorHead.seq > verifier.seq)
        throw new TeamProblem(
          'tampered',
          `The server's history of ${workspace} ends at event ${String(verifier.seq)}, but this laptop verified up to ${String(mirrorHead.seq)}: events were deleted.`,
          verifier.seq + 1,
        );
      if (anchor !== null && anchor.seq > verifier.seq)
        throw new TeamProblem(
          'tampered',
          `The server's history of ${workspace} ends at event ${String(verifier.seq)}, before this laptop's anchor (seq ${String(anchor.seq)}): events were deleted.`,
          verifier.seq + 1,
        );
    } catch (error) {
      if (!(error instanceof TeamProblem) || error.kind !== 'tampered') throw error;
      report.firstBad = { seq: error.seq, reason: error.message };
      report.head = { seq: verifier.seq, hash: verifier.hash.toString('hex') };
      return report;
    }
    report.head = { seq: verifier.seq, hash: verifier.hash.toString('hex') };
    // The history verifies; the queue this laptop shows is kept in clear beside it, and must be
    // what those events make (issue 23, item 2).
    const altered = session.mirror.alteredReviews(workspace);
    if (altered.length > 0) {
      report.firstBad = {
        seq: null,
        reason: `This laptop's team queue was changed in the cache file outside Ledgerdesk: the team review of ${altered.slice(0, 5).join(', ')}${altered.length > 5 ? ` and ${String(altered.length - 5)} more` : ''} is not what the verified history makes.`,
      };
      return report;
    }
    report.ok = true;
    return report;
  });
}
