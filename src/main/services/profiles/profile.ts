/**
 * A profile: one environment the app talks to. The embedded sandbox is the default and
 * needs no input; remote profiles carry a base URL and an auth scheme. A profile never
 * holds a secret: the key secret or bearer token lives in the keychain (credentials/).
 */
import { z } from 'zod';
import {
  baseUrlProblem,
  profileBaseUrl as baseUrl,
  profileName,
  storedProfileBaseUrl,
} from '../../../shared/profiles/profileFields.ts';
import { DISCLOSURE_CLASSES } from '../../../shared/personalData/exportDisclosure.ts';
import {
  DEFAULT_NETWORK_SETTINGS,
  networkSettings,
  type NetworkSettings,
} from '../../../shared/profiles/networkFields.ts';

const PROFILE_KINDS = ['embedded-sandbox', 'remote'] as const;

/** Basic: key id + key secret. Bearer: a JWT access token. */
const AUTH_SCHEMES = ['basic', 'bearer'] as const;
export type AuthScheme = (typeof AUTH_SCHEMES)[number];

/** The embedded sandbox's profile has a fixed id, so every run finds the same one. */
export const EMBEDDED_SANDBOX_PROFILE_ID = 'local-sandbox';

/** A screening threshold: a score above 0 and at most 1. */
export const screeningThreshold = z
  .number({ message: 'must be a number from 0 to 1, such as 0.88' })
  .gt(0, { message: 'must be a number from 0 to 1, such as 0.88' })
  .max(1, { message: 'must be a number from 0 to 1, such as 0.88' });

export const profile = z.strictObject({
  id: z.string().min(1),
  name: profileName,
  kind: z.enum(PROFILE_KINDS),
  /**
   * Null for the embedded sandbox, whose port is chosen when it starts. Read with the
   * older, looser rule: a saved profile that breaks today's rule opens as needing attention.
   */
  baseUrl: storedProfileBaseUrl.nullable(),
  authScheme: z.enum(AUTH_SCHEMES),
  /** The API key id (the Basic user name); null for Bearer profiles and the embedded sandbox. */
  keyId: z.string().min(1).nullable(),
  /** Production profiles make every write ask for an explicit confirmation. */
  production: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /**
   * Why the profile's secret was dropped (its address moved to another origin), until a new
   * one is entered: the profile makes no call meanwhile. Absent when nothing was dropped.
   */
  secretDropped: z.string().optional(),
  /**
   * The embedded sandbox only, for development: it answers in the real service's lean shapes
   * (the sandbox's `--lean`), from the next start. Absent: its own full shapes.
   */
  lean: z.boolean().optional(),
  /**
   * The classes of applicants' personal fields this profile's exports and review reports print
   * in clear (shared/personalData/exportDisclosure.ts). Absent: nothing, every field masked.
   */
  exportUnmasked: z.array(z.enum(DISCLOSURE_CLASSES)).optional(),
  /**
   * The score from which an applicant matching a sanctions list entry is a hit (issue 40).
   * Absent: the default, 0.88 (shared/screening/screener.ts, chosen from the measured curve).
   */
  screeningThreshold: screeningThreshold.optional(),
  /**
   * How a remote profile reaches its bank: its proxy (system, environment, explicit, none; the
   * proxy user, never its password) and an extra CA bundle. Absent: the defaults (the system's
   * proxy settings, the OS trust store). The embedded sandbox has none: it is always direct.
   */
  network: networkSettings.optional(),
});
export type Profile = z.infer<typeof profile>;

/** A profile's network settings, the defaults when it has none. */
export function networkOf(profile: Profile): NetworkSettings {
  return profile.network ?? DEFAULT_NETWORK_SETTINGS;
}

/** What a caller gives to add a remote profile. */
export const newRemoteProfile = z
  .strictObject({
    name: profileName,
    baseUrl,
    authScheme: z.enum(AUTH_SCHEMES),
    keyId: z.string().trim().min(1, { message: 'must not be empty' }).optional(),
    production: z.boolean().default(false),
    network: networkSettings.optional(),
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
    lean: z.boolean().optional(),
    network: networkSettings.optional(),
  })
  .refine((changes) => Object.keys(changes).length > 0, { message: 'must change at least one field' });
export type ProfileChanges = z.input<typeof profileChanges>;

/** The address of the spec's Production environment is not published: a name says it. */
export function describeProfile(profile: Profile): string {
  if (profile.kind === 'embedded-sandbox') {
    return `${profile.name} (embedded sandbox${profile.lean === true ? ", lean: the real service's shapes" : ''})`;
  }
  return `${profile.name} (${profile.production ? 'production, ' : ''}${profile.baseUrl ?? ''})`;
}

/**
 * What keeps a profile from talking to its bank until the user acts, in a sentence, or
 * null. A saved address that breaks the https rule (earlier versions accepted it) is never
 * fixed silently and never used: the profile waits for a new address or its removal.
 */
export function profileAttention(profile: Profile): string | null {
  if (profile.kind !== 'remote' || profile.baseUrl === null) return null;
  const problem = baseUrlProblem(profile.baseUrl);
  return problem === null ? null : `Profile ${profile.name} needs attention: its base URL ${problem}.`;
}
