/** Every route of the sandbox, in the order they are registered. */
import type { RouteRegistration } from '../http/server.ts';
import { registerAccountRoutes } from './accountRoutes.ts';
import { registerAuthRoutes } from './authRoutes.ts';
import { registerPingRoutes } from './pingRoutes.ts';
import { registerWebhookRoutes } from './webhookRoutes.ts';
import { registerWebhookSendRoutes } from './webhookSendRoutes.ts';

export const SANDBOX_ROUTES: readonly RouteRegistration[] = [
  registerPingRoutes,
  registerAuthRoutes,
  registerAccountRoutes,
  registerWebhookRoutes,
  registerWebhookSendRoutes,
];
