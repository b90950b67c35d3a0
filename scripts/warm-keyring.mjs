// Run by with-keyring.sh inside its fresh D-Bus session, before the tests. It waits until the
// throwaway gnome-keyring owns the Secret Service (its unlock command returns before that) and
// proves a secret round-trips: the first access also creates the default collection, which
// test processes racing to be first could otherwise see missing for a moment.
// Exits 1 with the last error when the keyring never answers, so the run stops with the reason.
import { AsyncEntry } from '@napi-rs/keyring';

const entry = new AsyncEntry('Ledgerdesk-warm-up', 'probe', { linux: { store: 'secret-service' } });
const deadline = Date.now() + 30_000;
for (;;) {
  try {
    const value = `warm-up-${String(process.pid)}`;
    await entry.setPassword(value);
    const read = await entry.getPassword();
    await entry.deletePassword();
    if (read !== value) throw new Error(`read back ${String(read)} instead of the value written`);
    break;
  } catch (error) {
    if (Date.now() > deadline) {
      process.stderr.write(`with-keyring: the throwaway keyring did not answer within 30 s: ${String(error)}\n`);
      process.exit(1);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
