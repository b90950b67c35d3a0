/**
 * Whether this run may open DevTools. In a packaged build the console reaches
 * `window.ledgerdesk`, so a "paste this in the console" trick could drive every IPC channel
 * (review L1): DevTools stay off unless the app was started with `--devtools` on purpose.
 * Unpackaged (development, tests) they stay available.
 */
const DEVTOOLS_SWITCH = '--devtools';

export function devToolsAllowed(isPackaged: boolean, argv: readonly string[]): boolean {
  return !isPackaged || argv.includes(DEVTOOLS_SWITCH);
}
