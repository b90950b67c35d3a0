/**
 * One writer per data folder, for `ledger` (issue 34): a command takes the folder's lock for the
 * length of its run, like the app does for its whole life. When the desktop app, web mode or the
 * listener holds the folder, the command is sent to it over its control socket
 * (app/controlSocket.ts) and run there, its output and exit code given back as if it had run
 * here; it never opens the folder itself, so it can never clear, re-key or migrate what the app
 * has open. Where the holder cannot take it, the command is refused with one sentence naming the
 * holder, its process and what to do.
 */
import { isAbsolute, resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { askControlSocket } from '../../app/controlSocket.ts';
import { DataFolderInUse, holderName, lockDataFolder } from '../../app/dataFolderLock.ts';
import { dataFolderOf } from '../common/commonOptions.ts';
import type { LedgerArguments } from './cliArguments.ts';

const EXIT_FAILED = 1;

/** Commands that touch no data folder: run here, whoever holds it. */
const FOLDERLESS = new Set(['keychain', 'help']);

/**
 * Commands that must run with the folder free: recovery puts keys back before anything opens the
 * folder (an app running now already opened it without them), and team set-up reads this
 * laptop's files and the database administrator's password.
 */
const FOLDER_FREE_ONLY: Record<string, string> = {
  'record recover': 'recovery puts the keys back before Ledgerdesk opens the folder',
  'record import': 'an archive is imported only into a folder nothing has opened',
  'record restore':
    'the record file is replaced, and Ledgerdesk has it open (restore it from the window, Settings → Record)',
  'team init': 'it reads files and a password on this terminal',
  'team join': 'it reads an invite file on this terminal',
  'team migrate': 'it reads a password on this terminal',
};

/** Commands whose positional words are files: made absolute before the app runs them. */
const FILE_WORDS = new Set(['screening import', 'record export']);

/** Commands that read a secret from standard input: what was piped in is sent with them. */
const READS_STDIN = new Set(['profile add', 'profile update', 'webhooks add', 'webhooks update']);

/** Options that name a file: made absolute here, so the app reads and writes the file this command meant. */
const PATH_OPTIONS = new Set([
  'csv',
  'html',
  'out',
  'ca',
  'password-file',
  'passphrase-file',
  'recovery-key',
  'archive',
  'archive-passphrase-file',
]);

interface Io {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
}

/**
 * The command line as the app must run it: the data folder and every file option absolute, and
 * the passphrase file this terminal's environment names (the app reads its own environment).
 */
function argsForHolder(
  argv: readonly string[],
  dataFolder: string,
  env: NodeJS.ProcessEnv,
  files: ReadonlySet<string>,
): string[] {
  const sent: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const word = argv[index] ?? '';
    // The FILEs of `screening import` are positional words: absolute too, for the same reason.
    if (files.has(word)) {
      sent.push(isAbsolute(word) ? word : resolve(word));
      continue;
    }
    const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(word);
    const name = match?.[1];
    if (name === 'data') {
      if (match?.[2] === undefined) index += 1;
      continue;
    }
    if (name !== undefined && PATH_OPTIONS.has(name)) {
      const value = match?.[2] ?? argv[index + 1];
      if (match?.[2] === undefined) index += 1;
      if (value !== undefined) sent.push(`--${name}=${isAbsolute(value) ? value : resolve(value)}`);
      continue;
    }
    sent.push(word);
  }
  sent.push(`--data=${dataFolder}`);
  const passphraseFile = env['LEDGERDESK_PASSPHRASE_FILE'];
  if (
    passphraseFile !== undefined &&
    passphraseFile !== '' &&
    !sent.some((word) => word.startsWith('--passphrase-file='))
  ) {
    sent.push(`--passphrase-file=${resolve(passphraseFile)}`);
  }
  return sent;
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function refuse(io: Io, holder: DataFolderInUse, why: string): number {
  const remedy =
    holder.shell === 'desktop'
      ? 'use its window, or quit it and run this again'
      : holder.shell === 'web'
        ? `use it in the browser${holder.address === null ? '' : ` at ${holder.address}`}, or stop it (Ctrl+C in its terminal) and run this again`
        : holder.shell === 'listener'
          ? 'stop it (Ctrl+C in its terminal) and run this again'
          : 'run this again when it has ended';
  io.stderr.write(`ledger: ${holderName(holder)} is working on this data folder and ${why}: ${remedy}.\n`);
  return EXIT_FAILED;
}

/** Runs `run` under the folder's lock, or has the folder's holder run the command. */
export async function withFolder(
  parsed: LedgerArguments,
  argv: readonly string[],
  io: Io,
  run: () => Promise<number>,
): Promise<number> {
  if (FOLDERLESS.has(parsed.command)) return run();
  // An archive is checked on any machine: no data folder, no lock, nothing sent to an app.
  if (parsed.command === 'audit verify' && parsed.options.archive !== undefined) return run();
  const dataFolder = resolve(dataFolderOf(parsed.dataFolder, io.env));
  let lock;
  try {
    lock = lockDataFolder(dataFolder, 'cli');
  } catch (error) {
    if (!(error instanceof DataFolderInUse)) throw error;
    return sendToHolder(parsed, io, error, dataFolder, argv);
  }
  try {
    return await run();
  } finally {
    lock.release();
  }
}

async function sendToHolder(
  parsed: LedgerArguments,
  io: Io,
  holder: DataFolderInUse,
  dataFolder: string,
  argv: readonly string[],
): Promise<number> {
  const onlyFree = FOLDER_FREE_ONLY[parsed.command];
  if (onlyFree !== undefined)
    return refuse(
      io,
      holder,
      `\`ledger ${parsed.command}\` runs only on a folder no Ledgerdesk has open (${onlyFree})`,
    );
  if (holder.socket === null) return refuse(io, holder, 'takes no commands from ledger');
  const stdin = READS_STDIN.has(parsed.command) && io.stdin.isTTY !== true ? await readAll(io.stdin) : null;
  const answer = await askControlSocket(holder.socket, {
    request: 'ledger',
    args: argsForHolder(argv, dataFolder, io.env, new Set(FILE_WORDS.has(parsed.command) ? parsed.names : [])),
    stdin,
  });
  if (answer === null) return refuse(io, holder, 'its control socket does not answer');
  if ('refused' in answer) return refuse(io, holder, `refused the command (${answer.refused})`);
  if (!('code' in answer)) return refuse(io, holder, "gave an answer that is not a command's");
  io.stdout.write(answer.stdout);
  io.stderr.write(answer.stderr);
  return answer.code;
}
