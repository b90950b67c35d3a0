/** Sandbox-only: POST /simulation `{type, simulation}` answers 202 (conventions.md). */
import { simulationRequest } from '../../shared/bank/index.ts';
import { json } from '../http/answer.ts';
import { idempotent } from '../http/idempotency.ts';
import { bodyOf } from '../http/requestInput.ts';
import type { Router } from '../http/router.ts';
import type { SandboxContext } from '../sandboxContext.ts';
import { runSimulation } from '../simulations/runSimulation.ts';

export function registerSimulationRoutes(router: Router, context: SandboxContext): void {
  router.post('/simulation', (request) =>
    idempotent(context, request, 'POST /simulation', () =>
      json(202, runSimulation(context, bodyOf(request, simulationRequest))),
    ),
  );
}
