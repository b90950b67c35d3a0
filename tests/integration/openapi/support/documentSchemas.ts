/**
 * What the served OpenAPI document says an answer looks like, as a validator: the JSON Schema
 * of an operation's answer (its $refs resolved) turned into a zod schema by zod's own JSON
 * Schema reader. A typed client proves the calls compile against the document; this proves
 * the bytes the server sent are what the document describes.
 */
import { z } from 'zod';

type Json = Record<string, unknown>;

function asRecord(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

export class DocumentSchemas {
  readonly #document: Json;

  constructor(document: unknown) {
    this.#document = asRecord(document);
  }

  /** Follows a local `#/...` reference. */
  #target(reference: string): unknown {
    let target: unknown = this.#document;
    for (const part of reference.replace(/^#\//, '').split('/')) target = asRecord(target)[part.replace(/~1/g, '/')];
    if (target === undefined) throw new Error(`The document has nothing at ${reference}.`);
    return target;
  }

  /** The value with every $ref replaced by what it names (the document has no cycles). */
  resolved(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.resolved(item));
    if (typeof value !== 'object' || value === null) return value;
    const record = value as Json;
    if (typeof record['$ref'] === 'string') return this.resolved(this.#target(record['$ref']));
    return Object.fromEntries(Object.entries(record).map(([key, item]) => [key, this.resolved(item)]));
  }

  /** The validator of an operation's JSON answer with this status. */
  answer(path: string, method: string, status: number): z.ZodType {
    const operation = asRecord(asRecord(asRecord(this.#document['paths'])[path])[method]);
    const response = asRecord(this.resolved(asRecord(operation['responses'])[String(status)]));
    const schema = asRecord(asRecord(response['content'])['application/json'])['schema'];
    if (schema === undefined)
      throw new Error(`The document gives no JSON answer ${String(status)} for ${method} ${path}.`);
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  }

  /** The validator of a component schema. */
  component(name: string): z.ZodType {
    return z.fromJSONSchema(
      this.resolved({ $ref: `#/components/schemas/${name}` }) as Parameters<typeof z.fromJSONSchema>[0],
    );
  }
}
