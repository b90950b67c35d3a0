import { describe, expect, it } from 'vitest';
import { describeKeychainFailure, keyringEntryOptions } from '../../../src/main/services/credentials/keychainStatus.ts';

describe('keychain status on Linux', () => {
  it('pins entries to the Secret Service so nothing falls back to the kernel keyring', () => {
    expect(keyringEntryOptions('linux')).toEqual({ linux: { store: 'secret-service' } });
    expect(keyringEntryOptions('darwin')).toBeUndefined();
  });

  it('explains a missing session bus', () => {
    const status = describeKeychainFailure(
      new Error(
        'Platform failure: DBus error: Using X11 for dbus-daemon autolaunch was disabled at compile time, set your DBUS_SESSION_BUS_ADDRESS instead',
      ),
      'linux',
    );
    expect(status).toMatchObject({ available: false, problem: 'no-session-bus' });
    expect(status.remedy).toMatch(/desktop session|dbus-run-session/);
  });

  it('says what to install when no Secret Service runs', () => {
    const status = describeKeychainFailure(
      new Error(
        'DBus error: org.freedesktop.DBus.Error.ServiceUnknown: The name org.freedesktop.secrets was not provided by any .service files',
      ),
      'linux',
    );
    expect(status).toMatchObject({ available: false, problem: 'no-secret-service' });
    expect(status.remedy).toMatch(/apt install gnome-keyring/);
  });

  it('recognises a locked keyring', () => {
    expect(
      describeKeychainFailure(new Error("Couldn't access platform storage: Secret Service: no result found"), 'linux'),
    ).toMatchObject({
      problem: 'locked',
    });
  });
});
