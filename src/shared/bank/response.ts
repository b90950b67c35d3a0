/**
 * Strict in what we send, tolerant in what we read (DESIGN.md; conventions.md "What a client
 * must tolerate"). Every resource is defined once, as the record the interface lists (what
 * the sandbox serves and the OpenAPI document describes); its RESPONSE schema is derived from
 * that record here, in one place, by one rule:
 * - only what the app cannot work without is required (an object's `id`; a list's `data`);
 * - every other field may be missing or null (a field that is present is still checked, so a
 *   wrong type is named, not silently kept);
 * - unknown fields are kept;
 * - a field the real service sends under another name is read under the interface's name
 *   (`org_id` as `organization_id`, `greendot_deposit_id` as `partner_deposit_id`).
 * The same description measures drift: which expected fields an answer left out and which
 * unknown ones it sent (names only, never values).
 */
import { z } from 'zod';

type Shape = Record<string, z.ZodType>;

/** Every field of the shape made optional and nullable, except the required ones. */
type TolerantShape<S extends Shape, Required extends keyof S> = {
  [K in keyof S]: K extends Required ? S[K] : z.ZodOptional<z.ZodNullable<S[K]>>;
};

export interface ResponseDescription<S extends Shape, Required extends keyof S & string> {
  /** The record as the interface lists it. */
  record: z.ZodObject<S>;
  /** Fields an answer cannot be used without. */
  required: readonly Required[];
  /** Other names the real service uses, each mapped to the interface's name. */
  aliases?: Readonly<Record<string, keyof S & string>>;
  /** Fields only the sandbox adds: known (never "unknown"), but not expected from a bank. */
  extras?: readonly (keyof S & string)[];
}

/** A resource as read from the bank: its response schema and how to measure its drift. */
export interface BankResponse<S extends Shape, Required extends keyof S & string> {
  /** Reads an answer: aliases resolved, then checked. */
  readonly schema: z.ZodType<z.output<z.ZodObject<TolerantShape<S, Required>, z.core.$loose>>>;
  /** The tolerant object itself, for values already read (the cache, IPC): no alias step. */
  readonly object: z.ZodObject<TolerantShape<S, Required>, z.core.$loose>;
  /** The fields the interface lists, in its order (the sandbox's extras left out). */
  readonly expectedFields: readonly string[];
  /** Every field the record knows, extras included. */
  readonly knownFields: readonly string[];
  readonly aliases: Readonly<Record<string, string>>;
}

/** Reads an alias under the interface's name (the alias is dropped; the interface's name wins if both came). */
export function withAliasesResolved(body: unknown, aliases: Readonly<Record<string, string>>): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const names = Object.keys(aliases);
  if (!names.some((alias) => alias in body)) return body;
  const sent = body as Record<string, unknown>;
  const resolved: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(sent)) {
    const canonical = aliases[name];
    if (canonical === undefined) resolved[name] = value;
    else if (!(canonical in sent)) resolved[canonical] = value;
  }
  return resolved;
}

export function responseOf<S extends Shape, Required extends keyof S & string>(
  description: ResponseDescription<S, Required>,
): BankResponse<S, Required> {
  const required = new Set<string>(description.required);
  const tolerant: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(description.record.shape)) {
    tolerant[name] = required.has(name) ? field : field.nullable().optional();
  }
  const aliases = description.aliases ?? {};
  const object = z.looseObject(tolerant as TolerantShape<S, Required>);
  const schema =
    Object.keys(aliases).length === 0 ? object : z.preprocess((body) => withAliasesResolved(body, aliases), object);
  return {
    schema: schema,
    object,
    expectedFields: Object.keys(description.record.shape).filter(
      (name) => !(description.extras ?? []).some((extra) => extra === name),
    ),
    knownFields: Object.keys(description.record.shape),
    aliases,
  };
}

/** The list envelope as read: `data` required; `page_next` and `total_estimated` may be absent. */
export function listResponseOf<Item extends z.ZodType>(item: Item) {
  return z.looseObject({
    data: z.array(item),
    page_next: z.string().nullable().optional(),
    total_estimated: z.number().nullable().optional(),
  });
}

/** What one answer told about the interface: expected fields it left out, unknown ones it sent. */
export interface FieldDrift {
  missing: string[];
  unknown: string[];
}

/** What drift is measured against: the names a resource expects and knows (any BankResponse). */
export interface FieldNames {
  readonly expectedFields: readonly string[];
  readonly knownFields: readonly string[];
  readonly aliases: Readonly<Record<string, string>>;
}

/** Names only: the values of an answer never leave this function. */
export function driftOf(response: FieldNames, body: unknown): FieldDrift {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { missing: [], unknown: [] };
  const sent = Object.keys(body);
  // Own aliases only: a field named `constructor` or `toString` is a field like any other.
  const aliasOf = (name: string): string | undefined =>
    Object.hasOwn(response.aliases, name) ? response.aliases[name] : undefined;
  const present = new Set(sent.map((name) => aliasOf(name) ?? name));
  const known = new Set(response.knownFields);
  return {
    missing: response.expectedFields.filter((name) => !present.has(name)),
    unknown: sent.filter((name) => !known.has(name) && aliasOf(name) === undefined),
  };
}
