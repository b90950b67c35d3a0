/**
 * Requests for fuzzing the sandbox, made from its own OpenAPI document: every operation, its
 * path and query parameters and its request body, each either valid by the document's JSON
 * Schema (built by a small JSON Schema → fast-check translation) or broken in one of the
 * ways a client breaks things (wrong types, unknown fields, missing fields, malformed JSON,
 * wrong content types, bodies past the limits, reused idempotency keys).
 */
import fc from 'fast-check';

export type JsonSchema = Readonly<Record<string, unknown>>;

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
}

export interface OpenApiOperation {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** The templated path, e.g. /webhook/{webhook_id}. */
  path: string;
  parameters: OpenApiParameter[];
  /** Media types of the request body and the schema of the JSON one; null when the operation takes none. */
  body: { mediaTypes: string[]; schema: JsonSchema | null } | null;
  /** The statuses the document gives for this operation. */
  statuses: Set<number>;
  /** Whether the document says its success answers are JSON. */
  jsonSuccess: boolean;
  /** Security requirements: [] means public. */
  security: string[];
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Every operation of the document. */
export function operationsOf(document: unknown): OpenApiOperation[] {
  const root = asRecord(document);
  const globalSecurity = Array.isArray(root['security']) ? (root['security'] as unknown[]) : [];
  const operations: OpenApiOperation[] = [];
  for (const [path, item] of Object.entries(asRecord(root['paths']))) {
    for (const [method, raw] of Object.entries(asRecord(item))) {
      const operation = asRecord(raw);
      const content = asRecord(asRecord(operation['requestBody'])['content']);
      const mediaTypes = Object.keys(content);
      const security = Array.isArray(operation['security']) ? (operation['security'] as unknown[]) : globalSecurity;
      operations.push({
        method: method.toUpperCase() as OpenApiOperation['method'],
        path,
        parameters: (Array.isArray(operation['parameters']) ? (operation['parameters'] as unknown[]) : []).map(
          (parameter) => {
            const record = asRecord(parameter);
            return {
              name: String(record['name']),
              in: record['in'] === 'path' ? 'path' : 'query',
              required: record['required'] === true,
              schema: asRecord(record['schema']),
            };
          },
        ),
        body:
          mediaTypes.length === 0
            ? null
            : {
                mediaTypes,
                schema:
                  content['application/json'] === undefined
                    ? null
                    : asRecord(asRecord(content['application/json'])['schema']),
              },
        statuses: new Set(Object.keys(asRecord(operation['responses'])).map(Number)),
        jsonSuccess: Object.entries(asRecord(operation['responses'])).some(
          ([status, response]) =>
            status.startsWith('2') && asRecord(asRecord(response)['content'])['application/json'] !== undefined,
        ),
        security: security.flatMap((requirement) => Object.keys(asRecord(requirement))),
      });
    }
  }
  return operations;
}

/** What valid values may point at: ids that exist, and where webhooks may send (loopback only). */
export interface Hints {
  /** Existing ids, by prefix (`acct`, `file`, `wh`, …). */
  idsByPrefix: () => ReadonlyMap<string, readonly string[]>;
  /** Webhook targets: loopback addresses of the test's own receiver. */
  webhookUrls: readonly string[];
}

export class SchemaTranslator {
  readonly #document: Record<string, unknown>;
  readonly #hints: Hints;

  constructor(document: unknown, hints: Hints) {
    this.#document = asRecord(document);
    this.#hints = hints;
  }

  resolve(schema: JsonSchema): JsonSchema {
    const reference = schema['$ref'];
    if (typeof reference !== 'string') return schema;
    let target: unknown = this.#document;
    for (const part of reference.replace(/^#\//, '').split('/')) target = asRecord(target)[part];
    return this.resolve(asRecord(target));
  }

  /** Values the schema accepts. `name` is the property's name, for hints (url, ids). */
  valid(raw: JsonSchema, name = '', depth = 0): fc.Arbitrary<unknown> {
    const schema = this.resolve(raw);
    if ('const' in schema) return fc.constant(schema['const']);
    if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]));
    for (const combinator of ['anyOf', 'oneOf']) {
      const options = schema[combinator];
      if (Array.isArray(options) && options.length > 0) {
        return fc.oneof(...options.map((option) => this.valid(asRecord(option), name, depth)));
      }
    }
    const type = schema['type'];
    if (Array.isArray(type)) {
      return fc.oneof(...type.map((one) => this.valid({ ...schema, type: one }, name, depth)));
    }
    switch (type) {
      case 'string':
        return this.#validString(schema, name);
      case 'integer':
      case 'number': {
        const exclusive = typeof schema['exclusiveMinimum'] === 'number' ? schema['exclusiveMinimum'] + 1 : undefined;
        const min = typeof schema['minimum'] === 'number' ? schema['minimum'] : (exclusive ?? -1_000_000);
        const max = typeof schema['maximum'] === 'number' ? schema['maximum'] : 1_000_000;
        return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
      }
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return fc.array(this.valid(asRecord(schema['items']), name, depth + 1), {
          minLength: typeof schema['minItems'] === 'number' ? schema['minItems'] : 0,
          maxLength: Math.min(3, typeof schema['maxItems'] === 'number' ? schema['maxItems'] : 3),
        });
      case 'object':
        return this.#validObject(schema, depth);
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  #validString(schema: JsonSchema, name: string): fc.Arbitrary<string> {
    const minLength = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
    const maxLength = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : 60;
    if (name === 'url') return fc.constantFrom(...this.#hints.webhookUrls);
    if (schema['format'] === 'date') {
      return fc
        .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
        .map((date) => date.toISOString().slice(0, 10));
    }
    if (schema['format'] === 'date-time') {
      return fc
        .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
        .map((date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z'));
    }
    const pattern = typeof schema['pattern'] === 'string' ? schema['pattern'] : null;
    if (pattern !== null) {
      const prefix = /^\^([a-z]+)_\.\*$/.exec(pattern)?.[1];
      const matching = fc
        .stringMatching(new RegExp(pattern))
        .filter((text) => text.length >= minLength && text.length <= Math.max(maxLength, minLength));
      if (prefix !== undefined) {
        const known = fc.constant(null).chain(() => {
          const ids = this.#hints.idsByPrefix().get(prefix) ?? [];
          return ids.length === 0 ? matching : fc.constantFrom(...ids);
        });
        return fc.oneof({ arbitrary: known, weight: 3 }, { arbitrary: matching, weight: 1 });
      }
      return matching;
    }
    return fc.string({ minLength, maxLength: Math.min(maxLength, Math.max(minLength, 40)) });
  }

  #validObject(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
    const properties = asRecord(schema['properties']);
    const required = Array.isArray(schema['required']) ? (schema['required'] as string[]) : [];
    if (Object.keys(properties).length === 0) {
      return depth > 2
        ? fc.constant({})
        : fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
    }
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [key, property] of Object.entries(properties)) {
      model[key] = this.valid(asRecord(property), key, depth + 1);
    }
    return fc.record(model, { requiredKeys: required.filter((key) => key in model) }).map((value) => ({ ...value }));
  }

  /** A value the schema refuses, made from a valid one by one mistake. */
  invalid(raw: JsonSchema): fc.Arbitrary<unknown> {
    const schema = this.resolve(raw);
    const properties = Object.keys(asRecord(schema['properties']));
    const required = Array.isArray(schema['required']) ? (schema['required'] as string[]) : [];
    const wrongTyped = fc.oneof(
      fc.integer(),
      fc.constant(null),
      fc.boolean(),
      fc.constant([]),
      fc.constant({ nested: { deeper: true } }),
      fc.constant('x'.repeat(5_000)),
      fc.constant(-1),
      fc.constant(1e300),
      fc.constant('2024-02-30'),
      fc.constant("'; DROP TABLE record; --"),
    );
    const mistakes: fc.Arbitrary<unknown>[] = [
      // Not an object at all.
      fc.oneof(
        fc
          .jsonValue({ maxDepth: 1 })
          .filter((value) => typeof value !== 'object' || Array.isArray(value) || value === null),
      ),
      // A field the document does not name.
      fc
        .tuple(
          this.valid(schema),
          fc.string({ minLength: 1, maxLength: 12 }).filter((key) => !properties.includes(key)),
        )
        .map(([value, key]) => ({ ...asRecord(value), [key]: 'unexpected' })),
    ];
    if (required.length > 0) {
      mistakes.push(
        fc.tuple(this.valid(schema), fc.constantFrom(...required)).map(([value, key]) => {
          const copy = { ...asRecord(value) };
          Reflect.deleteProperty(copy, key);
          return copy;
        }),
      );
    }
    if (properties.length > 0) {
      mistakes.push(
        fc
          .tuple(this.valid(schema), fc.constantFrom(...properties), wrongTyped)
          .map(([value, key, wrong]) => ({ ...asRecord(value), [key]: wrong })),
      );
    }
    return fc.oneof(...mistakes);
  }
}

/** Bodies no JSON parser should accept, or that must be refused before parsing. */
export const MALFORMED_JSON = [
  '{',
  '{"a":}',
  "{'a': 1}",
  '[1, 2,',
  '{"a": 1,}',
  'NaN',
  '{"amount": NaN}',
  '{"a": 1} trailing',
  '\uFEFF{}',
  '',
  ' ',
  'null',
  '[]',
  '"just a string"',
  '1e999',
  'true',
  '{"__proto__": {"polluted": true}}',
  '{"constructor": {"prototype": {"polluted": true}}}',
  '['.repeat(50_000) + ']'.repeat(50_000),
  '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000),
  '\u0000',
  '{"a": "\\ud800"}',
];

/** More than the 1 MiB a JSON body may have. */
export const OVERSIZED_JSON = JSON.stringify({ padding: 'p'.repeat(1024 * 1024 + 16) });

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'Application/JSON',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'application/xml',
  'application/jsonx',
  'application/json-patch+json',
  '*/*',
  '',
  'image/png',
  'application/octet-stream',
] as const;

/** Path parameter values besides real ids: what a client (or an attacker) might put in a URL segment. */
export const HOSTILE_SEGMENTS = [
  'x',
  'acct_does_not_exist',
  'file_' + 'z'.repeat(40),
  '..',
  '%2e%2e',
  '%2F',
  'a%2Fb',
  '%00',
  '%E0%A4%A',
  '%',
  '%25',
  '%20',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  "'%20OR%20'1'='1",
  '%3Cscript%3E',
  'a'.repeat(2_000),
  encodeURIComponent('🦄'),
  encodeURIComponent('\u202e'),
];
