/**
 * The desktop app's native questions (src/main/electron/nativeDialogs.ts) with Electron's `dialog`
 * and `BrowserWindow` replaced at the edge: the Electron binary cannot run here, so the mock
 * stands where Electron's own dialog would answer, and everything on our side of it is real
 * (the question's words, the default and Esc buttons, main's Production check in profiles.ts).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => ({
  focused: null as object | null,
  answers: [] as number[],
  shown: [] as { parent: object | null; options: Record<string, unknown> }[],
}));

vi.mock('electron', () => ({
  BrowserWindow: { getFocusedWindow: () => electron.focused },
  dialog: {
    showMessageBox: (...args: unknown[]) => {
      const [parent, options] = args.length === 2 ? args : [null, args[0]];
      electron.shown.push({ parent: parent as object | null, options: options as Record<string, unknown> });
      const response = electron.answers.shift();
      if (response === undefined) throw new Error('the test gave the dialog no answer');
      return Promise.resolve({ response, checkboxChecked: false });
    },
  },
}));

const { askAfterWriterRefusal, confirmInDialog, nativeWriteConfirmer } =
  await import('../../../src/main/electron/nativeDialogs.ts');
const { confirmProductionWrite, Profiles, ProductionWriteNotConfirmed } =
  await import('../../../src/main/services/profiles/profiles.ts');
const { InMemoryProfileStorage } = await import('../../../src/main/services/profiles/profileStorage.ts');

/** Electron's answer: the index of the button the user pressed (Esc gives cancelId). */
const CANCEL = 0;
const SEND = 1;

function productionProfile() {
  return new Profiles(new InMemoryProfileStorage()).addRemote({
    name: 'Acme Production',
    baseUrl: 'https://bank.acme.example',
    authScheme: 'basic',
    keyId: 'key_live_1',
    production: true,
  });
}

beforeEach(() => {
  electron.focused = null;
  electron.answers = [];
  electron.shown = [];
});

describe('the Production write confirmation in a native dialog', () => {
  it('names the exact write and the bank; Cancel is the default and what Esc answers', async () => {
    electron.answers.push(SEND);
    const window = { id: 'the app window' };
    electron.focused = window;
    const confirmed = await nativeWriteConfirmer().confirm({
      profileName: 'Acme Production',
      action: 'webhook.create',
      target: 'ach.update',
    });
    expect(confirmed).toBe(true);
    expect(electron.shown).toHaveLength(1);
    const [shown] = electron.shown;
    // Modal to the app's window, so the window cannot go on behind it.
    expect(shown?.parent).toBe(window);
    expect(shown?.options).toEqual({
      type: 'warning',
      title: 'Send to a Production bank?',
      message: 'Send "webhook.create" (ach.update) to Acme Production?',
      detail: 'Acme Production is a Production profile: this write reaches the real bank. Cancel unless you mean it.',
      buttons: ['Cancel', 'Send to Production'],
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    });
  });

  it('declined (Cancel or Esc): false, and no window needed to ask', async () => {
    electron.answers.push(CANCEL);
    expect(
      await nativeWriteConfirmer().confirm({ profileName: 'Acme', action: 'listener.register', target: null }),
    ).toBe(false);
    expect(electron.shown[0]?.parent).toBeNull();
    expect(electron.shown[0]?.options['message']).toBe('Send "listener.register" to Acme?');
  });

  it('an answer that is not the confirm button is never a yes', async () => {
    electron.answers.push(2, -1);
    const question = { title: 't', message: 'm', detail: 'd', confirmLabel: 'Send' };
    expect(await confirmInDialog(question)).toBe(false);
    expect(await confirmInDialog(question)).toBe(false);
  });
});

describe('the renderer cannot skip main’s question', () => {
  it('the window’s confirmProduction flag still shows the dialog; declined, the write is refused', async () => {
    const profile = productionProfile();
    electron.answers.push(CANCEL);
    await expect(
      confirmProductionWrite(profile, 'webhook.create', 'ach.update', true, nativeWriteConfirmer()),
    ).rejects.toBeInstanceOf(ProductionWriteNotConfirmed);
    expect(electron.shown).toHaveLength(1);
  });

  it('confirmed in the dialog, the write goes', async () => {
    electron.answers.push(SEND);
    await expect(
      confirmProductionWrite(productionProfile(), 'webhook.delete', 'wh_1', true, nativeWriteConfirmer()),
    ).resolves.toBeUndefined();
    expect(electron.shown).toHaveLength(1);
  });

  it('without the window’s flag it is refused before any dialog: both must say yes', async () => {
    await expect(
      confirmProductionWrite(productionProfile(), 'webhook.create', null, undefined, nativeWriteConfirmer()),
    ).rejects.toBeInstanceOf(ProductionWriteNotConfirmed);
    await expect(
      confirmProductionWrite(productionProfile(), 'webhook.create', null, false, nativeWriteConfirmer()),
    ).rejects.toBeInstanceOf(ProductionWriteNotConfirmed);
    expect(electron.shown).toEqual([]);
  });

  it('a profile that is not Production is not asked', async () => {
    const sandbox = new Profiles(new InMemoryProfileStorage()).find('local-sandbox');
    await expect(
      confirmProductionWrite(sandbox, 'webhook.create', null, undefined, nativeWriteConfirmer()),
    ).resolves.toBeUndefined();
    expect(electron.shown).toEqual([]);
  });
});

describe('the refusal when another Ledgerdesk holds the data folder', () => {
  const fromWebMode = {
    title: 'Ledgerdesk is already running',
    message: 'Ledgerdesk is already running in web mode, open at http://127.0.0.1:43059.',
    detail: 'detail',
    address: 'http://127.0.0.1:43059',
  };

  it('offers web mode’s address; Open it answers open, Quit or Esc answers quit', async () => {
    electron.answers.push(1, 0);
    expect(await askAfterWriterRefusal(fromWebMode)).toBe('open');
    expect(await askAfterWriterRefusal(fromWebMode)).toBe('quit');
    expect(electron.shown[0]?.options).toMatchObject({
      buttons: ['Quit', 'Open it in the browser'],
      defaultId: 1,
      cancelId: 0,
    });
  });

  it('with no address only Quit, and nothing can answer open', async () => {
    electron.answers.push(1);
    expect(await askAfterWriterRefusal({ ...fromWebMode, address: null })).toBe('quit');
    expect(electron.shown[0]?.options).toMatchObject({ buttons: ['Quit'], defaultId: 0, cancelId: 0 });
  });
});
