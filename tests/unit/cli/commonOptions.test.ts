/**
 * Every command line reads `--data` and `--json` the same way and tells a typing mistake with
 * the same error (src/main/cli/common): `ledger`, `ledger serve`, `npm run listen` and its
 * inspect/replay/export.
 */
import { describe, expect, it } from 'vitest';
import { dataFolderOf } from '../../../src/main/cli/common/commonOptions.ts';
import { UsageError } from '../../../src/main/cli/common/usageError.ts';
import { parseLedgerArguments } from '../../../src/main/cli/ledger/cliArguments.ts';
import { readListenArguments } from '../../../src/main/cli/listen/cliArguments.ts';
import { readKeptTrafficArguments } from '../../../src/main/cli/listen/keptTrafficCommands.ts';
import { parseServeArguments } from '../../../src/main/web/serveArguments.ts';

const commandLines: [string, (argv: string[]) => { dataFolder: string | null | undefined; json: boolean }][] = [
  ['ledger', (argv) => parseLedgerArguments(['profile', 'list', ...argv])],
  ['ledger serve', (argv) => parseServeArguments(argv)],
  ['listen', (argv) => readListenArguments(argv, {})],
  ['listen inspect', (argv) => readKeptTrafficArguments(['inspect', ...argv])],
];

describe.each(commandLines)('%s', (_name, parse) => {
  it('reads --data DIR and --json', () => {
    expect(parse(['--data', '/tmp/ledgerdesk-data', '--json'])).toMatchObject({
      dataFolder: '/tmp/ledgerdesk-data',
      json: true,
    });
  });

  it('leaves the data folder to the default and prints for people without them', () => {
    const parsed = parse([]);
    expect(parsed.dataFolder ?? null).toBeNull();
    expect(parsed.json).toBe(false);
  });

  it('tells an unknown option with the one usage error', () => {
    expect(() => parse(['--no-such-option'])).toThrow(UsageError);
  });
});

describe('dataFolderOf', () => {
  it('is --data when given, else the app data folder', () => {
    expect(dataFolderOf('/given', {}, 'linux')).toBe('/given');
    expect(dataFolderOf(undefined, { XDG_CONFIG_HOME: '/x' }, 'linux')).toBe('/x/Ledgerdesk');
    expect(dataFolderOf(null, { XDG_CONFIG_HOME: '/x' }, 'linux')).toBe('/x/Ledgerdesk');
  });
});
