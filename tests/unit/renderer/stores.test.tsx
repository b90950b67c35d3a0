import { beforeEach, describe, expect, it } from 'vitest';
import { confirmWrite, useConfirmStore } from '../../../src/renderer/src/stores/confirm.ts';
import { useProfilesStore } from '../../../src/renderer/src/stores/profiles.ts';
import { latestJobOf, useSyncStore } from '../../../src/renderer/src/stores/sync.ts';
import { useThemeStore } from '../../../src/renderer/src/stores/theme.ts';
import { useToastStore } from '../../../src/renderer/src/stores/toasts.ts';
import { usePendingTransactionsStore } from '../../../src/renderer/src/features/pendingTransactions/store.ts';
import { installFakeBridge, refuse } from './setup.tsx';

const NOW = '2026-11-21T10:00:00Z';
const profile = (id: string, production: boolean) => ({
  id,
  name: id === 'prod' ? 'Acme Bank' : 'Embedded sandbox',
  kind: id === 'prod' ? 'remote' : 'embedded',
  baseUrl: 'http://127.0.0.1:4010',
  authScheme: 'basic',
  keyId: 'demo',
  production,
  createdAt: NOW,
  updatedAt: NOW,
});

const OPEN_ACCOUNT = {
  id: 'acct_1',
  name: 'Operating',
  account_number: null,
  status: 'open',
  balance: '1.00',
  available_balance: '1.00',
  created_at: NOW,
  updated_at: NOW,
};

beforeEach(() => {
  useToastStore.setState({ toasts: [] });
  useSyncStore.setState({ jobs: {} });
});

describe('theme store', () => {
  it('applies and remembers the choice, and toggles', () => {
    useThemeStore.getState().setPreference('dark');
    expect(document.documentElement.dataset['theme']).toBe('dark');
    expect(localStorage.getItem('ledgerdesk.theme')).toBe('dark');
    useThemeStore.getState().toggle();
    expect(useThemeStore.getState().theme).toBe('light');
    useThemeStore.getState().setPreference('system');
    expect(localStorage.getItem('ledgerdesk.theme')).toBeNull();
  });
});

describe('profiles store', () => {
  it('loads profiles and follows online-status events', async () => {
    const bridge = installFakeBridge({
      'profiles.list': () => ({ profiles: [profile('embedded', false)], activeProfileId: 'embedded' }),
      'app.onlineStatus': () => ({
        profileId: 'embedded',
        state: 'online',
        checkedAt: NOW,
        reason: null,
        nextCheckSeconds: null,
      }),
    });
    await useProfilesStore.getState().load();
    expect(useProfilesStore.getState().activeProfileId).toBe('embedded');
    bridge.emit('event:app.onlineStatus', {
      profileId: 'embedded',
      state: 'offline',
      checkedAt: NOW,
      reason: 'down',
      nextCheckSeconds: 4,
    });
    // Events arrive through the same subscription the app installs.
    const { installProfiles } = await import('../../../src/renderer/src/stores/profiles.ts');
    const off = installProfiles();
    bridge.emit('event:app.onlineStatus', {
      profileId: 'embedded',
      state: 'offline',
      checkedAt: NOW,
      reason: 'down',
      nextCheckSeconds: 4,
    });
    expect(useProfilesStore.getState().online['embedded']?.state).toBe('offline');
    off();
  });

  it('shows the error in words when the profiles cannot be read', async () => {
    installFakeBridge({});
    await useProfilesStore.getState().load();
    expect(useProfilesStore.getState().status).toBe('error');
    expect(useProfilesStore.getState().error?.code).toBe('not_available');
  });
});

describe('confirmWrite', () => {
  it('asks on a Production profile and adds confirmProduction only on yes', async () => {
    useProfilesStore.setState({ profiles: [profile('prod', true)] as never, activeProfileId: 'prod' });
    const asked = confirmWrite('Create a webhook');
    expect(useConfirmStore.getState().request?.production).toBe(true);
    expect(useConfirmStore.getState().request?.body).toContain('Acme Bank');
    useConfirmStore.getState().answer(true);
    expect(await asked).toEqual({ confirmProduction: true });

    const declined = confirmWrite('Create a webhook');
    useConfirmStore.getState().answer(false);
    expect(await declined).toBeNull();
  });

  it('does not ask on other profiles unless told to', async () => {
    useProfilesStore.setState({ profiles: [profile('embedded', false)] as never, activeProfileId: 'embedded' });
    expect(await confirmWrite('Create a webhook')).toEqual({});
    expect(useConfirmStore.getState().request).toBeNull();
    const deletion = confirmWrite('Delete the webhook', { alwaysAsk: true });
    expect(useConfirmStore.getState().request?.production).toBe(false);
    useConfirmStore.getState().answer(true);
    expect(await deletion).toEqual({});
  });
});

describe('sync store', () => {
  it('follows progress events and tells when a job failed', () => {
    const progress = {
      jobId: 'j1',
      profileId: 'embedded',
      kind: 'pendingTransactions' as const,
      key: 'acct_1',
      fetched: 10,
      written: 10,
      pages: 1,
      windowsDone: 0,
      windowsTotal: 0,
      parallelism: 1,
      ratePerSecond: 5,
      etaSeconds: 2,
      state: 'running' as const,
    };
    useSyncStore.getState().progressed(progress);
    expect(latestJobOf(useSyncStore.getState().jobs, 'pendingTransactions', 'acct_1', 'embedded')?.written).toBe(10);
    useSyncStore.getState().progressed({ ...progress, state: 'failed', error: 'The bank core is offline.' });
    expect(useToastStore.getState().toasts.at(-1)).toMatchObject({ tone: 'error', body: 'The bank core is offline.' });
  });

  it('says in a toast why a sync did not start', async () => {
    installFakeBridge({
      'sync.start': () => {
        throw refuse('offline', 'The bank cannot be reached.');
      },
    });
    expect(await useSyncStore.getState().start('embedded', { kind: 'webhooks' })).toBeNull();
    expect(useToastStore.getState().toasts.at(-1)).toMatchObject({ tone: 'warning', title: 'Sync did not start' });
  });
});

describe('pending transactions store', () => {
  it('picks the first account and reads the cache with the filters, blanks left out', async () => {
    const bridge = installFakeBridge({
      'accounts.list': () => ({
        rows: [
          {
            id: 'acct_1',
            name: 'Operating',
            account_number: null,
            status: 'open',
            balance: '1.00',
            available_balance: '1.00',
            created_at: NOW,
            updated_at: NOW,
          },
        ],
        asOf: NOW,
        source: 'cache',
      }),
      'pendingTransactions.list': () => ({ rows: [], nextCursor: null, asOf: NOW, source: 'cache' }),
      'pendingTransactions.count': () => ({ count: 0, asOf: NOW }),
    });
    await usePendingTransactionsStore.getState().open('embedded');
    usePendingTransactionsStore.getState().setFilters({ type: 'hold', search: '  coffee ' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const lists = bridge.calls.filter((call) => call.channel === 'pendingTransactions.list');
    expect(lists.at(-1)?.input).toMatchObject({
      profileId: 'embedded',
      accountId: 'acct_1',
      type: 'hold',
      search: 'coffee',
    });
    expect(lists.at(-1)?.input).not.toHaveProperty('typeSource');
  });

  it('opens the account last used on the profile at once, before the bank lists the accounts', async () => {
    const bridge = installFakeBridge({
      'accounts.list': () => new Promise(() => undefined), // the bank never answers (offline)
      'pendingTransactions.list': () => ({ rows: [], nextCursor: null, asOf: NOW, source: 'cache' }),
      'pendingTransactions.count': () => ({ count: 0, asOf: NOW }),
    });
    localStorage.setItem('ledgerdesk.lastAccount.other-profile', 'acct_remembered');
    void usePendingTransactionsStore.getState().open('other-profile');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(usePendingTransactionsStore.getState().filters.accountId).toBe('acct_remembered');
    const lists = bridge.calls.filter((call) => call.channel === 'pendingTransactions.list');
    expect(lists.at(-1)?.input).toMatchObject({ profileId: 'other-profile', accountId: 'acct_remembered' });
  });

  it('with nothing remembered, opens the first account with cached rows before the bank lists the accounts', async () => {
    // A new browser, or web mode on a new port (another origin: another storage), the bank slow.
    let answerBank: (accounts: unknown) => void = () => undefined;
    const bridge = installFakeBridge({
      'accounts.list': () => new Promise((resolve) => (answerBank = resolve)),
      'accounts.cached': () => ({ accountIds: ['acct_cached'], source: 'cache' }),
      'pendingTransactions.list': () => ({ rows: [], nextCursor: null, asOf: NOW, source: 'cache' }),
      'pendingTransactions.count': () => ({ count: 0, asOf: NOW }),
    });
    const opened = usePendingTransactionsStore.getState().open('fresh-profile');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(usePendingTransactionsStore.getState().filters.accountId).toBe('acct_cached');
    const lists = bridge.calls.filter((call) => call.channel === 'pendingTransactions.list');
    expect(lists.at(-1)?.input).toMatchObject({ profileId: 'fresh-profile', accountId: 'acct_cached' });
    // The bank's list, first naming another account, keeps the one on screen (no jump).
    const account = (id: string) => ({ ...OPEN_ACCOUNT, id });
    answerBank({ rows: [account('acct_other'), account('acct_cached')], asOf: NOW, source: 'bank' });
    await opened;
    expect(usePendingTransactionsStore.getState().filters.accountId).toBe('acct_cached');
    expect(bridge.calls.filter((call) => call.channel === 'pendingTransactions.list')).toHaveLength(lists.length);
  });
});

describe('listener store', () => {
  it('reconciles one webhook, or every webhook of the listener without naming one', async () => {
    const { EVERY_LISTENER_WEBHOOK, useListenerStore } =
      await import('../../../src/renderer/src/features/listener/store.ts');
    const empty = {
      rows: [],
      counts: { sentAndReceived: 0, sentNeverReceived: 0, receivedButFailed: 0, stillRetrying: 0 },
      nextCursor: null,
    };
    const bridge = installFakeBridge({ 'listener.reconcile': () => empty });
    useListenerStore.getState().setReconcileWebhook('wh_1');
    await useListenerStore.getState().reconcile('embedded');
    useListenerStore.getState().setReconcileWebhook(EVERY_LISTENER_WEBHOOK);
    await useListenerStore.getState().reconcile('embedded');
    const inputs = bridge.calls.filter((call) => call.channel === 'listener.reconcile').map((call) => call.input);
    expect(inputs).toHaveLength(2);
    expect(inputs[0]).toMatchObject({ profileId: 'embedded', webhookId: 'wh_1' });
    expect(inputs[1]).toMatchObject({ profileId: 'embedded' });
    expect(inputs[1]).not.toHaveProperty('webhookId');
    expect(useListenerStore.getState().reconcileError).toBeNull();
  });
});

describe('webhooks screen', () => {
  it('shows why a webhook is in error and re-enables it', async () => {
    const { render, screen } = await import('@testing-library/react');
    const userEvent = (await import('@testing-library/user-event')).default;
    const { WebhooksScreen } = await import('../../../src/renderer/src/features/webhooks/WebhooksScreen.tsx');
    const inError = {
      id: 'wh_1',
      event: 'ach.update',
      url: 'https://hooks.example/ach',
      status: 'error' as const,
      error: '100 failed deliveries within 60000 ms (threshold 100); last: HTTP 500',
      basic_user: null,
      basic_secret: null,
      userdata: null,
      created_at: NOW,
      updated_at: NOW,
    };
    let current = inError;
    const bridge = installFakeBridge({
      'webhooks.list': () => ({ rows: [current], nextCursor: null, asOf: NOW, source: 'bank' }),
      'webhooks.update': () => {
        current = { ...inError, status: 'enabled' as const, error: null } as unknown as typeof inError;
        return current;
      },
    });
    useProfilesStore.setState({ profiles: [profile('embedded', false)] as never, activeProfileId: 'embedded' });
    const user = userEvent.setup();
    render(<WebhooksScreen />);
    expect(await screen.findByText(inError.error)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Re-enable' }));
    const updates = bridge.calls.filter((call) => call.channel === 'webhooks.update');
    expect(updates).toHaveLength(1);
    expect(updates[0]?.input).toMatchObject({ profileId: 'embedded', id: 'wh_1', changes: { status: 'enabled' } });
    expect(await screen.findByRole('button', { name: 'Disable' })).toBeTruthy();
    expect(screen.queryByText(inError.error)).toBeNull();
  });
});

describe('card art screen', () => {
  it('offers to try again when the bank could not list the card products, and then lists them', async () => {
    const { render, screen } = await import('@testing-library/react');
    const userEvent = (await import('@testing-library/user-event')).default;
    const { CardArtScreen } = await import('../../../src/renderer/src/features/cardArt/CardArtScreen.tsx');
    let down = true;
    installFakeBridge({
      'cardArt.products': () => {
        if (down) throw refuse('bank_error', 'The bank core is offline (HTTP 503).');
        return {
          rows: [
            {
              id: 'cp_debit',
              name: 'Debit classic',
              card_art: { front: null, back: null, thumbnail: null },
              created_at: NOW,
              updated_at: NOW,
            },
          ],
          nextCursor: null,
          asOf: NOW,
          source: 'bank',
        };
      },
      'cardArt.list': () => ({ rows: [], nextCursor: null, asOf: NOW, source: 'cache' }),
    });
    useProfilesStore.setState({ profiles: [profile('embedded', false)] as never, activeProfileId: 'embedded' });
    const user = userEvent.setup();
    render(<CardArtScreen />);
    expect(await screen.findByText('Could not load card products')).toBeTruthy();
    down = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('option', { name: 'Debit classic · cp_debit' })).toBeTruthy();
    expect(screen.queryByText('Could not load card products')).toBeNull();
  });
});
