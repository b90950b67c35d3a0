/**
 * Web mode's human decision (review W2): before a Production write (or the listener's first
 * send to another host) goes, the server prints the question and a short code on the terminal
 * where `npm run serve` runs, and asks the tab that made the call for it. The page never
 * receives the code: only someone who reads that terminal can type it, so neither script in the
 * page nor any other holder of the socket can produce the decision.
 *
 * Each code is 6 random digits, answers one question once (right or wrong, it is spent), and
 * expires after CODE_LIFETIME_MS. After WRONG_CODES_MAX wrong codes in one run, the browser's
 * confirmations are refused until web mode is restarted (and the terminal says so), so a page
 * guessing has at most WRONG_CODES_MAX tries in a million per run.
 */
import { randomInt, timingSafeEqual } from 'node:crypto';
import type { WebQuestion } from '../../shared/ipc/webSocketProtocol.ts';

export const CODE_LIFETIME_MS = 10 * 60 * 1000;
export const WRONG_CODES_MAX = 5;
const DIGITS = 6;

/** What the terminal shows: the question as the server wrote it, and its code (or why none is given). */
export type TerminalNotice =
  | { kind: 'code'; question: WebQuestion; code: string; expiresInMinutes: number }
  | { kind: 'wrong-code'; question: WebQuestion; wrongLeft: number }
  | { kind: 'locked'; question: WebQuestion };

/** The lines of a notice, as `npm run serve` prints them on its terminal (stderr). */
export function terminalLines(notice: TerminalNotice): string {
  const { question } = notice;
  const about = `${question.title} ${question.message}`;
  switch (notice.kind) {
    case 'code':
      return (
        `Ledgerdesk asks: ${about}\n` +
        `  To go ahead, type this code in the browser tab that asked: ${notice.code.slice(0, 3)} ${notice.code.slice(3)}\n` +
        `  It works once, for this request only, for ${String(notice.expiresInMinutes)} minutes. ` +
        'If you did not ask for this, do not type it: the request is then refused.\n'
      );
    case 'wrong-code':
      return (
        `Ledgerdesk refused: ${about}\n` +
        `  A wrong code was typed in the browser. ${String(notice.wrongLeft)} more wrong ` +
        `${notice.wrongLeft === 1 ? 'code turns' : 'codes turn'} the browser's confirmations off until Ledgerdesk restarts.\n`
      );
    case 'locked':
      return (
        `Ledgerdesk refused without asking: ${about}\n` +
        `  ${String(WRONG_CODES_MAX)} wrong codes were typed in the browser during this run, so its confirmations are off. ` +
        'Restart web mode (Ctrl+C, then npm run serve) to confirm again.\n'
      );
  }
}

/** One question asked with a code: spent by its first answer. */
export interface IssuedCode {
  /** True once, when `typed` is the code (spaces ignored) and it has not expired. */
  accept(typed: string | null): boolean;
  /** Forgets it (the user said no, or nobody is left to answer). */
  withdraw(): void;
}

export interface ConfirmationCodesOptions {
  /** Shows a notice on the terminal of `serve` (never on the page, never in a log file). */
  show: (notice: TerminalNotice) => void;
  now?: () => number;
  /** A random integer in [0, max): tests pass their own. */
  randomBelow?: (max: number) => number;
}

export class ConfirmationCodes {
  readonly #options: ConfirmationCodesOptions;
  readonly #now: () => number;
  readonly #randomBelow: (max: number) => number;
  #wrong = 0;

  constructor(options: ConfirmationCodesOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#randomBelow = options.randomBelow ?? ((max) => randomInt(max));
  }

  /** Whether too many wrong codes were typed this run (every later question is refused unasked). */
  get locked(): boolean {
    return this.#wrong >= WRONG_CODES_MAX;
  }

  /** A new code for this question, printed on the terminal; null (and the terminal says why) when locked. */
  issue(question: WebQuestion): IssuedCode | null {
    if (this.locked) {
      this.#options.show({ kind: 'locked', question });
      return null;
    }
    const code = String(this.#randomBelow(10 ** DIGITS)).padStart(DIGITS, '0');
    const expiresAt = this.#now() + CODE_LIFETIME_MS;
    this.#options.show({ kind: 'code', question, code, expiresInMinutes: CODE_LIFETIME_MS / 60_000 });
    let spent = false;
    return {
      accept: (typed) => {
        if (spent || typed === null) {
          spent = true;
          return false;
        }
        spent = true;
        const given = Buffer.from(typed.replace(/\s+/g, ''), 'utf8');
        const wanted = Buffer.from(code, 'utf8');
        const right = given.length === wanted.length && timingSafeEqual(given, wanted);
        if (right && this.#now() <= expiresAt) return true;
        if (!right) {
          this.#wrong += 1;
          this.#options.show(
            this.locked
              ? { kind: 'locked', question }
              : { kind: 'wrong-code', question, wrongLeft: WRONG_CODES_MAX - this.#wrong },
          );
        }
        return false;
      },
      withdraw: () => {
        spent = true;
      },
    };
  }
}
