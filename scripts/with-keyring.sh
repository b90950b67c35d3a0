#!/bin/sh
# Run a command inside its own D-Bus session with a fresh, unlocked gnome-keyring whose
# files live in a throwaway folder, so tests talk to a real Secret Service and a
# developer's own keychain is never touched. Where gnome-keyring or dbus-run-session is
# missing, the command runs as it is and the keychain tests skip with a message.
set -eu
if command -v dbus-run-session >/dev/null 2>&1 && command -v gnome-keyring-daemon >/dev/null 2>&1; then
  keyring_home=$(mktemp -d "${TMPDIR:-/tmp}/ledgerdesk-keyring.XXXXXX")
  trap 'rm -rf "$keyring_home"' EXIT INT TERM
  export XDG_DATA_HOME="$keyring_home"
  export LEDGERDESK_TEST_SECRET_SERVICE=1
  # The password only unlocks this throwaway keyring.
  # Warm the keyring once (scripts/warm-keyring.mjs) before the tests start racing for it.
  warm_up="$(dirname "$0")/warm-keyring.mjs"
  dbus-run-session -- sh -c 'echo -n ledgerdesk-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; node "$0" || true; exec "$@"' "$warm_up" "$@"
else
  echo "with-keyring: gnome-keyring or dbus-run-session not installed; keychain tests will skip." >&2
  exec "$@"
fi
