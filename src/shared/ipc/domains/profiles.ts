/**
 * Profiles: named environments (the embedded sandbox, remote banks). A profile never holds
 * its secret; that is the credentials domain's, and it lives only in the OS keychain.
 */
import { z } from 'zod';
import { confirmProduction, idText, noInput, profileId } from '../common.ts';
import { profileBaseUrl, profileName } from '../../profiles/profileFields.ts';

export const AUTH_SCHEMES = ['basic', 'bearer'] as const;

/** `embedded`: the local sandbox started by the app; `remote`: any bank at a base URL. */
const PROFILE_KINDS = ['embedded', 'remote'] as const;

/**
 * Why a profile makes no call until the user acts: `needs-secret-again` when its secret was
 * dropped because its address moved to another origin; `needs-attention` when its saved
 * address breaks the https rule (saved by an earlier version).
 */
const PROFILE_ATTENTION_KINDS = ['needs-secret-again', 'needs-attention'] as const;

const profileAttention = z.object({
  kind: z.enum(PROFILE_ATTENTION_KINDS),
  /** A sentence: what is wrong and what to do. */
  message: z.string(),
});

const profile = z.object({
  id: z.string().min(1),
  name: z.string(),
  kind: z.enum(PROFILE_KINDS),
  baseUrl: z.string(),
  authScheme: z.enum(AUTH_SCHEMES),
  /** The API key id for Basic (never the secret); null for Bearer. */
  keyId: z.string().nullable(),
  /** Every write against a Production profile needs `confirmProduction: true`. */
  production: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Null when the profile can talk to its bank. */
  attention: profileAttention.nullable(),
});
export type Profile = z.infer<typeof profile>;

const profileList = z.object({
  profiles: z.array(profile),
  /** The profile the app works on; null only before the first profile exists. */
  activeProfileId: z.string().nullable(),
});

export const profileCreateInput = z.strictObject({
  name: profileName,
  baseUrl: profileBaseUrl,
  authScheme: z.enum(AUTH_SCHEMES),
  keyId: idText.optional(),
  production: z.boolean().default(false),
});

const profileUpdateInput = z
  .strictObject({
    id: profileId,
    name: profileName.optional(),
    baseUrl: profileBaseUrl.optional(),
    authScheme: z.enum(AUTH_SCHEMES).optional(),
    keyId: idText.nullable().optional(),
    production: z.boolean().optional(),
    /** Required to switch the Production guard off. */
    confirmProduction,
    /**
     * Required to move the base URL to another origin (scheme, host or port): the stored
     * secret is dropped, and the profile waits for it to be entered again.
     */
    confirmSecretDrop: z
      .literal(true, { message: 'must be true to confirm that the secret is dropped with the old address' })
      .optional(),
  })
  .refine(
    (input) =>
      Object.keys(input).some((key) => key !== 'id' && key !== 'confirmProduction' && key !== 'confirmSecretDrop'),
    { message: 'must change at least one field' },
  );

const connectionTest = z.object({
  profileId: z.string(),
  ok: z.boolean(),
  /** Round trip of GET /ping in milliseconds, when it answered. */
  latencyMs: z.number().min(0).nullable(),
  /** A sentence: "Connected." or what went wrong and what to do. */
  message: z.string(),
});
export type ConnectionTest = z.infer<typeof connectionTest>;

export const profilesOperations = {
  list: { input: noInput, output: profileList },
  create: { input: profileCreateInput, output: profile },
  update: { input: profileUpdateInput, output: profile },
  /** Removes the profile, its keychain entry and its cached data. */
  remove: { input: z.strictObject({ id: profileId }), output: z.object({ removed: z.boolean() }) },
  setActive: { input: z.strictObject({ id: profileId }), output: profileList },
  testConnection: { input: z.strictObject({ id: profileId }), output: connectionTest },
} as const;
