/**
 * Verifies a workspace's history event by event, as the laptop receives it: each event follows
 * the one before (seq + 1, and names its hash), its content matches its own hash, and its
 * intent carries a valid Ed25519 signature of the officer the server recorded. The first event
 * that fails is named, with why. The caller also checks the anchor (what the laptop verified
 * before), which is what catches a history rewritten and re-chained by someone with the power
 * to disable the server's triggers.
 */
import { chainHash, intentBytes, type TeamEventRow } from './crypto/teamCanonical.ts';
import type { KeyObject } from 'node:crypto';
import { publicKeyOfRaw, verifyIntent } from './crypto/officerKeys.ts';
import { TeamProblem } from './teamProblem.ts';

export type SigningKeys = ReadonlyMap<string, Uint8Array>;

export class ChainVerifier {
  #seq: number;
  #hash: Buffer;
  /** KeyObjects made once: importing a raw key for every event cost more than the verify itself. */
  readonly #keys = new Map<string, KeyObject>();

  constructor(from: { seq: number; hash: Uint8Array }, keys: SigningKeys) {
    this.#seq = from.seq;
    this.#hash = Buffer.from(from.hash);
    for (const [officer, raw] of keys) this.#keys.set(officer, publicKeyOfRaw(raw, 'Ed25519'));
  }

  get seq(): number {
    return this.#seq;
  }

  get hash(): Buffer {
    return this.#hash;
  }

  /** Throws a 'tampered' TeamProblem naming the event when it does not verify. */
  accept(event: TeamEventRow): void {
    const where = `event ${String(event.seq)} of ${event.workspace}`;
    if (event.seq !== this.#seq + 1)
      throw new TeamProblem(
        'tampered',
        `The team history has a gap: ${where} comes after event ${String(this.#seq)}.`,
        this.#seq + 1,
      );
    if (!this.#hash.equals(Buffer.from(event.prevHash)))
      throw new TeamProblem(
        'tampered',
        `The team history is broken at ${where}: it does not follow the event kept before it.`,
        event.seq,
      );
    const hash = chainHash(this.#hash, event);
    if (!hash.equals(Buffer.from(event.hash)))
      throw new TeamProblem(
        'tampered',
        `The team history is broken at ${where}: its content does not match its hash (edited on the server).`,
        event.seq,
      );
    const key = this.#keys.get(event.officer);
    if (key === undefined || !verifyIntent(key, intentBytes(event), event.signature))
      throw new TeamProblem(
        'tampered',
        `The team history is forged at ${where}: it is not signed by ${event.officer}.`,
        event.seq,
      );
    this.#seq = event.seq;
    this.#hash = hash;
  }
}
