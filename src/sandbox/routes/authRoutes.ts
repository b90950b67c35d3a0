/**
 * Sandbox-only: POST /auth/token mints an HS256 bearer token for the API key, authenticated
 * with Basic (the interface does not publish how tokens are issued).
 */
import { json } from '../http/answer.ts';
import { bodyOf } from '../http/requestInput.ts';
import type { Router } from '../http/router.ts';
import { mintToken } from '../auth/jwt.ts';
import { RequestProblem } from '../requestProblem.ts';
import type { SandboxContext } from '../sandboxContext.ts';
import { TOKEN_LIFETIME_DEFAULT_SECONDS, tokenRequest } from '../../shared/bank/index.ts';

export function registerAuthRoutes(router: Router, context: SandboxContext): void {
  router.post('/auth/token', (request) => {
    const who = context.checkBasic(request.headers.authorization);
    if (!who.ok) throw new RequestProblem(401, who.reason, { 'www-authenticate': 'Basic realm="sandbox"' });
    const asked = request.body === undefined ? {} : bodyOf(request, tokenRequest);
    const lifetime = asked.expires_in ?? TOKEN_LIFETIME_DEFAULT_SECONDS;
    return json(200, {
      access_token: mintToken(context.keyId, context.keySecret, lifetime),
      token_type: 'Bearer',
      expires_in: lifetime,
    });
  });
}
