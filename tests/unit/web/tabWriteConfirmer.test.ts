/**
 * Web mode's WriteConfirmer: the Production write goes only with the one-time confirmation the
 * server issued for that exact write, sent back once by the tab whose call made it. The tab
 * here is a scripted page (what a hostile page could send back); the e2e test drives the same
 * confirmer through the real socket.
 */
import { describe, expect, it } from 'vitest';
import type { WebQuestion } from '../../../src/shared/ipc/webSocketProtocol.ts';
import type { WriteToConfirm } from '../../../src/main/services/writes/writeConfirmer.ts';
import { TabWriteConfirmer, type CallingTab, type TabCall } from '../../../src/main/web/tabWriteConfirmer.ts';
import { WriteConfirmations } from '../../../src/main/web/writeConfirmations.ts';

const write: WriteToConfirm = { profileName: 'Bank of Production', action: 'webhook.create', target: 'ach.create' };
const call: TabCall = {
  channel: 'webhooks.create',
  input: { profileId: 'p1', request: { url: 'https://hooks.example/a', event: 'ach.create' }, confirmProduction: true },
};

interface Asked {
  question: WebQuestion;
  confirmation: string;
}

/** A page that answers each question with what `reply` says, given what it was asked. */
function scriptedTab(current: TabCall | null, reply: (asked: Asked, all: Asked[]) => string | null) {
  const asked: Asked[] = [];
  const tab: CallingTab = {
    currentCall: () => current,
    askCallingTab: (question, confirmation) => {
      asked.push({ question, confirmation });
      return Promise.resolve(reply({ question, confirmation }, asked));
    },
  };
  return { tab, asked };
}

describe('TabWriteConfirmer', () => {
  it('lets the write through with the confirmation issued for it, and shows the server’s description', async () => {
    const { tab, asked } = scriptedTab(call, ({ confirmation }) => confirmation);
    expect(await new TabWriteConfirmer(() => tab).confirm(write)).toBe(true);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.question.message).toContain('webhook.create (ach.create) to Bank of Production');
    expect(asked[0]?.question.message).toContain('webhooks.create');
    expect(asked[0]?.question.detail).toContain('https://hooks.example/a');
    expect(asked[0]?.confirmation).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses a declined question, a made-up confirmation, and a write no tab asked for', async () => {
    const declined = scriptedTab(call, () => null);
    expect(await new TabWriteConfirmer(() => declined.tab).confirm(write)).toBe(false);

    const forged = scriptedTab(call, () => 'x'.repeat(43));
    expect(await new TabWriteConfirmer(() => forged.tab).confirm(write)).toBe(false);

    const outside = scriptedTab(null, ({ confirmation }) => confirmation);
    expect(await new TabWriteConfirmer(() => outside.tab).confirm(write)).toBe(false);
    expect(outside.asked).toHaveLength(0);
    expect(await new TabWriteConfirmer(() => null).confirm(write)).toBe(false);
  });

  it('refuses a confirmation used twice', async () => {
    const confirmations = new WriteConfirmations();
    let kept: string | null = null;
    const first = scriptedTab(call, ({ confirmation }) => {
      kept = confirmation;
      return confirmation;
    });
    expect(await new TabWriteConfirmer(() => first.tab, confirmations).confirm(write)).toBe(true);
    // The same write again, answered with the confirmation already spent.
    const replay = scriptedTab(call, () => kept);
    expect(await new TabWriteConfirmer(() => replay.tab, confirmations).confirm(write)).toBe(false);
  });

  it('refuses a confirmation issued for another write (other input, other target, other channel)', async () => {
    const confirmations = new WriteConfirmations();
    const others: [TabCall, WriteToConfirm][] = [
      [
        {
          ...call,
          input: { ...(call.input as object), request: { url: 'https://evil.example', event: 'ach.create' } },
        },
        write,
      ],
      [call, { ...write, target: 'card.create' }],
      [{ ...call, channel: 'webhooks.delete' }, write],
    ];
    for (const [otherCall, otherWrite] of others) {
      // The page asks for a harmless-looking write, keeps its confirmation, and sends it for this one.
      let issuedForOther: string | null = null;
      const other = scriptedTab(otherCall, ({ confirmation }) => {
        issuedForOther = confirmation;
        return null;
      });
      const confirmer = new TabWriteConfirmer(() => other.tab, confirmations);
      expect(await confirmer.confirm(otherWrite)).toBe(false);
      const swapped = scriptedTab(call, () => issuedForOther);
      expect(await new TabWriteConfirmer(() => swapped.tab, confirmations).confirm(write)).toBe(false);
    }
    // Two questions open at once, answered crosswise: neither goes.
    const crossing: Asked[] = [];
    let release: () => void = () => undefined;
    const bothAsked = new Promise<void>((resolve) => {
      release = resolve;
    });
    const crosswise: CallingTab = {
      currentCall: () => call,
      askCallingTab: async (question, confirmation) => {
        crossing.push({ question, confirmation });
        if (crossing.length === 2) release();
        await bothAsked;
        const mine = crossing.findIndex((entry) => entry.confirmation === confirmation);
        return crossing[1 - mine]?.confirmation ?? null;
      },
    };
    const crossConfirmer = new TabWriteConfirmer(() => crosswise, confirmations);
    const answers = await Promise.all([
      crossConfirmer.confirm(write),
      crossConfirmer.confirm({ ...write, target: 'card.create' }),
    ]);
    expect(answers).toEqual([false, false]);
  });
});
