/**
 * The recorded exchanges with the real service, read at run time from `../shared/real-wire/`
 * (never copied into the project): `sbx-cassettes.json` (real HTTP exchanges with the real
 * sandbox, 2021) and `hack-examples.json` (the vendor's own example answers, 2022). Both are
 * turned into one shape here. LEDGERDESK_REAL_WIRE names another folder.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RecordedExchange {
  /** The cassette's file name, or the example's id. */
  name: string;
  source: 'sbx-cassettes.json' | 'hack-examples.json';
  /** When it was recorded; null for the vendor's examples. */
  recordedAt: Date | null;
  request: {
    method: string;
    /** The path as recorded, no query. */
    path: string;
    /** The request headers as recorded (Authorization was redacted by the recorder); none for examples. */
    headers: Record<string, string>;
    /** The JSON body as recorded; null when none was sent. */
    body: unknown;
    /** False for the vendor's examples: they give an answer, not the request that got it. */
    recorded: boolean;
  };
  response: {
    status: number;
    /** Lower-case names. The examples record none: they are served as the service's JSON. */
    headers: Record<string, string>;
    /** The JSON body; null for an empty one. */
    body: unknown;
  };
}

/** What the real service's JSON answers carry (conventions.md "Wire conventions"). */
const SERVICE_JSON_HEADERS = {
  'content-type': 'application/json;charset=utf-8',
  'cache-control': 'no-cache, no-store, must-revalidate',
};

export function realWireFolder(): string {
  const given = process.env['LEDGERDESK_REAL_WIRE'];
  if (given !== undefined && given !== '') return given;
  const projectRoot = fileURLToPath(new URL('../../..', import.meta.url));
  return join(projectRoot, '..', 'shared', 'real-wire');
}

function readJson(file: string): unknown {
  const path = join(realWireFolder(), file);
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (error) {
    throw new Error(
      `The contract suite reads the recorded exchanges from ${path} (set LEDGERDESK_REAL_WIRE to another folder): ${(error as Error).message}`,
      { cause: error },
    );
  }
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${what}: not an object`);
  return value as Record<string, unknown>;
}

function text(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new Error(`${what}: not a string`);
  return value;
}

function lowerCased(headers: unknown): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(record(headers ?? {}, 'headers'))) {
    if (typeof value === 'string') result[name.toLowerCase()] = value;
  }
  return result;
}

function cassettes(): RecordedExchange[] {
  const file = record(readJson('sbx-cassettes.json'), 'sbx-cassettes.json');
  const interactions = file['interactions'];
  if (!Array.isArray(interactions)) throw new Error('sbx-cassettes.json: no interactions');
  return interactions.map((entry: unknown, index) => {
    const interaction = record(entry, `interactions[${String(index)}]`);
    const name = text(interaction['cassette'], `interactions[${String(index)}].cassette`);
    const request = record(interaction['request'], `${name} request`);
    const response = record(interaction['response'], `${name} response`);
    const requestHeaders: Record<string, string> = {};
    for (const [header, value] of Object.entries(record(request['headers'] ?? {}, `${name} request headers`))) {
      if (typeof value === 'string') requestHeaders[header] = value;
    }
    return {
      name,
      source: 'sbx-cassettes.json' as const,
      recordedAt: new Date(text(interaction['recorded_at'], `${name} recorded_at`)),
      request: {
        method: text(request['method'], `${name} method`),
        path: text(request['path'], `${name} path`),
        headers: requestHeaders,
        body: request['body'] ?? null,
        recorded: true,
      },
      response: {
        status: Number(response['status']),
        headers: lowerCased(response['headers']),
        body: response['body_empty'] === true ? null : (response['body'] ?? null),
      },
    };
  });
}

function examples(): RecordedExchange[] {
  const file = record(readJson('hack-examples.json'), 'hack-examples.json');
  const list = file['examples'];
  if (!Array.isArray(list)) throw new Error('hack-examples.json: no examples');
  return list.map((entry: unknown, index) => {
    const example = record(entry, `examples[${String(index)}]`);
    const name = text(example['id'], `examples[${String(index)}].id`);
    const request = record(example['request'], `${name} request`);
    const response = record(example['response'], `${name} response`);
    return {
      name,
      source: 'hack-examples.json' as const,
      recordedAt: null,
      request: {
        method: text(request['method'], `${name} method`),
        path: text(request['path'], `${name} path`),
        headers: {},
        body: request['body'] ?? null,
        recorded: false,
      },
      response: {
        status: Number(response['status']),
        headers: { ...SERVICE_JSON_HEADERS },
        body: response['body'] ?? null,
      },
    };
  });
}

/** Every recorded exchange: the real sandbox's in the order they were recorded, then the vendor's examples. */
export function recordedExchanges(): RecordedExchange[] {
  const recorded = cassettes().sort(
    (left, right) => (left.recordedAt?.getTime() ?? 0) - (right.recordedAt?.getTime() ?? 0),
  );
  return [...recorded, ...examples()];
}
