/**
 * The sandbox's HTTP server (Fastify). JSON bodies only, at most 1 MiB (POST /file takes raw
 * bytes up to 10 MiB in its own scope); every request but GET /ping authenticated first;
 * every failure answered as `{"error": "<one sentence>"}` with its status.
 */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { LocalServerGuard } from '../../shared/security/localServerGuard.ts';
import { RequestProblem } from '../requestProblem.ts';
import type { SandboxContext } from '../sandboxContext.ts';
import { leanAnswer } from '../lean/leanAnswers.ts';
import { json } from './answer.ts';
import { drainRefusedBody } from './refusedBody.ts';
import { createRouter, sendAnswer, type Router } from './router.ts';

const JSON_BODY_MAX_BYTES = 1024 * 1024;
/** The longest path segment (an id) the router matches; longer ones are refused with 400. */
export const PATH_SEGMENT_MAX_CHARS = 100;

const WWW_AUTHENTICATE = 'Basic realm="sandbox", Bearer realm="sandbox"';

/** Routes that answer without the API key: the connectivity check, and token issuance (its own Basic check). */
function isPublic(request: FastifyRequest): boolean {
  const path = request.url.split('?', 1)[0];
  return (request.method === 'GET' && path === '/ping') || (request.method === 'POST' && path === '/auth/token');
}

/** JSON nested deeper than this is refused: hashing or validating it would recurse that deep and overflow the stack. */
export const JSON_MAX_DEPTH = 64;

/** How deeply objects and arrays nest in JSON text (a linear scan, no recursion). */
function jsonNestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index += 1; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > deepest) deepest = depth;
    } else if (code === 0x7d || code === 0x5d) {
      depth -= 1;
    }
  }
  return deepest;
}

/**
 * An empty body sent with Content-Type: application/json is no body (the real client sends that
 * header on bodyless GET and DELETE; real-wire delete_webhook_success): a route that needs a
 * body still refuses it, by name, in bodyOf.
 */
function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch (error) {
    throw new RequestProblem(
      400,
      `The request body is not valid JSON (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  if (jsonNestingDepth(text) > JSON_MAX_DEPTH) {
    throw new RequestProblem(400, `The request body is nested too deeply: at most ${String(JSON_MAX_DEPTH)} levels.`);
  }
  return parsed;
}

function answerForError(error: FastifyError | RequestProblem | Error, request: FastifyRequest) {
  if (error instanceof RequestProblem)
    return { ...json(error.status, { error: error.message }), headers: error.headers };
  const code = 'code' in error ? error.code : undefined;
  switch (code) {
    // Refused by the router before any route or hook runs; Fastify's own answer would not be {error}.
    case 'FST_ERR_BAD_URL':
      return json(400, { error: 'The URL is not valid: a path segment is not correctly percent-encoded.' });
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return json(400, {
        error: `A path segment is too long: ids have at most ${String(PATH_SEGMENT_MAX_CHARS)} characters.`,
      });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return json(413, {
        error: `The request body is too large: ${request.url.startsWith('/file') ? 'files take at most 10 MiB' : 'JSON bodies take at most 1 MiB'}.`,
      });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return json(415, {
        error: `Content-Type ${JSON.stringify(request.headers['content-type'] ?? '(none)')} is not supported here: send application/json.`,
      });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return json(400, { error: 'The Content-Length header does not match the request body.' });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return json(400, { error: 'The request body is empty: send a JSON object.' });
    default:
      break;
  }
  const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (status >= 400 && status < 500) return json(status, { error: error.message });
  // Never echo internals (or anything a request carried) in a 500.
  return json(500, { error: 'The sandbox failed to handle this request; see its console for details.' });
}

export type RouteRegistration = (router: Router, context: SandboxContext, app: FastifyInstance) => void;

/**
 * `admit` runs first on every request (before authentication, before the body is read): a
 * request for another Host, or made by a web page, is refused and touches nothing.
 */
export function buildServer(
  context: SandboxContext,
  registrations: readonly RouteRegistration[],
  admit: LocalServerGuard = () => null,
): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: JSON_BODY_MAX_BYTES,
    exposeHeadRoutes: false,
    // In-flight requests finish on close; idle keep-alive sockets are closed at once.
    forceCloseConnections: 'idle',
    // Requests begun before close() finish; new ones on kept-alive sockets get 503.
    return503OnClosing: true,
    routerOptions: { maxParamLength: PATH_SEGMENT_MAX_CHARS },
    frameworkErrors: (error, request, reply) => {
      sendAnswer(reply, answerForError(error, request));
    },
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(String(body)));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  const router = createRouter(app, context.lean ? leanAnswer : undefined);
  /**
   * A known path asked with a method it does not serve: 405 with Allow, whatever the method
   * (QUERY, PROPFIND, HEAD, OPTIONS...). Answered before authentication and before any body is
   * read: the answer says only what /openapi.json says, and a method Fastify would parse a body
   * for (QUERY) must not first be refused for its missing Content-Type.
   */
  function wrongMethodAnswer(request: FastifyRequest) {
    const path = request.url.split('?', 1)[0] ?? '';
    const allowed = router.allowedMethods(path);
    if (allowed.length === 0 || (allowed as readonly string[]).includes(request.method)) return null;
    return {
      ...json(405, { error: `Method ${request.method} is not allowed on ${path}: use ${allowed.join(' or ')}.` }),
      headers: { allow: allowed.join(', ') },
    };
  }

  function notFoundAnswer(request: FastifyRequest) {
    const path = request.url.split('?', 1)[0] ?? '';
    return json(404, { error: `No route ${request.method} ${path}: see GET /openapi.json.` });
  }

  // The key that authenticated each request, for the traffic line (weakly held: gone with the request).
  const keyIds = new WeakMap<object, string>();
  const traffic = context.traffic;
  if (traffic !== undefined) {
    app.addHook('onResponse', (request, reply, done) => {
      traffic({
        kind: 'request',
        time: new Date().toISOString(),
        method: request.method,
        path: request.url.split('?', 1)[0] ?? '',
        status: reply.statusCode,
        ms: reply.elapsedTime,
        keyId: keyIds.get(request) ?? null,
      });
      done();
    });
  }

  app.addHook('onRequest', async (request, reply) => {
    const refusal = admit(request.headers, request.raw.rawHeaders);
    if (refusal !== null) {
      sendAnswer(reply, { ...json(refusal.status, { error: refusal.error }), headers: { connection: 'close' } });
      return reply;
    }
    const wrongMethod = request.is404 ? wrongMethodAnswer(request) : null;
    if (wrongMethod !== null) {
      sendAnswer(reply, wrongMethod);
      return reply;
    }
    if (isPublic(request)) return;
    const who = context.authenticate(request.headers.authorization);
    if (!who.ok) {
      sendAnswer(reply, { ...json(401, { error: who.reason }), headers: { 'www-authenticate': WWW_AUTHENTICATE } });
      return reply;
    }
    if (traffic !== undefined) keyIds.set(request, who.keyId);
    const waitSeconds = context.rateLimiter?.take(who.keyId) ?? null;
    if (waitSeconds !== null) {
      sendAnswer(reply, {
        ...json(429, { error: `Too many requests for this API key: try again in ${String(waitSeconds)} s.` }),
        headers: { 'retry-after': String(waitSeconds) },
      });
      return reply;
    }
    if (request.is404) {
      // Answered here, before a body is parsed for a route that does not exist (QUERY, PROPFIND...).
      sendAnswer(reply, notFoundAnswer(request));
      return reply;
    }
  });

  app.setErrorHandler((error: FastifyError | RequestProblem, request, reply) => {
    if (!(error instanceof RequestProblem) && (error.statusCode ?? 500) >= 500) {
      process.stderr.write(
        `sandbox: ${request.method} ${request.url.split('?', 1)[0] ?? ''} failed: ${error.stack ?? error.message}\n`,
      );
    }
    const answer = answerForError(error, request);
    if (answer.status === 413) {
      // Fastify asked for the connection to close; it stays open while the rest is drained.
      reply.removeHeader('connection');
      drainRefusedBody(request.raw);
    }
    return sendAnswer(reply, answer);
  });

  app.setNotFoundHandler((request, reply) => {
    return sendAnswer(reply, wrongMethodAnswer(request) ?? notFoundAnswer(request));
  });

  for (const register of registrations) register(router, context, app);
  return app;
}
