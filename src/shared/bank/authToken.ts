/**
 * Sandbox-only token issuance: POST /auth/token, authenticated with Basic, mints an HS256
 * JWT for the API key (the interface does not publish how tokens are issued).
 */
import { z } from 'zod';

export const TOKEN_LIFETIME_DEFAULT_SECONDS = 3600;
const TOKEN_LIFETIME_MAX_SECONDS = 86_400;

export const tokenRequest = z.strictObject({
  /** Seconds the token stays valid; default one hour. */
  expires_in: z
    .number()
    .int({ message: `must be a whole number of seconds from 1 to ${String(TOKEN_LIFETIME_MAX_SECONDS)}` })
    .min(1, { message: `must be a whole number of seconds from 1 to ${String(TOKEN_LIFETIME_MAX_SECONDS)}` })
    .max(TOKEN_LIFETIME_MAX_SECONDS, {
      message: `must be a whole number of seconds from 1 to ${String(TOKEN_LIFETIME_MAX_SECONDS)}`,
    })
    .optional(),
});
export type TokenRequest = z.infer<typeof tokenRequest>;

export const tokenResponse = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().positive(),
});
export type TokenResponse = z.infer<typeof tokenResponse>;
