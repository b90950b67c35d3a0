/**
 * The IPC router's logic, free of Electron: the shell feeds it each call with what it knows
 * of the sender (router.ts); the end-to-end tests feed it calls from Playwright's
 * exposeBinding. For every call, in this order:
 *   1. the sender must be our own window's main frame on our own origin;
 *   2. the channel must be an operation of the contract;
 *   3. the input must be plain bounded data, then match the operation's input schema;
 *   4. the handler runs; whatever it throws becomes the contract's error shape;
 *   5. its answer must match the output schema, and is scrubbed of secrets.
 * A refusal in 1–3 never reaches the handler.
 */
import { describeIssues } from '../../shared/bank/parse.ts';
import { OPERATIONS_BY_CHANNEL } from '../../shared/ipc/contract.ts';
import { type IpcError, ipcErrorOf, type IpcResult } from '../../shared/ipc/errors.ts';
import type { HandlerContext, PartialHandlers } from './handlerTypes.ts';
import { cleanMessage, toIpcError } from './errorMapping.ts';
import { scrubSecrets } from './secretScrubber.ts';
import { checkSender, type IpcSender, type SenderPolicy } from './senderPolicy.ts';
import { DEFAULT_INPUT_LIMITS, type InputLimits, inspectUntrustedInput } from './untrustedInput.ts';

export interface RouterLogEntry {
  level: 'warn' | 'error';
  channel: string;
  message: string;
}

export interface RouterOptions {
  handlers: PartialHandlers;
  senderPolicy: SenderPolicy;
  /** Secrets main holds this session, searched for in every reply. */
  knownSecrets?: () => Iterable<string>;
  inputLimits?: InputLimits;
  /** Where refusals and failures are logged in main (never sent to the window). */
  log?: (entry: RouterLogEntry) => void;
}

export interface Router {
  /** Every channel of the contract: the shell registers exactly these. */
  readonly channels: readonly string[];
  dispatch(sender: IpcSender, channel: unknown, input: unknown): Promise<IpcResult>;
}

type AnyHandler = (input: unknown, context: HandlerContext) => unknown;

function findHandler(handlers: PartialHandlers, domain: string, method: string): AnyHandler | null {
  if (!Object.hasOwn(handlers, domain)) return null;
  const domainHandlers = (handlers as Record<string, Record<string, unknown> | undefined>)[domain];
  if (domainHandlers === undefined || !Object.hasOwn(domainHandlers, method)) return null;
  const handler = domainHandlers[method];
  return typeof handler === 'function' ? (handler as AnyHandler) : null;
}

function failure(error: IpcError): IpcResult {
  return { ok: false, error };
}

function fieldOfIssuePath(path: readonly PropertyKey[]): string | undefined {
  if (path.length === 0) return undefined;
  return path.map(String).join('.');
}

export function createRouter(options: RouterOptions): Router {
  const log = options.log ?? (() => undefined);
  const limits = options.inputLimits ?? DEFAULT_INPUT_LIMITS;
  const secrets = (): string[] => [...(options.knownSecrets?.() ?? [])];

  async function dispatch(sender: IpcSender, channel: unknown, input: unknown): Promise<IpcResult> {
    // Both the channel and the caller's address are the caller's words: scrubbed before they are logged or answered.
    const shownChannel =
      typeof channel === 'string' ? cleanMessage(channel, secrets()).slice(0, 100) : '(not a string)';
    const verdict = checkSender(sender, options.senderPolicy);
    if (!verdict.trusted) {
      const reason = cleanMessage(verdict.reason, secrets());
      log({ level: 'warn', channel: shownChannel, message: `refused a call: ${reason}` });
      return failure(ipcErrorOf('forbidden', `Ledgerdesk refused this call: ${reason}.`));
    }

    const entry = typeof channel === 'string' ? OPERATIONS_BY_CHANNEL.get(channel) : undefined;
    if (entry === undefined) {
      log({ level: 'warn', channel: shownChannel, message: 'refused a call to an unknown channel' });
      return failure(ipcErrorOf('unknown_channel', `Ledgerdesk has no operation named ${shownChannel}.`));
    }

    const problem = inspectUntrustedInput(input, limits);
    if (problem !== null) {
      const where = problem.field === '' ? 'The input' : problem.field;
      return failure(
        ipcErrorOf('invalid_input', `${where} ${problem.problem}.`, {
          ...(problem.field === '' ? {} : { field: problem.field }),
        }),
      );
    }
    const parsed = entry.input.safeParse(input);
    if (!parsed.success) {
      const [first] = parsed.error.issues;
      const problems = describeIssues(parsed.error.issues);
      const fieldName = first === undefined ? undefined : fieldOfIssuePath(first.path);
      return failure(
        ipcErrorOf('invalid_input', cleanMessage(problems.slice(0, 3).join('; '), secrets()), {
          ...(fieldName === undefined ? {} : { field: fieldName }),
          action: 'Correct the highlighted field and try again.',
        }),
      );
    }

    const handler = findHandler(options.handlers, entry.domain, entry.method);
    if (handler === null) {
      return failure(
        ipcErrorOf('not_available', `${entry.channel} is not available in this version of Ledgerdesk yet.`),
      );
    }

    let answer: unknown;
    try {
      answer = await handler(parsed.data, { webContentsId: sender.webContentsId, channel: entry.channel });
    } catch (thrown) {
      const error = toIpcError(thrown, { channel: entry.channel, knownSecrets: secrets() });
      if (error.code === 'internal') {
        const stack = thrown instanceof Error && thrown.stack !== undefined ? thrown.stack : String(thrown);
        log({
          level: 'error',
          channel: entry.channel,
          message: cleanMessage(stack.replaceAll('\n', ' | '), secrets()),
        });
      }
      return failure(error);
    }

    const checked = entry.output.safeParse(answer);
    if (!checked.success) {
      // The problems name fields, never values; they stay in main's log.
      log({
        level: 'error',
        channel: entry.channel,
        message: `answer does not match the contract: ${describeIssues(checked.error.issues).slice(0, 5).join('; ')}`,
      });
      return failure(
        ipcErrorOf('invalid_output', `Ledgerdesk produced an answer to ${entry.channel} that it cannot show (a bug).`, {
          action: 'Try again; if it keeps happening, report it with the app log.',
        }),
      );
    }
    const scrubbed = scrubSecrets(checked.data, secrets());
    if (scrubbed.redactions > 0) {
      log({
        level: 'error',
        channel: entry.channel,
        message: `withheld ${scrubbed.redactions} secret(s) from the answer`,
      });
    }
    return { ok: true, value: scrubbed.value };
  }

  return { channels: [...OPERATIONS_BY_CHANNEL.keys()], dispatch };
}
