/**
 * Confirmations: one dialog at a time, asked for with a promise. Every write against a
 * Production profile goes through `confirmWrite`, which adds `confirmProduction: true` only
 * when the user said yes.
 */
import { create } from 'zustand';
import { useProfilesStore } from './profiles.ts';

interface ConfirmRequest {
  title: string;
  body: string;
  confirmLabel: string;
  tone: 'default' | 'danger';
  production: boolean;
  /** Something to do before answering (removing a profile offers its archive first): a sentence and a button. */
  first?: { sentence: string; label: string; run: () => Promise<void> };
}

interface ConfirmState {
  request: ConfirmRequest | null;
  resolve: ((answer: boolean) => void) | null;
  ask: (request: ConfirmRequest) => Promise<boolean>;
  answer: (answer: boolean) => void;
}

export const useConfirmStore = create<ConfirmState>((set, get) => ({
  request: null,
  resolve: null,
  ask(request) {
    get().resolve?.(false);
    return new Promise<boolean>((resolve) => {
      set({ request, resolve });
    });
  },
  answer(answer) {
    get().resolve?.(answer);
    set({ request: null, resolve: null });
  },
}));

/**
 * Asks before a write. On a Production profile it always asks (and names the profile);
 * elsewhere only when `alwaysAsk` (deletions). Resolves with the fields to add to the
 * input, or null when the user cancelled.
 */
export async function confirmWrite(
  what: string,
  options: { alwaysAsk?: boolean; danger?: boolean; detail?: string; first?: ConfirmRequest['first'] } = {},
): Promise<{ confirmProduction?: true } | null> {
  const state = useProfilesStore.getState();
  const profile = state.profiles.find((candidate) => candidate.id === state.activeProfileId);
  const production = profile?.production === true;
  if (!production && options.alwaysAsk !== true) return {};
  const body =
    profile !== undefined && production
      ? `${what} on ${profile.name}, a Production profile: this changes the real bank.${options.detail === undefined ? '' : ' ' + options.detail}`
      : `${what}.${options.detail === undefined ? '' : ' ' + options.detail}`;
  const yes = await useConfirmStore.getState().ask({
    title: production ? 'Change Production?' : `${what}?`,
    body,
    confirmLabel: production ? 'Yes, change Production' : what,
    tone: options.danger === true || production ? 'danger' : 'default',
    production,
    ...(options.first === undefined ? {} : { first: options.first }),
  });
  if (!yes) return null;
  return production ? { confirmProduction: true } : {};
}
