/**
 * `npm run sandbox`: the sandbox bank as a standalone server. Prints where it listens, the
 * API key and a few demo ids (or, with --json, one JSON line of them); Ctrl+C or SIGTERM
 * stops it cleanly: in-flight requests finish, pending webhook retries stay in the data file.
 */
import { parseCliArguments, USAGE, type CliRequest } from './cliArguments.ts';
import { startSandbox, trafficLineOf, type RunningSandbox, type SandboxTraffic } from './index.ts';

function bannerOf(sandbox: RunningSandbox): string {
  // The data file's own secret is printed (the user has no other way to learn it); a secret
  // given on the command line is not echoed back to the terminal or its scrollback.
  const secret = sandbox.keyGenerated ? sandbox.keySecret : '(as given by --key-secret)';
  return (
    [
      `Sandbox listening on ${sandbox.baseUrl}${sandbox.lean ? " (lean: answers in the real service's shapes)" : ''}`,
      `API key id:     ${sandbox.keyId}`,
      `API key secret: ${secret}`,
      `Accounts:              ${sandbox.demo.accounts.slice(0, 3).join(', ')}`,
      `Account applications:  ${sandbox.demo.accountApplications.slice(0, 3).join(', ')}`,
      `Card products:         ${sandbox.demo.cardProducts.join(', ')}`,
      `Files:                 ${sandbox.demo.files.slice(0, 3).join(', ')}`,
      `Try: curl -u ${sandbox.keyId}:<secret> ${sandbox.baseUrl}/account`,
      'Ctrl+C stops it. One line per request and per delivery attempt follows (--quiet: none).',
    ].join('\n') + '\n'
  );
}

function jsonLineOf(sandbox: RunningSandbox): string {
  return (
    JSON.stringify({
      baseUrl: sandbox.baseUrl,
      keyId: sandbox.keyId,
      keySecret: sandbox.keySecret,
      bearerToken: sandbox.bearerToken,
      lean: sandbox.lean,
      accounts: sandbox.demo.accounts,
      accountApplications: sandbox.demo.accountApplications,
      cardProducts: sandbox.demo.cardProducts,
      files: sandbox.demo.files,
    }) + '\n'
  );
}

async function main(): Promise<void> {
  let request: CliRequest;
  try {
    request = parseCliArguments(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (request.help) {
    process.stdout.write(USAGE);
    return;
  }

  // Signals are handled from the start: one that arrives while the bank is still opening
  // stops it as soon as it is up, never half-way through writing its data file.
  const running: { sandbox?: RunningSandbox } = {};
  let stopping: Promise<void> | undefined;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping !== undefined) {
      // A second Ctrl+C does not wait: every write is a committed transaction, so nothing is torn.
      process.stderr.write(`${signal} again: stopping now.\n`);
      process.exit(130);
    }
    const sandbox = running.sandbox;
    if (sandbox === undefined) {
      if (stopSignal === undefined) {
        process.stderr.write(
          `${signal}: stopping once the bank is open (again to stop now; an unfinished seed is redone next time).\n`,
        );
      } else {
        process.exit(130);
      }
      stopSignal = signal;
      return;
    }
    if (!request.json)
      process.stdout.write(`\n${signal}: stopping; in-flight requests finish, pending retries stay saved.\n`);
    stopping = sandbox.close().then(
      () => {
        process.exitCode = 0;
      },
      (error: unknown) => {
        process.stderr.write(`sandbox: stopping failed: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exitCode = 1;
      },
    );
  };
  let stopSignal: NodeJS.Signals | undefined;
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const traffic = (entry: SandboxTraffic): void => {
    process.stdout.write((request.json ? JSON.stringify(entry) : trafficLineOf(entry)) + '\n');
  };
  const sandbox = await startSandbox(request.quiet ? request.options : { ...request.options, traffic });
  running.sandbox = sandbox;
  process.stdout.write(request.json ? jsonLineOf(sandbox) : bannerOf(sandbox));
  if (stopSignal !== undefined) stop(stopSignal);
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
  process.exit();
});
