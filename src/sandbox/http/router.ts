/**
 * Routes of the sandbox: each handler reads its request and returns an Answer. The router
 * also remembers every path pattern, so a known path asked with the wrong method gets 405
 * with an Allow header instead of a 404.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NO_STORE, type Answer } from './answer.ts';

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
type RouteHandler = (request: FastifyRequest) => Answer | Promise<Answer>;

export interface Router {
  get(path: string, handler: RouteHandler): void;
  post(path: string, handler: RouteHandler): void;
  patch(path: string, handler: RouteHandler): void;
  put(path: string, handler: RouteHandler): void;
  delete(path: string, handler: RouteHandler): void;
  /** Within an encapsulated scope (e.g. one with its own body parsers). */
  within(scope: FastifyInstance): Router;
  /** Methods allowed on a concrete URL path; empty when no route has that path. */
  allowedMethods(path: string): Method[];
}

export function sendAnswer(reply: FastifyReply, answer: Answer): FastifyReply {
  reply.code(answer.status);
  reply.header('content-type', answer.contentType);
  reply.header('cache-control', NO_STORE);
  // As the real service answers (real-wire): old HTTP/1.0 caches honour these, not Cache-Control.
  reply.header('pragma', 'no-cache');
  reply.header('expires', '0');
  if (answer.headers !== undefined) reply.headers(answer.headers);
  return answer.status === 204 ? reply.send() : reply.send(answer.body);
}

function patternOf(path: string): RegExp {
  const escaped = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}$`);
}

/**
 * `present` sees every answer a route returns (not the errors it throws), with the path the
 * route was registered under: the sandbox's `--lean` shapes (lean/leanAnswers.ts).
 */
export function createRouter(
  app: FastifyInstance,
  present: (routePath: string, answer: Answer) => Answer = (_path, answer) => answer,
): Router {
  const patterns: { pattern: RegExp; method: Method }[] = [];

  function routerOn(target: FastifyInstance): Router {
    const add = (method: Method) => (path: string, handler: RouteHandler) => {
      patterns.push({ pattern: patternOf(path), method });
      target.route({
        method,
        url: path,
        handler: async (request, reply) => sendAnswer(reply, present(path, await handler(request))),
      });
    };
    return {
      get: add('GET'),
      post: add('POST'),
      patch: add('PATCH'),
      put: add('PUT'),
      delete: add('DELETE'),
      within: routerOn,
      allowedMethods(path) {
        return [...new Set(patterns.filter((entry) => entry.pattern.test(path)).map((entry) => entry.method))];
      },
    };
  }
  return routerOn(app);
}
