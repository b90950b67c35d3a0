/**
 * Web mode's WriteConfirmer (W2): the Production write goes only when the tab that made the call
 * types the code the server printed on its terminal. The tab here is a scripted page: whatever
 * it sends back is all a hostile page could, since the code is never in what it is asked; the
 * security test and the e2e test drive the same confirmer through the real socket.
 */
import { describe, expect, it } from 'vitest';
import type { WebQuestion } from '../../../src/shared/ipc/webSocketProtocol.ts';
import type { WriteToConfirm } from '../../../src/main/services/writes/writeConfirmer.ts';
import { TabWriteConfirmer, type CallingTab, type TabCall } from '../../../src/main/web/tabWriteConfirmer.ts';
import { ConfirmationCodes, type TerminalNotice } from '../../../src/main/web/confirmationCodes.ts';

const write: WriteToConfirm = { profileName: 'Bank of Production', action: 'webhook.create', target: 'ach.create' };
const call: TabCall = {
  channel: 'webhooks.create',
  input: { profileId: 'p1', request: { url: 'https://hooks.example/a', event: 'ach.create' }, confirmProduction: true },
};

/** The terminal (what the human reads) and the codes it shows. */
function terminal(): { codes: ConfirmationCodes; notices: TerminalNotice[]; lastCode: () => string } {
  const notices: TerminalNotice[] = [];
  const codes = new ConfirmationCodes({ show: (notice) => notices.push(notice) });
  const lastCode = (): string => {
    const shown = notices.filter((notice) => notice.kind === 'code');
    const last = shown[shown.length - 1];
    return last?.kind === 'code' ? last.code : '';
  };
  return { codes, notices, lastCode };
}

/** A page that answers each question with what `reply` says, given what it was asked. */
function scriptedTab(current: TabCall | null, reply: (question: WebQuestion) => string | null) {
  const asked: unknown[][] = [];
  const tab: CallingTab = {
    currentCall: () => current,
    askCallingTab: (...args: unknown[]) => {
      asked.push(args);
      return Promise.resolve(reply(args[0] as WebQuestion));
    },
  };
  return { tab, asked };
}

describe('TabWriteConfirmer', () => {
  it('shows the server’s description and a code on the terminal, and goes when the user types that code', async () => {
    const { codes, notices, lastCode } = terminal();
    const { tab, asked } = scriptedTab(call, () => lastCode());
    expect(await new TabWriteConfirmer(() => tab, codes).confirm(write)).toBe(true);
    expect(asked).toHaveLength(1);
    // The page is given the question alone: nothing else, the code least of all.
    expect(asked[0]).toHaveLength(1);
    expect(JSON.stringify(asked[0])).not.toContain(lastCode());
    const shown = notices[0];
    expect(shown?.kind).toBe('code');
    expect(shown?.question.message).toContain('webhook.create (ach.create) to Bank of Production');
    expect(shown?.question.message).toContain('webhooks.create');
    expect(shown?.question.detail).toContain('https://hooks.example/a');
    expect(lastCode()).toMatch(/^[0-9]{6}$/);
  });

  it('refuses a declined question, a guess, and a write no tab asked for', async () => {
    const declined = terminal();
    expect(await new TabWriteConfirmer(() => scriptedTab(call, () => null).tab, declined.codes).confirm(write)).toBe(
      false,
    );
    const guessed = terminal();
    const guess = scriptedTab(call, () => (guessed.lastCode() === '000000' ? '000001' : '000000'));
    expect(await new TabWriteConfirmer(() => guess.tab, guessed.codes).confirm(write)).toBe(false);
    expect(guessed.notices.map((notice) => notice.kind)).toEqual(['code', 'wrong-code']);

    const outside = terminal();
    const nobody = scriptedTab(null, () => outside.lastCode());
    expect(await new TabWriteConfirmer(() => nobody.tab, outside.codes).confirm(write)).toBe(false);
    expect(nobody.asked).toHaveLength(0);
    expect(outside.notices).toHaveLength(0);
    expect(await new TabWriteConfirmer(() => null, outside.codes).confirm(write)).toBe(false);
  });

  it('refuses an earlier code for a later write: each code answers its own question once', async () => {
    const { codes, lastCode } = terminal();
    let first = '';
    const keeper = scriptedTab(call, () => {
      first = lastCode();
      return null;
    });
    expect(await new TabWriteConfirmer(() => keeper.tab, codes).confirm(write)).toBe(false);
    const replay = scriptedTab(call, () => first);
    expect(await new TabWriteConfirmer(() => replay.tab, codes).confirm(write)).toBe(false);
  });
});
