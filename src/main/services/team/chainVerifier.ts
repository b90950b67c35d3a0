/**
 * Verifies a workspace's history event by event, as the laptop receives it: each event follows
 * the one before (seq + 1, and names its hash), its content matches its own hash, the caller's
 * `admit` accepts it (the history judge, rules/historyJudge.ts: its signer is a member the signed
 * history introduced, and the server decided it as the team's rules do) and answers the key its
 * intent's Ed25519 signature must verify with. The first event that fails is named, with why.
 * The caller also checks the anchor (what the laptop verified before), which is what catches a
 * history rewritten and re-chained by someone with the power to disable the server's triggers.
 *
 * A page is verified in two parts that run at once: the chain (each link and hash, sequential
 * by nature, cheap: one SHA-256) on the calling thread, and the Ed25519 signatures (independent
 * of each other, the bulk of the work) on libuv's thread pool through `crypto.verify`'s
 * callback form, so a long history uses every core. The verifier moves forward only when the
 * whole page verified, and names the first bad event in seq order whichever part found it.
 */
import { verify, type KeyObject } from 'node:crypto';
import { chainHash, intentBytes, type TeamEventRow } from './crypto/teamCanonical.ts';
import { publicKeyOfRaw, verifyIntent } from './crypto/officerKeys.ts';
import { TeamProblem } from './teamProblem.ts';

/**
 * What the caller checks of each event, the ones before it accepted: `signer` answers the key its
 * signature must verify with (a KeyObject made once per key: importing a raw key for every event
 * cost more than the verify itself), `judge` accepts what it did; each throws a 'tampered'
 * TeamProblem naming the event. An event `judge` refuses is still signature-checked, so a forged
 * one is named as forged rather than as wrongly decided.
 */
export interface Admit {
  signer(event: TeamEventRow): KeyObject;
  judge(event: TeamEventRow): void;
}

/**
 * Admits any event of a fixed set of signers, with no rules: for checking the chain and the
 * signatures alone (unit tests, the verification benchmark). A laptop admits with its judge.
 */
export function fixedSigners(keys: ReadonlyMap<string, Uint8Array>): Admit {
  const objects = new Map([...keys].map(([officer, raw]) => [officer, publicKeyOfRaw(raw, 'Ed25519')]));
  return {
    signer: (event) => {
      const key = objects.get(event.officer);
      if (key === undefined) throw forged(event);
      return key;
    },
    judge: () => undefined,
  };
}

export class ChainVerifier {
  #seq: number;
  #hash: Buffer;
  readonly #admit: Admit;

  constructor(from: { seq: number; hash: Uint8Array }, admit: Admit) {
    this.#seq = from.seq;
    this.#hash = Buffer.from(from.hash);
    this.#admit = admit;
  }

  get seq(): number {
    return this.#seq;
  }

  get hash(): Buffer {
    return this.#hash;
  }

  /** Throws a 'tampered' TeamProblem naming the event when it does not verify. */
  accept(event: TeamEventRow): void {
    const hash = this.#link(this.#seq, this.#hash, event);
    const key = this.#admit.signer(event);
    if (!verifyIntent(key, intentBytes(event), event.signature)) throw forged(event);
    this.#admit.judge(event);
    this.#seq = event.seq;
    this.#hash = hash;
  }

  /**
   * Verifies a page of consecutive events, signatures on the thread pool; `check` (the caller's
   * own test of an event and its verified hash, e.g. against the anchor) runs in the chain pass
   * and may throw. Rejects with the first bad event in seq order; moves on only if all verify.
   */
  async acceptPage(
    events: readonly TeamEventRow[],
    check?: (event: TeamEventRow, hash: Buffer) => void,
  ): Promise<void> {
    let seq = this.#seq;
    let hash = this.#hash;
    let chainProblem: { index: number; error: unknown } | null = null;
    const signatures: Promise<boolean>[] = [];
    for (const [index, event] of events.entries()) {
      let key: KeyObject;
      try {
        hash = this.#link(seq, hash, event);
        check?.(event, hash);
        key = this.#admit.signer(event);
      } catch (error) {
        chainProblem = { index, error };
        break;
      }
      signatures.push(verifyOnPool(event, key));
      try {
        this.#admit.judge(event);
      } catch (error) {
        chainProblem = { index, error };
        break;
      }
      seq = event.seq;
    }
    const valid = await Promise.all(signatures);
    const firstForged = valid.indexOf(false);
    if (firstForged !== -1) throw forged(events[firstForged] as TeamEventRow);
    if (chainProblem !== null) throw chainProblem.error;
    this.#seq = seq;
    this.#hash = hash;
  }

  /** The event's link to the one before and its own hash; answers that hash. */
  #link(seq: number, previous: Buffer, event: TeamEventRow): Buffer {
    const where = `event ${String(event.seq)} of ${event.workspace}`;
    if (event.seq !== seq + 1)
      throw new TeamProblem(
        'tampered',
        `The team history has a gap: ${where} comes after event ${String(seq)}.`,
        seq + 1,
      );
    if (!previous.equals(event.prevHash))
      throw new TeamProblem(
        'tampered',
        `The team history is broken at ${where}: it does not follow the event kept before it.`,
        event.seq,
      );
    const hash = chainHash(previous, event);
    if (!hash.equals(event.hash))
      throw new TeamProblem(
        'tampered',
        `The team history is broken at ${where}: its content does not match its hash (edited on the server).`,
        event.seq,
      );
    return hash;
  }
}

function verifyOnPool(event: TeamEventRow, key: KeyObject): Promise<boolean> {
  if (event.signature.length !== 64) return Promise.resolve(false);
  const bytes = intentBytes(event);
  return new Promise((resolve) => {
    verify(null, bytes, key, event.signature, (error, valid) => {
      resolve(error === null && valid);
    });
  });
}

function forged(event: TeamEventRow): TeamProblem {
  return new TeamProblem(
    'tampered',
    `The team history is forged at event ${String(event.seq)} of ${event.workspace}: it is not signed by ${event.officer}.`,
    event.seq,
  );
}
