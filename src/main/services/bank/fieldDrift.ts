/**
 * Drift, measured as answers are read (issue 14, item 3): for each resource, how many records
 * came without a field the interface lists, and how many carried a field it does not know.
 * Names and counts only: no value of an answer ever leaves `observeDrift`.
 */
import { z } from 'zod';
import { driftOf, responseOf, type FieldDrift, type FieldNames } from '../../../shared/bank/index.ts';

/** What one answer (a record, or a page of them) told about one resource. */
export interface DriftObservation {
  /** The resource in the bank's words (`document`, `pending_transaction`), or `<resource> list` for a list's envelope. */
  resource: string;
  /** Records read. */
  records: number;
  /** Per expected field: how many of those records came without it. */
  missing: Record<string, number>;
  /** Per field the interface does not list: how many records carried it. */
  unknown: Record<string, number>;
  /** Per field: how many records carried it in a form the interface does not allow (kept as received). */
  malformed?: Record<string, number>;
}

export type DriftListener = (observation: DriftObservation) => void;

/**
 * The list envelope as the interface's lists send it (`data`, `page_next`); `total_estimated`
 * is known (the real service adds it) but not expected.
 */
export const listEnvelopeResponse = responseOf({
  record: z.looseObject({
    data: z.array(z.unknown()),
    page_next: z.string().nullable(),
    total_estimated: z.number(),
  }),
  required: ['data'],
  extras: ['total_estimated'],
});

/**
 * Unknown names come from the bank: each is cut to a readable length, and one answer adds at
 * most this many distinct ones per resource, so a bank sending keys by the thousand (or values
 * as keys) cannot grow the counts without bound.
 */
const NAME_MAX = 100;
const UNKNOWN_NAMES_MAX = 50;

function nameOf(field: string): string {
  return field.length <= NAME_MAX ? field : `${field.slice(0, NAME_MAX - 1)}…`;
}

/** Records of one shape look alike: the drift of a set of field names is worked out once. */
const SHAPES_KEPT = 256;
const shapes = new WeakMap<FieldNames, Map<string, FieldDrift>>();

function driftOfShape(response: FieldNames, names: readonly string[], record: Record<string, unknown>): FieldDrift {
  const signature = names.join('\n');
  let known = shapes.get(response);
  if (known === undefined) {
    known = new Map();
    shapes.set(response, known);
  }
  let drift = known.get(signature);
  if (drift === undefined) {
    drift = driftOf(response, record);
    if (known.size >= SHAPES_KEPT) known.clear();
    known.set(signature, drift);
  }
  return drift;
}

function sameNames(left: readonly string[], right: readonly string[]): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index += 1) if (left[index] !== right[index]) return false;
  return true;
}

/** The drift of records read as `resource`; null when there was nothing to count. */
export function observeDrift(
  resource: string,
  response: FieldNames,
  records: readonly unknown[],
): DriftObservation | null {
  // Null-prototype maps: a field the bank names `constructor` or `toString` is counted like any
  // other, never mistaken for Object.prototype's (security review of 3b75e6a, I8).
  const observation: DriftObservation = {
    resource,
    records: 0,
    missing: Object.create(null) as Record<string, number>,
    unknown: Object.create(null) as Record<string, number>,
  };
  // A page's records nearly always share their field names: the last shape is checked first,
  // name by name, before any text is built (this runs for every record a sync reads).
  let lastNames: readonly string[] = [];
  let lastDrift: FieldDrift | null = null;
  for (const record of records) {
    if (typeof record !== 'object' || record === null || Array.isArray(record)) continue;
    observation.records += 1;
    const names = Object.keys(record);
    const drift: FieldDrift =
      lastDrift !== null && sameNames(names, lastNames)
        ? lastDrift
        : driftOfShape(response, names, record as Record<string, unknown>);
    lastNames = names;
    lastDrift = drift;
    for (const name of drift.missing) observation.missing[name] = (observation.missing[name] ?? 0) + 1;
    for (const field of drift.unknown) {
      const name = nameOf(field);
      const counted = observation.unknown[name];
      if (counted !== undefined) observation.unknown[name] = counted + 1;
      else if (Object.keys(observation.unknown).length < UNKNOWN_NAMES_MAX) observation.unknown[name] = 1;
    }
  }
  return observation.records === 0 ? null : observation;
}
