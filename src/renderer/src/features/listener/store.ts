/**
 * The local webhook listener: its status and settings, the live stream of requests it kept,
 * one request in detail, replay and forward, the response rules, reconciliation with the
 * bank's send log, and registering it with the bank.
 */
import { create } from 'zustand';
import type {
  ListenerConfig,
  ListenerRequestDetail,
  ListenerRequestSummary,
  ListenerRule,
  ListenerStatus,
  ListenerVerdict,
  Reconciliation,
  ReconciliationCategory,
  ReplayResult,
} from '../../../../shared/ipc/index.ts';
import type { ApiInput } from '../../../../shared/ipc/index.ts';
import type { WebhookResponse } from '../../../../shared/bank/index.ts';
import { api } from '../../lib/api.ts';
import { cacheSource } from '../../lib/cacheSource.ts';
import { sentenceOf, uiErrorOf, type UiError } from '../../lib/errors.ts';
import type { PagedRows } from '../../lib/pagedRows.ts';
import { confirmWrite } from '../../stores/confirm.ts';
import { toast } from '../../stores/toasts.ts';
import { announce } from '../../stores/announcements.ts';
import { useWebhooksStore } from '../webhooks/store.ts';
import { useRegistrationsStore } from './registrationsStore.ts';

export type ListenerTab = 'requests' | 'rules' | 'reconcile' | 'setup' | 'trigger' | 'events';

/** The reconciliation choice "every webhook registered with the listener" (never a webhook id). */
export const EVERY_LISTENER_WEBHOOK = '*';

interface RequestFilters {
  verdict: ListenerVerdict | '';
  search: string;
  /** Only requests whose path starts with this ('/webhooks/' for registrations). */
  pathPrefix: string;
  /** Only requests that repeat an earlier one (the bank's retries, or a replay). */
  duplicatesOnly: boolean;
}

interface ListenerState {
  tab: ListenerTab;
  status: ListenerStatus | null;
  statusError: UiError | null;
  config: ListenerConfig | null;
  rules: ListenerRule[];
  rulesError: UiError | null;
  filters: RequestFilters;
  requests: PagedRows<ListenerRequestSummary> | null;
  selected: number | null;
  /** The request the drawer shows (set at once; `detail` follows when it is read). */
  detailId: string | null;
  detail: ListenerRequestDetail | null;
  detailError: UiError | null;
  reconciliation: Reconciliation | null;
  reconcileCategory: ReconciliationCategory | '';
  /**
   * The webhook whose send log is reconciled with what the listener received, or
   * EVERY_LISTENER_WEBHOOK for all those registered with the listener; '' before a choice.
   */
  reconcileWebhookId: string;
  /** Webhooks registered from here this session (the cached list may not have them yet). */
  registered: WebhookResponse[];
  setReconcileWebhook: (webhookId: string) => void;
  reconcileError: UiError | null;
  reconciling: boolean;
  busy: boolean;
  lastReplay: ReplayResult[] | null;
  newSinceLoad: number;
  setTab: (tab: ListenerTab) => void;
  load: () => Promise<void>;
  start: (port?: number) => Promise<void>;
  stop: () => Promise<void>;
  configure: (input: ApiInput<'listener', 'configure'>) => Promise<ListenerConfig>;
  /** Main asks the user in a native dialog; rejects with `cancelled` when they decline. */
  allowTarget: (url: string) => Promise<string>;
  forgetTarget: (origin: string) => Promise<void>;
  saveRules: (rules: ApiInput<'listener', 'setRules'>['rules']) => Promise<void>;
  setFilters: (patch: Partial<RequestFilters>) => void;
  /** Reads the same list again (new arrivals): its rows stay until the new ones arrive. */
  reload: () => void;
  select: (index: number | null) => void;
  openRequest: (id: string) => Promise<void>;
  closeRequest: () => void;
  replay: (input: ApiInput<'listener', 'replay'>) => Promise<ReplayResult[] | null>;
  forward: (requestId: string, url?: string) => Promise<void>;
  clearRequests: () => Promise<void>;
  reconcile: (profileId: string, category?: ReconciliationCategory | '') => Promise<void>;
  /** Registers one webhook per event; true when at least one was registered. */
  register: (profileId: string, events: readonly string[]) => Promise<boolean>;
  requestsArrived: (count: number) => void;
  statusChanged: (status: ListenerStatus) => void;
}

function requestFilterInput(filters: RequestFilters) {
  return {
    ...(filters.verdict === '' ? {} : { verdict: filters.verdict }),
    ...(filters.search.trim() === '' ? {} : { search: filters.search.trim() }),
    ...(filters.pathPrefix.trim() === '' ? {} : { pathPrefix: filters.pathPrefix.trim() }),
    ...(filters.duplicatesOnly ? { duplicatesOnly: true } : {}),
  };
}

let reloadTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * "Registered 2 webhooks: ach.create (wh_1) posting to …/a, ach.update (wh_2) posting to …/b."
 * Every webhook made is named with its own address (issue 38); one address shared by all is said once.
 */
export function registeredSentence(
  webhooks: readonly Pick<WebhookResponse, 'id' | 'event' | 'url'>[],
  listenerUrl: string,
): string {
  const count = `${String(webhooks.length)} webhook${webhooks.length === 1 ? '' : 's'}`;
  const addresses = new Set(webhooks.map((webhook) => webhook.url ?? listenerUrl));
  if (addresses.size <= 1) {
    const made = webhooks.map((webhook) => `${String(webhook.event)} (${webhook.id})`).join(', ');
    return `Registered ${count} posting to ${[...addresses][0] ?? listenerUrl}: ${made}.`;
  }
  const made = webhooks
    .map((webhook) => `${String(webhook.event)} (${webhook.id}) posting to ${webhook.url ?? listenerUrl}`)
    .join(', ');
  return `Registered ${count}: ${made}.`;
}

function requestsOf(
  filters: RequestFilters,
  standIn: PagedRows<ListenerRequestSummary> | null,
): PagedRows<ListenerRequestSummary> {
  const filter = requestFilterInput(filters);
  return cacheSource(
    (page) => api().listener.listRequests({ ...filter, ...page }),
    () => api().listener.countRequests(filter),
    { standIn },
  );
}

export const useListenerStore = create<ListenerState>((set, get) => ({
  tab: 'requests',
  status: null,
  statusError: null,
  config: null,
  rules: [],
  rulesError: null,
  filters: { verdict: '', search: '', pathPrefix: '', duplicatesOnly: false },
  requests: null,
  selected: null,
  detailId: null,
  detail: null,
  detailError: null,
  reconciliation: null,
  reconcileCategory: '',
  reconcileWebhookId: '',
  registered: [],
  setReconcileWebhook(reconcileWebhookId) {
    set({ reconcileWebhookId, reconciliation: null });
  },
  reconcileError: null,
  reconciling: false,
  busy: false,
  lastReplay: null,
  newSinceLoad: 0,
  setTab(tab) {
    set({ tab });
  },
  async load() {
    const [status, config, rules] = await Promise.allSettled([
      api().listener.status(),
      api().listener.getConfig(),
      api().listener.listRules(),
    ]);
    set({
      status: status.status === 'fulfilled' ? status.value : null,
      statusError: status.status === 'rejected' ? uiErrorOf(status.reason) : null,
      config: config.status === 'fulfilled' ? config.value : null,
      rules: rules.status === 'fulfilled' ? rules.value.rules : [],
      rulesError: rules.status === 'rejected' ? uiErrorOf(rules.reason) : null,
    });
    get().setFilters({});
  },
  async start(port) {
    set({ busy: true });
    try {
      const status = await api().listener.start(port === undefined ? {} : { port });
      set({ status });
      toast('success', 'Listener started', status.url ?? undefined);
    } catch (reason) {
      const error = uiErrorOf(reason);
      toast(
        'error',
        error.code === 'port_in_use' ? 'That port is taken' : 'The listener did not start',
        sentenceOf(error),
      );
    } finally {
      set({ busy: false });
    }
  },
  async stop() {
    set({ busy: true });
    try {
      set({ status: await api().listener.stop() });
      toast('info', 'Listener stopped');
    } catch (reason) {
      toast('error', 'The listener did not stop', uiErrorOf(reason).message);
    } finally {
      set({ busy: false });
    }
  },
  async configure(input) {
    const config = await api().listener.configure(input);
    set({ config });
    toast('success', 'Listener settings saved');
    return config;
  },
  async allowTarget(url) {
    const answer = await api().listener.allowTarget({ url });
    const config = get().config;
    if (config !== null) set({ config: { ...config, allowedTargets: answer.allowedTargets } });
    toast('success', 'Host allowed', answer.origin);
    return answer.origin;
  },
  async forgetTarget(origin) {
    const answer = await api().listener.forgetTarget({ origin });
    const config = get().config;
    if (config !== null) set({ config: { ...config, allowedTargets: answer.allowedTargets } });
    toast('info', 'Host removed', origin);
  },
  async saveRules(rules) {
    const answer = await api().listener.setRules({ rules });
    set({ rules: answer.rules });
    toast('success', 'Response rules saved', `${answer.rules.length} ${answer.rules.length === 1 ? 'rule' : 'rules'}`);
  },
  setFilters(patch) {
    const filters = { ...get().filters, ...patch };
    get().requests?.close();
    set({ filters, newSinceLoad: 0, selected: null, requests: requestsOf(filters, null) });
  },
  reload() {
    const { filters, requests } = get();
    requests?.close();
    // The active row is carried over; the list screen moves it to where its request now is.
    set({ newSinceLoad: 0, requests: requestsOf(filters, requests) });
  },
  select(selected) {
    set({ selected });
  },
  async openRequest(id) {
    if (get().detailId !== id) set({ detailId: id, detail: null, lastReplay: null });
    set({ detailError: null });
    try {
      const detail = await api().listener.getRequest({ id });
      if (get().detailId === id) set({ detail });
    } catch (reason) {
      if (get().detailId === id) set({ detail: null, detailError: uiErrorOf(reason) });
    }
  },
  closeRequest() {
    set({ detailId: null, detail: null, detailError: null, lastReplay: null });
  },
  async replay(input) {
    try {
      const answer = await api().listener.replay(input);
      set({ lastReplay: answer.results });
      const ok = answer.results.filter((result) => result.status !== null && result.status < 300).length;
      toast(
        ok === answer.results.length ? 'success' : 'warning',
        `Replayed ${answer.results.length}`,
        `${ok} answered 2xx`,
      );
      return answer.results;
    } catch (reason) {
      toast('error', 'Replay failed', sentenceOf(uiErrorOf(reason)));
      return null;
    }
  },
  async forward(requestId, url) {
    try {
      const result = await api().listener.forward(url === undefined ? { requestId } : { requestId, url });
      toast(
        result.error === null ? 'success' : 'warning',
        result.error === null ? `Forwarded: ${result.status ?? 'no answer'}` : 'Forward failed',
        result.error ?? result.url,
      );
      await get().openRequest(requestId);
    } catch (reason) {
      toast('error', 'Forward failed', sentenceOf(uiErrorOf(reason)));
    }
  },
  async clearRequests() {
    const confirmation = await confirmWrite('Delete every kept request', {
      alwaysAsk: true,
      danger: true,
      detail: 'The listener forgets them; this cannot be undone.',
    });
    if (confirmation === null) return;
    try {
      const { removed } = await api().listener.clearRequests();
      toast('success', `Removed ${removed} requests`);
      get().setFilters({});
    } catch (reason) {
      toast('error', 'Could not clear the requests', uiErrorOf(reason).message);
    }
  },
  async reconcile(profileId, category = get().reconcileCategory) {
    const webhookId = get().reconcileWebhookId;
    set({ reconcileCategory: category });
    if (webhookId === '') return;
    set({ reconciling: true, reconcileError: null });
    try {
      const reconciliation = await api().listener.reconcile({
        profileId,
        ...(webhookId === EVERY_LISTENER_WEBHOOK ? {} : { webhookId }),
        limit: 500,
        ...(category === '' ? {} : { category }),
      });
      set({ reconciliation, reconciling: false });
    } catch (reason) {
      set({ reconcileError: uiErrorOf(reason), reconciling: false });
    }
  },
  async register(profileId, events) {
    if (events.length === 0) {
      toast('error', 'Choose an event first', 'Open Events and tick the events to register the listener for.');
      return false;
    }
    const confirmation = await confirmWrite(`Register the listener for ${events.join(', ')}`);
    if (confirmation === null) return false;
    try {
      const answer = await api().listener.register({ profileId, events: [...events], ...confirmation });
      const known = get().registered.filter((webhook) => !answer.webhooks.some((made) => made.id === webhook.id));
      set({ registered: [...known, ...answer.webhooks], reconcileWebhookId: answer.webhook.id });
      const sentence = registeredSentence(answer.webhooks, answer.listenerUrl);
      announce(sentence);
      toast('success', 'Registered with the bank', sentence);
      if (answer.failed.length > 0) {
        toast(
          'error',
          `Not registered: ${answer.failed.map((failure) => failure.event).join(', ')}`,
          answer.failed.map((failure) => `${failure.event}: ${failure.message}`).join(' '),
        );
      }
      // Registered whatever follows: a refresh that fails keeps what is shown until the next load.
      void api()
        .listener.getConfig()
        .then(
          (config) => {
            set({ config });
          },
          () => undefined,
        );
      void useRegistrationsStore.getState().load(profileId);
      // The Webhooks screen reads the cache, which main has just updated.
      const webhooks = useWebhooksStore.getState();
      if (webhooks.profileId === profileId) void webhooks.load(profileId);
      return true;
    } catch (reason) {
      toast('error', 'Could not register the listener', sentenceOf(uiErrorOf(reason)));
      return false;
    }
  },
  requestsArrived(count) {
    const status = get().status;
    // The tab's count moves with the stream; the next status (a start, stop or reload) corrects it.
    set({
      newSinceLoad: get().newSinceLoad + count,
      ...(status === null ? {} : { status: { ...status, requestsKept: status.requestsKept + count } }),
    });
    // Batched: at most one reload of the first page a second, however many arrive.
    if (reloadTimer !== undefined) return;
    reloadTimer = setTimeout(() => {
      reloadTimer = undefined;
      get().reload();
    }, 700);
  },
  statusChanged(status) {
    set({ status });
  },
}));

export function installListenerEvents(): () => void {
  try {
    const offRequests = api().listener.onRequests((batch) => {
      useListenerStore.getState().requestsArrived(batch.requests.length + batch.omitted);
    });
    const offStatus = api().listener.onStatus((status) => {
      useListenerStore.getState().statusChanged(status);
    });
    return () => {
      offRequests();
      offStatus();
    };
  } catch {
    return () => undefined;
  }
}
