/** Opens the webhook send log filtered to one webhook (from the Webhooks screen or the listener). */
import { useNavigationStore } from '../../stores/navigation.ts';
import { NO_SEND_FILTERS, useWebhookSendsStore } from '../webhookSends/store.ts';

export function showSendLogOf(profileId: string, webhookId: string): void {
  const sends = useWebhookSendsStore.getState();
  sends.open(profileId);
  sends.setFilters({ ...NO_SEND_FILTERS, webhookId });
  useNavigationStore.getState().navigate('webhook-sends');
}
