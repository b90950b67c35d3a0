/** Every route of the sandbox, in the order they are registered. */
import type { RouteRegistration } from '../http/server.ts';
import { registerAccountApplicationRoutes } from './accountApplicationRoutes.ts';
import { registerAccountRoutes } from './accountRoutes.ts';
import { registerAchRoutes } from './achRoutes.ts';
import { registerAuthRoutes } from './authRoutes.ts';
import { registerBusinessApplicationRoutes } from './businessApplicationRoutes.ts';
import { registerCardProductRoutes } from './cardProductRoutes.ts';
import { registerDocumentRoutes } from './documentRoutes.ts';
import { registerFileRoutes } from './fileRoutes.ts';
import { registerOpenApiRoutes } from './openApiRoutes.ts';
import { registerOrganizationRoutes } from './organizationRoutes.ts';
import { registerPersonApplicationRoutes } from './personApplicationRoutes.ts';
import { registerPingRoutes } from './pingRoutes.ts';
import { registerSimulationRoutes } from './simulationRoutes.ts';
import { registerWebhookRoutes } from './webhookRoutes.ts';
import { registerWebhookSendRoutes } from './webhookSendRoutes.ts';
import { registerWebhookUrlPolicyRoutes } from './webhookUrlPolicyRoutes.ts';

export const SANDBOX_ROUTES: readonly RouteRegistration[] = [
  registerPingRoutes,
  registerAuthRoutes,
  registerAccountRoutes,
  registerDocumentRoutes,
  registerFileRoutes,
  registerCardProductRoutes,
  registerAccountApplicationRoutes,
  registerPersonApplicationRoutes,
  registerBusinessApplicationRoutes,
  registerAchRoutes,
  registerWebhookRoutes,
  registerWebhookSendRoutes,
  registerSimulationRoutes,
  registerOrganizationRoutes,
  registerWebhookUrlPolicyRoutes,
  registerOpenApiRoutes,
];
