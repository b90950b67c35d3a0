/**
 * How a refusal is answered to the window, carried by the error that refuses (issue 39). Each
 * service throws its own error class in its own words, and that class says here which of the
 * contract's codes it is, the field a form should point at and what a person can do: the IPC
 * layer only copies it (ipc/serviceErrors.ts), so a new error needs no case anywhere else, and
 * the window, web mode and the CLIs read one classification.
 */
import { IPC_ERROR_CODES, type IpcErrorCode } from './errors.ts';

export interface ContractAnswer {
  code: IpcErrorCode;
  /** A person's wording instead of the error's own message (a bank out of reach, not its address). */
  message?: string;
  /** The input field the refusal is about, as a dotted path. */
  field?: string;
  /** What the person can do, in a sentence. */
  action?: string;
  /** Whether the same call can succeed later. */
  retryable?: boolean;
  /** The bank's HTTP status, when the refusal came from the bank. */
  status?: number;
}

const CODES: ReadonlySet<string> = new Set(IPC_ERROR_CODES);

/** The answer an error carries (duck-typed, so no layer depends on a service's classes); null for none. */
export function contractAnswerOf(error: unknown): ContractAnswer | null {
  if (typeof error !== 'object' || error === null || !('answer' in error)) return null;
  const answer: unknown = error.answer;
  if (typeof answer !== 'object' || answer === null || !('code' in answer)) return null;
  return typeof answer.code === 'string' && CODES.has(answer.code) ? (answer as ContractAnswer) : null;
}
