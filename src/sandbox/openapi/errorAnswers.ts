/**
 * The sandbox's error answers, as reusable OpenAPI responses: every one is `{"error": "<one
 * sentence>"}` (conventions.md), with an example sentence the sandbox really says. Which of
 * them an operation can give is decided per operation in openApiDocument.ts; the fuzzing test
 * (tests/integration/reliability/sandboxFuzz.test.ts) fails on any status it sees answered
 * that the operation does not list.
 */

interface ErrorAnswer {
  /** The name under components/responses. */
  name: string;
  description: string;
  example: string;
  /** Fields the body carries besides `error` (the Error schema keeps unknown fields). */
  extra?: Record<string, unknown>;
  headers?: Record<string, unknown>;
}

const ERROR_ANSWERS = {
  '400': {
    name: 'BadRequest',
    description: 'Bad input: the sentence names every field or parameter at fault. Nothing was written.',
    example: 'Invalid request body: name: must not be empty; file_id: must be an id starting with file_.',
  },
  '401': {
    name: 'Unauthorized',
    description: 'Missing or invalid credentials (no header, wrong key, a bad or expired token).',
    example: 'The API key id or secret is wrong.',
    headers: {
      'WWW-Authenticate': {
        description: 'The schemes this server accepts.',
        schema: { type: 'string', examples: ['Basic realm="sandbox", Bearer realm="sandbox"'] },
      },
    },
  },
  '403': {
    name: 'Forbidden',
    description:
      'The request was made by a web page (it carries Origin, or Sec-Fetch-Site other than none) whose origin was not allowed with --allow-origin.',
    example:
      'Requests from web pages are refused: this one comes from the page at "https://page.example" (allow an origin with --allow-origin if you mean it).',
  },
  '404': {
    name: 'NotFound',
    description: 'No object with that id.',
    example: 'No document with id doc_5h1j8v3n6p2w9e.',
  },
  '409': {
    name: 'Conflict',
    description:
      'Conflicts with what was done before: an X-Idempotency-Key reused with another body, or a move the object cannot make now.',
    example: 'X-Idempotency-Key "create-doc-1182" was already used for a different POST /document request.',
  },
  '413': {
    name: 'ContentTooLarge',
    description: 'The request body is too large: JSON bodies take at most 1 MiB, files at most 10 MiB.',
    example: 'The request body is too large: JSON bodies take at most 1 MiB.',
  },
  '415': {
    name: 'UnsupportedMediaType',
    description: 'The Content-Type of the request body is not accepted here.',
    example: 'Content-Type "text/plain" is not supported here: send application/json.',
  },
  '421': {
    name: 'MisdirectedRequest',
    description:
      "The Host header is not this server's own address (what a DNS-rebinding page sends); names are allowed with --allow-host.",
    example:
      'This server answers only requests addressed to 127.0.0.1:4010, localhost:4010 or [::1]:4010 (or a host allowed with --allow-host), not "rebound.example".',
  },
  '429': {
    name: 'TooManyRequests',
    description: 'More requests a second than --rate-limit allows for this API key: wait Retry-After seconds.',
    example: 'Too many requests for this API key: try again in 1 s.',
    headers: {
      'Retry-After': {
        description: 'Whole seconds to wait before the next request.',
        schema: { type: 'integer', minimum: 1, examples: [1] },
      },
    },
  },
  '503': {
    name: 'ServiceUnavailable',
    description:
      "The sandbox is shutting down: requests already begun finish, new ones are refused (the body is Fastify's, with error, message and statusCode).",
    example: 'Service Unavailable',
    extra: { message: 'Service Unavailable', statusCode: 503 },
  },
} as const satisfies Record<string, ErrorAnswer>;

export type ErrorStatus = keyof typeof ERROR_ANSWERS;

/** components/responses: one entry per error answer. */
export function errorResponseComponents(errorSchemaRef: string): Record<string, unknown> {
  return Object.fromEntries(
    Object.values(ERROR_ANSWERS).map((answer: ErrorAnswer) => [
      answer.name,
      {
        description: answer.description,
        ...(answer.headers === undefined ? {} : { headers: answer.headers }),
        content: {
          'application/json': { schema: { $ref: errorSchemaRef }, example: { error: answer.example, ...answer.extra } },
        },
      },
    ]),
  );
}

/** An operation's error answers, each a reference to its component. */
export function errorResponses(statuses: readonly ErrorStatus[]): Record<string, unknown> {
  return Object.fromEntries(
    statuses.map((status) => [status, { $ref: `#/components/responses/${ERROR_ANSWERS[status].name}` }]),
  );
}
