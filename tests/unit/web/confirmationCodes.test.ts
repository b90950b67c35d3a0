/** The terminal's codes (W2): six digits, one answer each, expiring, and the browser locked out after five wrong ones. */
import { describe, expect, it } from 'vitest';
import {
  CODE_LIFETIME_MS,
  ConfirmationCodes,
  terminalLines,
  WRONG_CODES_MAX,
  type TerminalNotice,
} from '../../../src/main/web/confirmationCodes.ts';
import type { WebQuestion } from '../../../src/shared/ipc/webSocketProtocol.ts';

const question: WebQuestion = {
  title: 'Send to a Production bank?',
  message: 'Ledgerdesk is about to send webhook.create (ach.create) to Prod Bank, a Production profile.',
  detail: '{}',
  confirmLabel: 'Send to Production',
};

function codesAt(clock: { now: number }, values: number[] = [42, 7, 123456, 999999, 5, 6, 8, 9]) {
  const notices: TerminalNotice[] = [];
  let next = 0;
  const codes = new ConfirmationCodes({
    show: (notice) => notices.push(notice),
    now: () => clock.now,
    randomBelow: () => values[next++ % values.length] ?? 0,
  });
  return { codes, notices };
}

describe('ConfirmationCodes', () => {
  it('shows six digits with the question, and takes them typed with or without the space', () => {
    const clock = { now: 0 };
    const { codes, notices } = codesAt(clock);
    const first = codes.issue(question);
    expect(notices[0]).toEqual({ kind: 'code', question, code: '000042', expiresInMinutes: 10 });
    expect(terminalLines(notices[0] as TerminalNotice)).toContain(
      'type this code in the browser tab that asked: 000 042',
    );
    expect(terminalLines(notices[0] as TerminalNotice)).toContain('to Prod Bank, a Production profile');
    expect(first?.accept('000 042')).toBe(true);
    // Spent: the same code again is refused.
    expect(first?.accept('000042')).toBe(false);
    expect(codes.issue(question)?.accept(' 000007 ')).toBe(true);
  });

  it('refuses a declined, withdrawn or expired question, and none of them counts as a wrong code', () => {
    const clock = { now: 0 };
    const { codes, notices } = codesAt(clock);
    expect(codes.issue(question)?.accept(null)).toBe(false);
    const withdrawn = codes.issue(question);
    withdrawn?.withdraw();
    expect(withdrawn?.accept('000007')).toBe(false);
    const late = codes.issue(question);
    clock.now += CODE_LIFETIME_MS + 1;
    expect(late?.accept('123456')).toBe(false);
    expect(notices.filter((notice) => notice.kind !== 'code')).toEqual([]);
  });

  it(`turns the browser's confirmations off after ${String(WRONG_CODES_MAX)} wrong codes, and says so on the terminal`, () => {
    const clock = { now: 0 };
    const { codes, notices } = codesAt(clock, [111111]);
    for (let wrong = 1; wrong <= WRONG_CODES_MAX; wrong += 1) {
      expect(codes.locked).toBe(false);
      expect(codes.issue(question)?.accept('222222')).toBe(false);
    }
    expect(codes.locked).toBe(true);
    expect(notices.flatMap((notice) => (notice.kind === 'wrong-code' ? [notice.wrongLeft] : []))).toEqual([4, 3, 2, 1]);
    expect(notices[notices.length - 1]?.kind).toBe('locked');
    // Locked: not even the right code is asked for any more.
    expect(codes.issue(question)).toBeNull();
    expect(terminalLines(notices[notices.length - 1] as TerminalNotice)).toContain('Restart web mode');
  });
});
