/**
 * A profile: one environment the app talks to. The embedded sandbox is the default and
 * needs no input; remote profiles carry a base URL and an auth scheme. A profile never
 * holds a secret: the key secret or bearer token lives in the keychain (credentials/).
 */
import { z } from 'zod';
import { profileBaseUrl as baseUrl, profileName } from '../../../shared/profiles/profileFields.ts';

export const PROFILE_KINDS = ['embedded-sandbox', 'remote'] as const;
export type ProfileKind = (typeof PROFILE_KINDS)[number];

/** Basic: key id + key secret. Bearer: a JWT access token. */
export const AUTH_SCHEMES = ['basic', 'bearer'] as const;
export type AuthScheme = (typeof AUTH_SCHEMES)[number];

/** The embedded sandbox's profile has a fixed id, so every run finds the same one. */
export const EMBEDDED_SANDBOX_PROFILE_ID = 'local-sandbox';

export const profile = z.strictObject({
  id: z.string().min(1),
  name: profileName,
  kind: z.enum(PROFILE_KINDS),
  /** Null for the embedded sandbox, whose port is chosen when it starts. */
  baseUrl: baseUrl.nullable(),
  authScheme: z.enum(AUTH_SCHEMES),
  /** The API key id (the Basic user name); null for Bearer profiles and the embedded sandbox. */
  keyId: z.string().min(1).nullable(),
  /** Production profiles make every write ask for an explicit confirmation. */
  production: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Profile = z.infer<typeof profile>;

/** What a caller gives to add a remote profile. */
export const newRemoteProfile = z
  .strictObject({
    name: profileName,
    baseUrl,
    authScheme: z.enum(AUTH_SCHEMES),
    keyId: z.string().trim().min(1, { message: 'must not be empty' }).optional(),
    production: z.boolean().default(false),
  })
  .superRefine((input, context) => {
    if (input.authScheme === 'basic' && input.keyId === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['keyId'],
        message: 'is required when authScheme is basic (the API key id)',
      });
    }
    if (input.authScheme === 'bearer' && input.keyId !== undefined) {
      context.addIssue({ code: 'custom', path: ['keyId'], message: 'is not used when authScheme is bearer' });
    }
  });
export type NewRemoteProfile = z.input<typeof newRemoteProfile>;

export const profileChanges = z
  .strictObject({
    name: profileName.optional(),
    baseUrl: baseUrl.optional(),
    keyId: z.string().trim().min(1, { message: 'must not be empty' }).optional(),
    production: z.boolean().optional(),
  })
  .refine((changes) => Object.keys(changes).length > 0, { message: 'must change at least one field' });
export type ProfileChanges = z.input<typeof profileChanges>;

/** The address of the spec's Production environment is not published: a name says it. */
export function describeProfile(profile: Profile): string {
  if (profile.kind === 'embedded-sandbox') return `${profile.name} (embedded sandbox)`;
  return `${profile.name} (${profile.production ? 'production, ' : ''}${profile.baseUrl ?? ''})`;
}
