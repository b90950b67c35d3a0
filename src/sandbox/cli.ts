/**
 * `npm run sandbox`: the sandbox bank as a standalone server. Prints where it listens, the
 * API key and a few demo ids (or, with --json, one JSON line of them); Ctrl+C or SIGTERM
 * stops it cleanly: in-flight requests finish, pending webhook retries stay in the data file.
 */
import { parseCliArguments, USAGE } from './cliArguments.ts';
import { startSandbox } from './index.ts';
import { DEMO_KEY_SECRET } from './options.ts';

async function main(): Promise<void> {
  let request;
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
  const sandbox = await startSandbox(request.options);
  if (request.json) {
    process.stdout.write(
      JSON.stringify({
        baseUrl: sandbox.baseUrl,
        keyId: sandbox.keyId,
        keySecret: sandbox.keySecret,
        bearerToken: sandbox.bearerToken,
        accounts: sandbox.demo.accounts,
        accountApplications: sandbox.demo.accountApplications,
        cardProducts: sandbox.demo.cardProducts,
        files: sandbox.demo.files,
      }) + '\n',
    );
  } else {
    // The demo secret is public; a secret given on the command line is not echoed back.
    const secret = sandbox.keySecret === DEMO_KEY_SECRET ? sandbox.keySecret : '(as given by --key-secret)';
    process.stdout.write(
      [
        `Sandbox listening on ${sandbox.baseUrl}`,
        `API key id:     ${sandbox.keyId}`,
        `API key secret: ${secret}`,
        `Accounts:              ${sandbox.demo.accounts.slice(0, 3).join(', ')}`,
        `Account applications:  ${sandbox.demo.accountApplications.slice(0, 3).join(', ')}`,
        `Card products:         ${sandbox.demo.cardProducts.join(', ')}`,
        `Files:                 ${sandbox.demo.files.slice(0, 3).join(', ')}`,
        `Try: curl -u ${sandbox.keyId}:<secret> ${sandbox.baseUrl}/account`,
        'Ctrl+C stops it.',
      ].join('\n') + '\n',
    );
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    if (!request.json)
      process.stdout.write(`\n${signal}: stopping; in-flight requests finish, pending retries stay saved.\n`);
    sandbox.close().then(
      () => {
        process.exitCode = 0;
      },
      (error: unknown) => {
        process.stderr.write(`sandbox: stopping failed: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exitCode = 1;
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
