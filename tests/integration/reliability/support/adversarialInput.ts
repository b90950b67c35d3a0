/**
 * Inputs for fuzzing the IPC router, each **invalid by construction** for the channel it is
 * made for, so the property is simply "refused, with the error shape, and nothing ran":
 * - a top-level value that is not an object at all (every input of the contract is one);
 * - an object built from the channel's own field names (nested ones too), with a poison
 *   planted somewhere inside: a prototype key, NaN or ±Infinity, a function, a class
 *   instance, a typed array other than Uint8Array, an accessor, a symbol key, nesting past
 *   the limit, strings, entries or bytes past the totals;
 * - the same object with a field the contract does not know (every input is strict);
 * - the same object with one known field given a value that field's schema refuses (wrong
 *   type, out of bounds, bad pattern): the schema itself is the oracle.
 * Big values (a 2 MiB string, 20,001 entries, 10 MiB of bytes) are made once and shared, so
 * thousands of runs stay cheap.
 */
import fc from 'fast-check';
import type { z } from 'zod';
import { FILE_MAX_BYTES } from '../../../../src/shared/bank/index.ts';
import { DEFAULT_INPUT_LIMITS } from '../../../../src/main/ipc/untrustedInput.ts';

type Shape = Readonly<Record<string, z.ZodType>>;

interface SchemaDefinition {
  type: string;
  shape?: Shape;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: readonly z.ZodType[];
}

function definitionOf(schema: z.ZodType): SchemaDefinition {
  return (schema as unknown as { def: SchemaDefinition }).def;
}

/** The object fields a schema takes, through optional, nullable, default, pipe and unions; null when it is not an object. */
export function shapeOf(schema: z.ZodType): Shape | null {
  const definition = definitionOf(schema);
  switch (definition.type) {
    case 'object':
      return definition.shape ?? null;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return definition.innerType === undefined ? null : shapeOf(definition.innerType);
    case 'pipe':
      return definition.in === undefined ? null : shapeOf(definition.in);
    case 'union': {
      const merged: Record<string, z.ZodType> = {};
      for (const option of definition.options ?? []) Object.assign(merged, shapeOf(option) ?? {});
      return Object.keys(merged).length === 0 ? null : merged;
    }
    default:
      return null;
  }
}

/** Getters planted by the fuzz record here when something reads them; nothing ever should. */
export const accessorReads: string[] = [];

/** Keys that reach a prototype when assigned. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

const HUGE_STRING = 'x'.repeat(DEFAULT_INPUT_LIMITS.maxStringChars + 1);
const HALF_HUGE_STRING = 'y'.repeat(Math.ceil(DEFAULT_INPUT_LIMITS.maxStringChars / 2) + 1);
const TOO_MANY_ENTRIES = new Array<number>(DEFAULT_INPUT_LIMITS.maxEntries + 1).fill(0);
const TOO_MANY_KEYS: Record<string, number> = Object.fromEntries(
  Array.from({ length: DEFAULT_INPUT_LIMITS.maxEntries + 1 }, (_, index) => [`k${String(index)}`, index]),
);
/** A sparse array that claims 2^32 − 1 entries: iterating it would never end. */
const ENDLESS_SPARSE: unknown[] = [];
ENDLESS_SPARSE.length = 2 ** 32 - 1;
ENDLESS_SPARSE[7] = 'x';
const TOO_MANY_BYTES = new Uint8Array(Math.max(FILE_MAX_BYTES, DEFAULT_INPUT_LIMITS.maxBytes) + 1);

/** Strings a person (or an attacker) might type: injections, traversal, control characters, lookalikes. */
const NASTY_STRINGS = [
  '',
  ' ',
  "'; DROP TABLE pending_transactions; --",
  '" OR 1=1 --',
  '../../../../etc/passwd',
  '..\\..\\windows\\system32',
  '\u0000',
  'a\u0000b',
  '%00',
  '\r\nX-Injected: 1',
  '${7*7}',
  '{{constructor.constructor("return process")()}}',
  '<script>alert(1)</script>',
  'javascript:alert(1)',
  'file:///etc/passwd',
  'http://169.254.169.254/latest/meta-data/',
  'Basic a2V5OnNlY3JldA==',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '\u202e\u0645\u0631\u062d\u0628\u0627',
  '\ud800',
  '🦄'.repeat(60),
  'acct_' + 'A'.repeat(300),
  'x'.repeat(201),
  'x'.repeat(1_025),
  'x'.repeat(2_001),
  'x'.repeat(4_097),
  'x'.repeat(100_000),
];

const NUMBERS = [
  0,
  -0,
  -1,
  1,
  0.5,
  -0.5,
  1e-300,
  Number.MIN_VALUE,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER - 2,
  2 ** 64,
  1e21,
  1e308,
  -1e308,
  Number.MAX_VALUE,
  65_536,
  1_001,
];

/** Plain data of every JSON-ish kind, valid or not for any one field. */
const leaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ maxLength: 30, unit: 'binary' }),
  fc.constantFrom(...NASTY_STRINGS),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(...NUMBERS),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.uint8Array({ maxLength: 16 }),
);

export const junk: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.sparseArray(tie('value'), { maxLength: 8 }),
    fc.dictionary(fc.string({ maxLength: 12 }), tie('value'), { maxKeys: 4 }),
  ),
})).value;

function nestedBeyondLimit(depth: number, asArray: boolean): unknown {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level += 1) value = asArray ? [value] : { deeper: value };
  return value;
}

function withOwnKey(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  // defineProperty, because `target['__proto__'] = value` would set the prototype instead.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}

class NotPlainData {
  readonly field = 'value';
}

/** Something the structural check must refuse wherever it appears in an input. */
export interface Poison {
  kind: string;
  /** Plants the poison as `key` of `container` (an object or array of the input). */
  plant(container: Record<string, unknown> | unknown[], key: string): void;
}

function valuePoison(kind: string, make: () => unknown): Poison {
  return {
    kind,
    plant(container, key) {
      if (Array.isArray(container)) container.push(make());
      else withOwnKey(container, key, make());
    },
  };
}

function keyPoison(kind: string, plantOn: (target: Record<string, unknown>) => void): Poison {
  return {
    kind,
    plant(container) {
      if (Array.isArray(container)) {
        const holder: Record<string, unknown> = {};
        plantOn(holder);
        container.push(holder);
      } else {
        plantOn(container);
      }
    },
  };
}

const prototypeKeyPoison: fc.Arbitrary<Poison> = fc
  .tuple(fc.constantFrom(...PROTOTYPE_KEYS), junk)
  .map(([key, value]) =>
    keyPoison(`key ${key}`, (target) =>
      withOwnKey(target, key, key === '__proto__' ? { polluted: true, isAdmin: true, value } : value),
    ),
  );

const parsedPrototypeKeyPoison: fc.Arbitrary<Poison> = fc
  .constantFrom(...PROTOTYPE_KEYS)
  .map((key) =>
    keyPoison(`JSON.parse key ${key}`, (target) =>
      Object.assign(target, { nested: JSON.parse(`{"${key}": {"polluted": true}}`) as unknown }),
    ),
  );

const nonFinitePoison: fc.Arbitrary<Poison> = fc
  .constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY)
  .map((value) => valuePoison(`number ${String(value)}`, () => value));

const notPlainDataPoison: fc.Arbitrary<Poison> = fc
  .constantFrom<[string, () => unknown]>(
    ['function', () => () => 'called'],
    ['async function', () => async () => Promise.resolve('called')],
    ['symbol', () => Symbol('fuzz')],
    ['bigint', () => 10n ** 30n],
    ['Date', () => new Date(0)],
    ['Invalid Date', () => new Date(Number.NaN)],
    ['Map', () => new Map([['k', 'v']])],
    ['Set', () => new Set([1])],
    ['RegExp', () => /x/g],
    ['Error', () => new Error('fuzz')],
    ['Promise', () => Promise.resolve(1)],
    ['class instance', () => new NotPlainData()],
    ['object with a polluted prototype', () => Object.create({ polluted: true }) as unknown],
    ['boxed string', () => new String('x')],
    ['boxed number', () => new Number(1)],
    ['boxed boolean', () => new Boolean(false)],
    ['Int8Array', () => new Int8Array(4)],
    ['Uint8ClampedArray', () => new Uint8ClampedArray(4)],
    ['Int16Array', () => new Int16Array(4)],
    ['Uint16Array', () => new Uint16Array(4)],
    ['Int32Array', () => new Int32Array(4)],
    ['Float32Array', () => new Float32Array([Number.NaN])],
    ['Float64Array', () => new Float64Array([Number.POSITIVE_INFINITY])],
    ['BigInt64Array', () => new BigInt64Array(2)],
    ['ArrayBuffer', () => new ArrayBuffer(8)],
    ['DataView', () => new DataView(new ArrayBuffer(8))],
    ['WeakMap', () => new WeakMap()],
    ['nested too deep (objects)', () => nestedBeyondLimit(DEFAULT_INPUT_LIMITS.maxDepth + 1, false)],
    ['nested too deep (arrays)', () => nestedBeyondLimit(DEFAULT_INPUT_LIMITS.maxDepth + 1, true)],
    ['nested far too deep', () => nestedBeyondLimit(5_000, false)],
    ['a 2 MiB string', () => HUGE_STRING],
    ['too many entries', () => TOO_MANY_ENTRIES],
    ['too many keys', () => TOO_MANY_KEYS],
    ['an endless sparse array', () => ENDLESS_SPARSE],
    ['too many bytes', () => TOO_MANY_BYTES],
    ['empty bytes', () => new Uint8Array(0)],
    ['an empty Buffer', () => Buffer.alloc(0)],
  )
  .map(([kind, make]) => valuePoison(kind, make));

const otherPoisons: fc.Arbitrary<Poison> = fc.constantFrom(
  keyPoison('two strings over the total', (target) => {
    withOwnKey(target, 'first', HALF_HUGE_STRING);
    withOwnKey(target, 'second', HALF_HUGE_STRING);
  }),
  keyPoison('an accessor', (target) => {
    Object.defineProperty(target, 'sneaky', {
      enumerable: true,
      configurable: true,
      get() {
        accessorReads.push('sneaky');
        return 'read';
      },
    });
  }),
  keyPoison('a symbol key', (target) => {
    Object.defineProperty(target, Symbol('fuzz'), { value: 1, enumerable: true });
  }),
);

export const poison: fc.Arbitrary<Poison> = fc.oneof(
  { arbitrary: prototypeKeyPoison, weight: 3 },
  { arbitrary: parsedPrototypeKeyPoison, weight: 2 },
  { arbitrary: nonFinitePoison, weight: 2 },
  { arbitrary: notPlainDataPoison, weight: 8 },
  { arbitrary: otherPoisons, weight: 2 },
);

/** An object with the schema's field names (nested objects too, to `depth`), each present or not, with any value. */
export function skeletonOf(schema: z.ZodType, depth = 3): fc.Arbitrary<Record<string, unknown>> {
  const shape = shapeOf(schema);
  if (shape === null || Object.keys(shape).length === 0) return fc.constant({}).map(() => ({}));
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, field] of Object.entries(shape)) {
    const nested = depth > 0 && shapeOf(field) !== null ? skeletonOf(field, depth - 1) : null;
    model[key] = nested === null ? junk : fc.oneof(nested, junk);
  }
  return fc.record(model, { requiredKeys: [] }).map((record) => ({ ...record }));
}

/** Every object and array inside `value`, the value itself first. */
function containersOf(value: unknown, found: (Record<string, unknown> | unknown[])[] = []): typeof found {
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return found;
  if (Array.isArray(value)) {
    if (value.length > 100) return found;
    found.push(value);
    for (const item of value) containersOf(item, found);
    return found;
  }
  found.push(value as Record<string, unknown>);
  for (const item of Object.values(value)) containersOf(item, found);
  return found;
}

/** A field name any container might have (its own or another), so the poison sometimes replaces a real value. */
const plantKey = fc.oneof(
  fc.constantFrom('profileId', 'request', 'filter', 'id', 'limit'),
  fc.string({ maxLength: 8 }),
);

/** Does this field accept nearly anything (z.unknown(), a free record)? Then no value is wrong for it. */
function acceptsAlmostAnything(field: z.ZodType): boolean {
  return [1, 'x', null, true, [], {}, { a: 1 }].every((value) => field.safeParse(value).success);
}

export interface FuzzCase {
  /** How the input was made, for the failure message. */
  how: string;
  input: unknown;
}

/** Inputs that must all be refused for a channel whose input schema is `schema`. */
export function invalidInputFor(schema: z.ZodType): fc.Arbitrary<FuzzCase> {
  const shape = shapeOf(schema) ?? {};
  const skeleton = skeletonOf(schema);

  const notAnObject: fc.Arbitrary<FuzzCase> = fc
    .oneof(
      leaf,
      fc.array(junk, { maxLength: 4 }),
      fc.sparseArray(junk, { maxLength: 10 }),
      fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, HUGE_STRING, ENDLESS_SPARSE),
      fc.int16Array({ maxLength: 4 }),
      fc.float64Array({ maxLength: 4 }),
      fc.bigInt().map((value) => value),
      fc.constant(() => 'called'),
      fc.constant(Symbol('top')),
      // A schema library may read an empty typed array as `{}`.
      fc.constant(new Uint8Array(0)),
      fc.constant(Buffer.alloc(0)),
    )
    .map((input) => ({ how: 'not an object', input }));

  const poisoned: fc.Arbitrary<FuzzCase> = fc
    .tuple(skeleton, poison, fc.nat(), plantKey)
    .map(([generated, chosen, where, key]) => {
      // A copy: fast-check may reuse the generated value while shrinking.
      const input = structuredClone(generated);
      const containers = containersOf(input);
      const container = containers[where % containers.length] ?? input;
      chosen.plant(container, key);
      return { how: `poisoned with ${chosen.kind} (as "${key}")`, input };
    });

  const unknownField: fc.Arbitrary<FuzzCase> = fc
    .tuple(
      skeleton,
      fc
        .string({ minLength: 1, maxLength: 20 })
        .filter((key) => !(key in shape) && !(PROTOTYPE_KEYS as readonly string[]).includes(key)),
      junk,
    )
    .map(([input, key, value]) => ({
      how: `unknown field "${key}"`,
      input: withOwnKey(structuredClone(input), key, value),
    }));

  const typedFields = Object.entries(shape).filter(([, field]) => !acceptsAlmostAnything(field));
  const wrongField: fc.Arbitrary<FuzzCase> | null =
    typedFields.length === 0
      ? null
      : fc
          .tuple(skeleton, fc.constantFrom(...typedFields), junk)
          .filter(([, [, field], value]) => !field.safeParse(value).success)
          .map(([input, [key], value]) => ({
            how: `field "${key}" given a value it refuses`,
            input: withOwnKey(structuredClone(input), key, value),
          }));

  return wrongField === null
    ? fc.oneof(notAnObject, poisoned, unknownField)
    : fc.oneof(notAnObject, poisoned, unknownField, wrongField, wrongField);
}
