/**
 * What the app answered when it refused a call: the error's code, field and sentence, as the
 * window receives them. A call that succeeds fails the test; any other error is rethrown.
 */
import { isLedgerdeskError } from '../../src/shared/ipc/errors.ts';

export interface Refusal {
  code: string;
  field?: string;
  message: string;
}

export async function refusal(promise: Promise<unknown>): Promise<Refusal> {
  try {
    await promise;
  } catch (reason) {
    if (isLedgerdeskError(reason)) return { code: reason.code, field: reason.field, message: reason.message };
    throw reason;
  }
  throw new Error('expected a refusal');
}
