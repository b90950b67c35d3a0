/** GET /openapi.json, built once per run (it only depends on the schemas and the address). */
import { jsonText } from '../http/answer.ts';
import { originOf } from '../http/requestInput.ts';
import type { Router } from '../http/router.ts';
import { openApiDocument } from '../openapi/openApiDocument.ts';
import type { SandboxContext } from '../sandboxContext.ts';

export function registerOpenApiRoutes(router: Router, context: SandboxContext): void {
  const built = new Map<string, string>();
  router.get('/openapi.json', (request) => {
    const origin = originOf(request, context.baseUrl());
    let text = built.get(origin);
    if (text === undefined) {
      text = JSON.stringify(openApiDocument(origin));
      if (built.size < 16) built.set(origin, text);
    }
    return jsonText(200, text);
  });
}
