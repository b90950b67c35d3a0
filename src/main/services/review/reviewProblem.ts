/** A review that cannot be given as asked: one sentence naming what to correct; nothing was written. */
import type { ContractAnswer } from '../../../shared/ipc/contractAnswer.ts';

export type ReviewProblemKind =
  'bad-note' | 'not-cached' | 'bad-ref' | 'bad-rule' | 'bad-reviewer' | 'no-such-rule' | 'bad-reason';

export class ReviewProblem extends Error {
  readonly kind: ReviewProblemKind;
  /** The input field at fault, for a form to point at. */
  readonly field: string;

  constructor(kind: ReviewProblemKind, field: string, message: string) {
    super(message);
    this.name = 'ReviewProblem';
    this.kind = kind;
    this.field = field;
  }

  get answer(): ContractAnswer {
    const missing = this.kind === 'no-such-rule' || this.kind === 'not-cached';
    return { code: missing ? 'not_found' : 'invalid_input', field: this.field };
  }
}
