/** The screens of the app, in sidebar order; the hash of the URL names the current one. */

export const SCREENS = [
  { id: 'pending-transactions', label: 'Pending transactions', group: 'Operations', key: 'p' },
  { id: 'account-applications', label: 'Account applications', group: 'Operations', key: 'a' },
  { id: 'documents', label: 'Documents', group: 'Operations', key: 'd' },
  { id: 'card-art', label: 'Card art', group: 'Operations', key: 'c' },
  { id: 'review-queue', label: 'Review queue', group: 'Operations', key: 'r' },
  { id: 'team-review', label: 'Team review', group: 'Operations', key: 't' },
  { id: 'overview', label: 'Overview', group: 'Operations', key: 'o' },
  { id: 'webhooks', label: 'Webhooks', group: 'Developers', key: 'w' },
  { id: 'webhook-sends', label: 'Webhook send log', group: 'Developers', key: 's' },
  { id: 'listener', label: 'Listener', group: 'Developers', key: 'l' },
  { id: 'settings', label: 'Settings', group: 'App', key: ',' },
] as const;

export type ScreenId = (typeof SCREENS)[number]['id'];
export type Screen = (typeof SCREENS)[number];

export const DEFAULT_SCREEN: ScreenId = 'pending-transactions';

export function screenOf(id: string): Screen | undefined {
  return SCREENS.find((screen) => screen.id === id);
}
