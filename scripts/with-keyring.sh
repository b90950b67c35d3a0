#!/bin/sh
# Run a command inside its own D-Bus session with a fresh, unlocked gnome-keyring whose
# files live in a throwaway folder, so tests talk to a real Secret Service and a
# developer's own keychain is never touched. Where gnome-keyring or dbus-run-session is
# missing, the command runs as it is and the keychain tests skip with a message.
#
# The session bus is started from scripts/keyring-session.conf, which has no service
# directories: `gnome-keyring-daemon --unlock` returns before its daemon owns
# org.freedesktop.secrets, and on a standard session bus the first client in that gap
# makes D-Bus start a second daemon (Debian's org.freedesktop.secrets.service) that does
# not know the password, so every test saw "the keychain is locked" (CI, 2026-12-02).
# With nothing to activate, a client in the gap gets ServiceUnknown and the warm-up waits.
set -eu
if command -v dbus-run-session >/dev/null 2>&1 && command -v gnome-keyring-daemon >/dev/null 2>&1; then
  keyring_home=$(mktemp -d "${TMPDIR:-/tmp}/ledgerdesk-keyring.XXXXXX")
  trap 'rm -rf "$keyring_home"' EXIT INT TERM
  export XDG_DATA_HOME="$keyring_home"
  export LEDGERDESK_TEST_SECRET_SERVICE=1
  here=$(dirname "$0")
  # The password only unlocks this throwaway keyring. The warm-up (scripts/warm-keyring.mjs)
  # waits until this daemon answers and a secret round-trips; if it never does, the run
  # stops here with that reason rather than as dozens of keychain failures.
  dbus-run-session --config-file="$here/keyring-session.conf" -- sh -c '
    echo -n ledgerdesk-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
    node "$0"
    shift
    exec "$@"' "$here/warm-keyring.mjs" _ "$@"
else
  echo "with-keyring: gnome-keyring or dbus-run-session not installed; keychain tests will skip." >&2
  exec "$@"
fi
