/**
 * The component that draws each screen. The screen the app opens on (Pending transactions) is
 * in the page's first script; every other screen is a chunk of its own, fetched the first time
 * it is opened, so the first screen's script holds only what it draws (issue 36): the Overview's
 * charts, the listener, team review, the applications' document preview are not parsed at start.
 * A chunk comes from the app's own origin (app:// in the desktop app, the web server in web
 * mode), so the CSP's `script-src 'self'` covers it.
 */
import { lazy, type ComponentType } from 'react';
import { PendingTransactionsScreen } from '../features/pendingTransactions/PendingTransactionsScreen.tsx';
import type { ScreenId } from '../lib/screens.ts';

/** A screen loaded on first use: `load` imports its module, `name` is its component's export. */
function later<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name): ComponentType {
  return lazy<ComponentType>(async () => ({ default: (await load())[name] }));
}

export const SCREEN_VIEWS: Record<ScreenId, ComponentType> = {
  'pending-transactions': PendingTransactionsScreen,
  'account-applications': later(
    () => import('../features/accountApplications/AccountApplicationsScreen.tsx'),
    'AccountApplicationsScreen',
  ),
  documents: later(() => import('../features/documents/DocumentsScreen.tsx'), 'DocumentsScreen'),
  'card-art': later(() => import('../features/cardArt/CardArtScreen.tsx'), 'CardArtScreen'),
  'review-queue': later(() => import('../features/review/ReviewQueueScreen.tsx'), 'ReviewQueueScreen'),
  'team-review': later(() => import('../features/team/TeamQueueScreen.tsx'), 'TeamQueueScreen'),
  overview: later(() => import('../features/overview/OverviewScreen.tsx'), 'OverviewScreen'),
  webhooks: later(() => import('../features/webhooks/WebhooksScreen.tsx'), 'WebhooksScreen'),
  'webhook-sends': later(() => import('../features/webhookSends/WebhookSendsScreen.tsx'), 'WebhookSendsScreen'),
  listener: later(() => import('../features/listener/ListenerScreen.tsx'), 'ListenerScreen'),
  settings: later(() => import('../features/settings/SettingsScreen.tsx'), 'SettingsScreen'),
};
