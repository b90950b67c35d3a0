/**
 * GET lists of the small resources: newest first, `page_cursor` = the id of the last object
 * already seen (conventions.md), the filters each list knows, from_date inclusive and
 * to_date exclusive on created_at.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { listQuery } from '../../shared/bank/index.ts';
import { RequestProblem } from '../requestProblem.ts';
import type { SandboxContext } from '../sandboxContext.ts';
import type { RecordKind } from '../store/records.ts';
import { jsonText, type Answer } from './answer.ts';
import { listBody, pageNextOf } from './listPage.ts';
import { listQueryOf, originOf, queryRecord } from './requestInput.ts';

const NO_FILTERS = z.strictObject({});

export interface RecordListSpec {
  kind: RecordKind;
  path: string;
  /** Filters (a strict zod object of optional strings) and their names. */
  filters?: { schema: z.ZodType; names: readonly string[] };
  /** Turns a stored body into the served one (e.g. to hide a field); default: as stored. */
  present?: (body: string) => string;
}

export function listRecords(context: SandboxContext, request: FastifyRequest, spec: RecordListSpec): Answer {
  const parsed = listQueryOf(
    queryRecord(request),
    spec.filters?.names ?? [],
    spec.filters?.schema ?? NO_FILTERS,
    listQuery,
  );
  const query = parsed.paging;
  const filters = parsed.filters as Record<string, string | undefined>;
  let beforeSeq: number | undefined;
  if (query.page_cursor !== undefined) {
    beforeSeq = context.records.seqOf(spec.kind, query.page_cursor);
    if (beforeSeq === undefined) {
      throw new RequestProblem(
        400,
        `Invalid query: page_cursor ${JSON.stringify(query.page_cursor)} names no object of this list.`,
      );
    }
  }
  const definedFilters: Record<string, string> = {};
  for (const [name, value] of Object.entries(filters)) if (value !== undefined) definedFilters[name] = value;
  const page = context.records.list(spec.kind, {
    filters: definedFilters,
    beforeSeq,
    pageSize: query.page_size,
    fromDate: query.from_date,
    toDate: query.to_date,
  });
  const rows = spec.present === undefined ? page.bodies : page.bodies.map(spec.present);
  const pageNext = pageNextOf(
    originOf(request, context.baseUrl()),
    spec.path,
    { ...definedFilters, page_size: query.page_size, from_date: query.from_date, to_date: query.to_date },
    page.nextCursor,
  );
  return jsonText(200, listBody(rows, pageNext, page.totalEstimated));
}

export function recordOr404(context: SandboxContext, kind: RecordKind, id: string, noun: string): string {
  const body = context.records.text(kind, id);
  if (body === undefined) throw new RequestProblem(404, `No ${noun} with id ${id}.`);
  return body;
}
