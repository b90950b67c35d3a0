/**
 * Whether the OS keychain can keep secrets, and if not, a status the UI can show with what
 * to do. On Linux the keychain is a Secret Service (gnome-keyring or KWallet) reached over
 * the D-Bus session bus; when it is missing we say so, and never fall back to the kernel
 * keyring, which forgets everything at reboot.
 */
import { AsyncEntry } from '@napi-rs/keyring';

export const KEYCHAIN_SERVICE = 'Ledgerdesk';

type KeychainProblem = 'no-session-bus' | 'no-secret-service' | 'locked' | 'failed';

export type KeychainStatus =
  | { available: true; backend: string }
  | { available: false; problem: KeychainProblem; message: string; remedy: string };

/** Entry options: on Linux, pinned to the Secret Service so nothing falls back silently. */
export function keyringEntryOptions(platform: NodeJS.Platform = process.platform) {
  return platform === 'linux' ? { linux: { store: 'secret-service' as const } } : undefined;
}

function backendName(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return 'macOS Keychain';
  if (platform === 'win32') return 'Windows Credential Manager';
  return 'Secret Service';
}

/** Turns a keyring library failure into a problem a person can fix. */
export function describeKeychainFailure(
  error: unknown,
  platform: NodeJS.Platform = process.platform,
): Extract<KeychainStatus, { available: false }> {
  const text = error instanceof Error ? error.message : String(error);
  if (platform === 'linux') {
    if (
      /DBUS_SESSION_BUS_ADDRESS|autolaunch|AccessDenied|Failed to connect to socket|No such file or directory/i.test(
        text,
      )
    ) {
      return {
        available: false,
        problem: 'no-session-bus',
        message: 'No keychain: there is no D-Bus session bus, so no Secret Service can be reached.',
        remedy:
          'Sign in to a desktop session (GNOME, KDE, …), or start one with dbus-run-session and run gnome-keyring-daemon --unlock inside it.',
      };
    }
    if (/org\.freedesktop\.secrets|ServiceUnknown|not provided by any \.service files|NameHasNoOwner/i.test(text)) {
      return {
        available: false,
        problem: 'no-secret-service',
        message: 'No keychain: no Secret Service is running on this desktop.',
        remedy: 'Install gnome-keyring (Debian/Ubuntu: sudo apt install gnome-keyring) or KWallet, then sign in again.',
      };
    }
    if (/locked|prompt|dismissed|no result found|NoStorageAccess/i.test(text)) {
      return {
        available: false,
        problem: 'locked',
        message: 'The keychain is locked, so secrets cannot be stored or read.',
        remedy: 'Unlock your login keyring (for example with Seahorse, "Passwords and Keys") and try again.',
      };
    }
  }
  return {
    available: false,
    problem: 'failed',
    message: `The ${backendName(platform)} refused the request: ${text}`,
    remedy: 'Check that the system keychain is installed and unlocked, then try again.',
  };
}

/**
 * Probes the keychain with a real write, read and delete of a throwaway entry: the only
 * check that proves secrets will be kept (a locked gnome-keyring answers reads but refuses
 * writes).
 */
export async function detectKeychain(service: string = KEYCHAIN_SERVICE): Promise<KeychainStatus> {
  const probeValue = `probe-${String(process.pid)}-${String(Date.now())}`;
  try {
    const entry = new AsyncEntry(service, '__ledgerdesk_keychain_probe__', keyringEntryOptions());
    await entry.setPassword(probeValue);
    const readBack = await entry.getPassword();
    await entry.deleteCredential();
    if (readBack !== probeValue) {
      return {
        available: false,
        problem: 'failed',
        message: `The ${backendName()} did not give back what was stored.`,
        remedy: 'Check the system keychain, then try again.',
      };
    }
    return { available: true, backend: backendName() };
  } catch (error) {
    return describeKeychainFailure(error);
  }
}
