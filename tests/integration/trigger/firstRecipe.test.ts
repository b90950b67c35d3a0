/**
 * docs/scenarios.md's first recipe, run exactly as written there, from a fresh data folder:
 * each line of its first `sh` block through `sh -c` in the project folder, the long-running
 * ones (the sandbox, the listener) in their own process group as a terminal would run them,
 * and stopped with SIGINT to the group, as Ctrl+C does. The listener must print the verified
 * notification and that its `url` answered, and remove its registration when stopped.
 *
 * It needs the keychain (`profile add` keeps the secret there): run with
 * `sh scripts/with-keyring.sh`. The ports are the recipe's own (4010, 4880).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';
if (!secretServiceHere) {
  process.stderr.write(
    'first-recipe test skipped: it needs a Secret Service. Run it with: sh scripts/with-keyring.sh npx vitest run --project integration tests/integration/trigger/firstRecipe.test.ts\n',
  );
}

/** The commands of the first `sh` block of docs/scenarios.md, comments and blank lines left out. */
function firstRecipe(): string[] {
  const text = readFileSync(join(root, 'docs', 'scenarios.md'), 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(text)?.[1];
  if (block === undefined) throw new Error('docs/scenarios.md has no sh block');
  return block.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
}

interface Running {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves once the output (stdout + stderr) matches; rejects if the process ends first. */
  until(pattern: RegExp): Promise<void>;
  exited: Promise<number | null>;
}

const started: Running[] = [];
const folders: string[] = [];

afterEach(() => {
  for (const running of started.splice(0)) {
    const { child } = running;
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) continue;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // The group is already gone.
    }
  }
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function run(line: string, env: NodeJS.ProcessEnv): Running {
  // detached: its own process group, so a signal reaches npm, sh and node together, as Ctrl+C does.
  const child = spawn('sh', ['-c', line], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const wakers = new Set<() => void>();
  const wake = (): void => {
    for (const waker of wakers) waker();
  };
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
    wake();
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
    wake();
  });
  const exited = new Promise<number | null>((resolve) => {
    child.on('close', (code) => {
      wake();
      resolve(code);
    });
  });
  const running: Running = {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    async until(pattern) {
      while (!pattern.test(stdout + stderr)) {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`\`${line}\` ended (${String(child.exitCode)}):\n${stdout}\n${stderr}`);
        await new Promise<void>((resolve) => {
          const once = (): void => {
            wakers.delete(once);
            resolve();
          };
          wakers.add(once);
        });
      }
    },
    exited,
  };
  started.push(running);
  return running;
}

/** Ctrl+C: SIGINT to the whole process group. */
async function interrupt(running: Running): Promise<void> {
  const { child } = running;
  if (child.pid !== undefined && child.exitCode === null && child.signalCode === null)
    process.kill(-child.pid, 'SIGINT');
  await running.exited;
}

describe.skipIf(!secretServiceHere)("docs/scenarios.md's first recipe", () => {
  it('runs verbatim from a fresh data folder: the listener prints the verified notification and its url answers', async () => {
    const recipe = firstRecipe();
    expect(recipe.map((line) => line.split(' -- ')[0])).toEqual([
      'npm run sandbox',
      'printf local-sandbox-secret | npm run ledger',
      'npm run listen',
      'npm run ledger',
    ]);
    const home = mkdtempSync(join(tmpdir(), 'ledgerdesk-first-recipe-'));
    folders.push(home);
    // A fresh data folder: Ledgerdesk's lives under XDG_CONFIG_HOME.
    const env = { ...process.env, XDG_CONFIG_HOME: home, NO_COLOR: '1' };
    const [sandboxLine, profileLine, listenLine, triggerLine] = recipe as [string, string, string, string];

    const sandbox = run(sandboxLine, env);
    await sandbox.until(/Sandbox listening on http:\/\/127\.0\.0\.1:4010\n/);

    const profile = run(profileLine, env);
    expect(await profile.exited, profile.stderr()).toBe(0);
    expect(profile.stdout()).toContain('Added profile Sandbox (http://127.0.0.1:4010); its secret is in the keychain.');

    const listen = run(listenLine, env);
    await listen.until(/Registered with Sandbox: 1 webhook posting to http:\/\/127\.0\.0\.1:4880 as Basic user "bank"/);
    // The registration's lines may arrive in a later chunk than its heading: wait for them too.
    await listen.until(/^ {2}ach\.update +wh_\w+$/m);
    const webhookId = /^ {2}ach\.update +(wh_\w+)$/m.exec(listen.stdout())?.[1] ?? '';
    expect(webhookId).toMatch(/^wh_/);

    const trigger = run(triggerLine, env);
    expect(await trigger.exited, trigger.stderr()).toBe(0);
    expect(trigger.stdout()).toMatch(/^Triggered ach\.update on profile Sandbox: (ach_\w+)\.$/m);
    const achId = /^Triggered ach\.update on profile Sandbox: (ach_\w+)\.$/m.exec(trigger.stdout())?.[1] ?? '';
    expect(trigger.stdout()).toMatch(/ {2}ach\.update +ach_\w+ +http\S+ {2}\(1 webhook subscribed\)/);

    // Two moves (pending → processing → sent): two verified notifications, each url fetched.
    const verified = new RegExp(`^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} {2}ok +ach\\.update +${achId} +200 .*POST /`, 'gm');
    await listen.until(new RegExp(`(?:[\\s\\S]*?ok +ach\\.update +${achId} +200 ){2}`));
    await listen.until(/(?:[\s\S]*?<- object of request \d+ fetched from the bank \(its url answered\)){2}/);
    expect(listen.stdout().match(verified)).toHaveLength(2);
    expect(listen.stdout()).not.toMatch(/not fetched/);

    await interrupt(listen);
    expect(listen.stderr()).toContain(`Removed the 1 webhook registered at start: ${webhookId} (ach.update).`);
    const sandboxKey = Buffer.from('key_local:local-sandbox-secret').toString('base64');
    const left = (await (
      await fetch('http://127.0.0.1:4010/webhook', { headers: { authorization: `Basic ${sandboxKey}` } })
    ).json()) as { data: unknown[] };
    expect(left.data).toEqual([]);
    await interrupt(sandbox);
  });
});
