/**
 * Reading what a client sent: path parameters, query strings and JSON bodies, each parsed
 * with its schema from src/shared/bank. A bad input becomes a 400 whose one sentence names
 * every field at fault; nothing reaches a handler unparsed.
 */
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { parseWith } from '../../shared/bank/index.ts';
import { RequestProblem } from '../requestProblem.ts';

/** zod says `Unrecognized key: "foo"`; say what it means for a request. */
function plainProblem(problem: string, unknownNoun: string): string {
  const unknown = /^(?:(.+): )?Unrecognized keys?: (.+)$/.exec(problem);
  if (unknown === null) return problem;
  const where = unknown[1] === undefined ? '' : ` in ${unknown[1]}`;
  return `unknown ${unknownNoun}${where}: ${unknown[2] ?? ''} (not accepted here)`;
}

function problemOf(what: 'request body' | 'query', problems: readonly string[]): RequestProblem {
  const noun = what === 'query' ? 'query parameter' : 'field';
  const unique = [...new Set(problems.map((problem) => plainProblem(problem, noun)))];
  return new RequestProblem(400, `Invalid ${what}: ${unique.join('; ')}.`);
}

export function pathParameter(request: FastifyRequest, name: string): string {
  const parameters = request.params as Record<string, string | undefined>;
  return parameters[name] ?? '';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

/** The JSON body, parsed with `schema`; a missing or non-object body is named as such. */
export function bodyOf<Schema extends z.ZodType>(request: FastifyRequest, schema: Schema): z.output<Schema> {
  if (request.body === undefined || request.body === null) {
    throw new RequestProblem(
      400,
      'The request body is missing: send a JSON object with Content-Type: application/json.',
    );
  }
  if (!isPlainObject(request.body)) throw new RequestProblem(400, 'The request body must be a JSON object.');
  const parsed = parseWith(schema, request.body);
  if (!parsed.ok) throw problemOf('request body', parsed.problems);
  return parsed.value;
}

export function queryRecord(request: FastifyRequest): Record<string, unknown> {
  return isPlainObject(request.query) ? { ...request.query } : {};
}

export function queryOf<Schema extends z.ZodType>(query: Record<string, unknown>, schema: Schema): z.output<Schema> {
  const parsed = parseWith(schema, query);
  if (!parsed.ok) throw problemOf('query', parsed.problems);
  return parsed.value;
}

/** A list's filters and its paging parameters, parsed together so one answer names every problem. */
export function listQueryOf<Filters extends z.ZodType, Paging extends z.ZodType>(
  query: Record<string, unknown>,
  filterNames: readonly string[],
  filtersSchema: Filters,
  pagingSchema: Paging,
): { filters: z.output<Filters>; paging: z.output<Paging> } {
  const parts = splitQuery(query, filterNames);
  const filters = parseWith(filtersSchema, parts.filters);
  const paging = parseWith(pagingSchema, parts.paging);
  if (!filters.ok || !paging.ok) {
    throw problemOf('query', [...(filters.ok ? [] : filters.problems), ...(paging.ok ? [] : paging.problems)]);
  }
  return { filters: filters.value, paging: paging.value };
}

/** Splits a query into the filters a list knows and the paging parameters (from list.ts). */
function splitQuery(
  query: Record<string, unknown>,
  filterNames: readonly string[],
): { filters: Record<string, unknown>; paging: Record<string, unknown> } {
  const filters: Record<string, unknown> = {};
  const paging: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    if (filterNames.includes(name)) filters[name] = value;
    else paging[name] = value;
  }
  return { filters, paging };
}

/** The absolute address of this server as the client reached it, for page_next. */
export function originOf(request: FastifyRequest, fallback: string): string {
  const host = request.headers.host;
  return host === undefined || host === '' ? fallback : `${request.protocol}://${host}`;
}
