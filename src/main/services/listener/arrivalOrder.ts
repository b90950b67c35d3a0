/**
 * Understanding arrivals per object (spec §6.8: ordering is not guaranteed): the same event
 * for the same object again is a duplicate (a retry, or a repeat); an operation that arrives
 * after a later one on the same object (a create after an update, anything after a delete)
 * is out of order. Kept in a bounded memory of recent objects, filled from the log on a
 * miss, so the hot path costs one map lookup.
 */
const OP_RANK: Record<string, number> = { create: 0, update: 1, delete: 2 };

interface ObjectState {
  arrivals: Map<string, number>;
  latestRank: number;
}

export interface ArrivalVerdict {
  occurrence: number;
  outOfOrder: boolean;
}

export type ObjectHistoryLookup = (objectId: string) => { event: string | null; op: string | null; arrivals: number }[];

export class ArrivalOrder {
  readonly #lookup: ObjectHistoryLookup;
  readonly #capacity: number;
  readonly #objects = new Map<string, ObjectState>();
  /**
   * True while every object in the log is also in memory (the log was empty when we started
   * and nothing was evicted since): then an unknown object is new, and the log is not asked.
   */
  #knowsEverything: boolean;

  constructor(lookup: ObjectHistoryLookup, options: { capacity?: number; logIsEmpty?: boolean } = {}) {
    this.#lookup = lookup;
    this.#capacity = options.capacity ?? 50_000;
    this.#knowsEverything = options.logIsEmpty ?? false;
  }

  /** Count this arrival and say how it relates to the ones before it. */
  observe(objectId: string | null, event: string | null, op: string | null): ArrivalVerdict {
    if (objectId === null) return { occurrence: 1, outOfOrder: false };
    const state = this.#stateOf(objectId);
    const key = event ?? '';
    const occurrence = (state.arrivals.get(key) ?? 0) + 1;
    state.arrivals.set(key, occurrence);
    const rank = op === null ? undefined : OP_RANK[op];
    let outOfOrder = false;
    if (rank !== undefined) {
      outOfOrder = rank < state.latestRank;
      state.latestRank = Math.max(state.latestRank, rank);
    }
    return { occurrence, outOfOrder };
  }

  /** Forget everything (after the log is cleared). */
  reset(): void {
    this.#objects.clear();
    this.#knowsEverything = true;
  }

  #stateOf(objectId: string): ObjectState {
    const known = this.#objects.get(objectId);
    // Evicted in arrival order (oldest first): cheaper than reordering on every hit, and
    // notifications about one object come close together.
    if (known !== undefined) return known;
    const state: ObjectState = { arrivals: new Map(), latestRank: -1 };
    for (const row of this.#knowsEverything ? [] : this.#lookup(objectId)) {
      const key = row.event ?? '';
      state.arrivals.set(key, (state.arrivals.get(key) ?? 0) + row.arrivals);
      const rank = row.op === null ? undefined : OP_RANK[row.op];
      if (rank !== undefined) state.latestRank = Math.max(state.latestRank, rank);
    }
    this.#objects.set(objectId, state);
    if (this.#objects.size > this.#capacity) {
      const oldest = this.#objects.keys().next();
      if (oldest.done !== true) this.#objects.delete(oldest.value);
      this.#knowsEverything = false;
    }
    return state;
  }
}
