/**
 * What a route answers: a status and finished bytes. JSON answers carry the service's
 * Content-Type and Cache-Control (conventions.md "Wire conventions").
 */
export const JSON_CONTENT_TYPE = 'application/json;charset=utf-8';
export const NO_STORE = 'no-cache, no-store, must-revalidate';

export interface Answer {
  status: number;
  /** Finished bytes; empty for 204. */
  body: string | Buffer;
  contentType: string;
  headers?: Readonly<Record<string, string>>;
}

export function json(status: number, value: unknown): Answer {
  return { status, body: JSON.stringify(value), contentType: JSON_CONTENT_TYPE };
}

/** JSON already serialized (a cached page, a stored record). */
export function jsonText(status: number, text: string | Buffer): Answer {
  return { status, body: text, contentType: JSON_CONTENT_TYPE };
}

export function noContent(): Answer {
  return { status: 204, body: '', contentType: JSON_CONTENT_TYPE };
}
