// Run by with-keyring.sh inside its fresh D-Bus session, before the tests: the first access
// to a new gnome-keyring creates its default collection, and test processes racing to be
// first could see it missing for a moment. One write and delete here makes it exist.
import { AsyncEntry } from '@napi-rs/keyring';

const entry = new AsyncEntry('Ledgerdesk-warm-up', 'probe');
for (let attempt = 1; ; attempt += 1) {
  try {
    await entry.setPassword('warm-up');
    await entry.deletePassword();
    break;
  } catch (error) {
    if (attempt === 20) {
      process.stderr.write(`with-keyring: the throwaway keyring did not answer: ${String(error)}\n`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
