/** Connectivity check (conventions.md): the one route that needs no authentication. */
import { json } from '../http/answer.ts';
import type { Router } from '../http/router.ts';

export function registerPingRoutes(router: Router): void {
  router.get('/ping', () => json(200, { status: 'ok' }));
}
