/**
 * The control for the no-fallback test: the keyring library's *default* entry (no store
 * required), in the same bus without a Secret Service. Upstream's default builder falls back
 * to the kernel keyring there; this prints whether a key of `service` then showed up in
 * /proc/keys, which proves the test can see a fallback when one happens. The key is deleted.
 */
import { readFileSync } from 'node:fs';
import { AsyncEntry } from '@napi-rs/keyring';

const service = process.argv[2] ?? 'Ledgerdesk-control';
const entry = new AsyncEntry(service, 'probe');
await entry.setPassword('control-value').catch(() => undefined);
const visible = readFileSync('/proc/keys', 'utf8').includes(`@${service}`);
await entry.deleteCredential().catch(() => undefined);
process.stdout.write(JSON.stringify({ fellBackToKernelKeyring: visible }) + '\n');
