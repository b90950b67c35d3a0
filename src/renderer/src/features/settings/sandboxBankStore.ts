/**
 * The local sandbox bank as Settings shows it: where it stands (running at its address, or why
 * not), restarting it on its data, and the way there from any error that says it is not
 * running (goToSandboxRestart: Settings › Profiles, focus on Restart).
 */
import { create } from 'zustand';
import type { EmbeddedSandboxState, SandboxRestart } from '../../../../shared/ipc/index.ts';
import { api } from '../../lib/api.ts';
import { sentenceOf, uiErrorOf } from '../../lib/errors.ts';
import { announce } from '../../stores/announcements.ts';
import { useNavigationStore } from '../../stores/navigation.ts';
import { useProfilesStore } from '../../stores/profiles.ts';
import { useSettingsStore } from './store.ts';

/** The outcome of the last restart, shown under the button until the next one. */
type RestartOutcome =
  | { state: 'idle' }
  | { state: 'restarting' }
  | { state: 'done'; restart: SandboxRestart }
  | { state: 'failed'; message: string };

interface SandboxBankState {
  status: EmbeddedSandboxState | null;
  statusProblem: string | null;
  outcome: RestartOutcome;
  /** Set by the way here from an error: the panel moves focus to Restart once it shows. */
  focusRestart: boolean;
  load: () => Promise<void>;
  restart: () => Promise<void>;
  focusTaken: () => void;
}

export const useSandboxBankStore = create<SandboxBankState>((set, get) => ({
  status: null,
  statusProblem: null,
  outcome: { state: 'idle' },
  focusRestart: false,
  async load() {
    try {
      set({ status: await api().embeddedSandbox.status({}), statusProblem: null });
    } catch (reason) {
      set({ statusProblem: sentenceOf(uiErrorOf(reason)) });
    }
  },
  async restart() {
    if (get().outcome.state === 'restarting') return;
    set({ outcome: { state: 'restarting' } });
    announce('Restarting the local sandbox bank…');
    try {
      const restart = await api().embeddedSandbox.restart({});
      set({ outcome: { state: 'done', restart }, status: restart.state });
      announce(restartSentence(restart));
      // The profiles again (the sandbox profile's address is the new port) and, with them, the
      // Online badge (main pushes it too; asked in case this window missed the push).
      void useProfilesStore.getState().load();
    } catch (reason) {
      const message = sentenceOf(uiErrorOf(reason));
      set({ outcome: { state: 'failed', message } });
      announce(`The local sandbox bank did not restart. ${message}`);
      await get().load();
    }
  },
  focusTaken() {
    set({ focusRestart: false });
  },
}));

/** What a restart did, in one sentence: said to screen readers and shown under the button. */
export function restartSentence(restart: SandboxRestart): string {
  if (!restart.state.running) return `The local sandbox bank did not start: ${restart.state.problem}`;
  const seconds = (restart.tookMs / 1000).toFixed(1);
  return restart.answering
    ? `The local sandbox bank is running again (restarted in ${seconds} s) and answers; sync to fetch what changed.`
    : `The local sandbox bank started again (in ${seconds} s) but does not answer yet; the Online badge says when it does.`;
}

/** From an error that says the sandbox is not running: Settings › Profiles, focus on Restart. */
export function goToSandboxRestart(): void {
  useSettingsStore.getState().setTab('profiles');
  useSandboxBankStore.setState({ focusRestart: true });
  useNavigationStore.getState().navigate('settings');
}
