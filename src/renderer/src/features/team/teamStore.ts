/**
 * Team review in the window (docs/team.md): this laptop's team and sync state, the members with
 * their key fingerprints, the four queues, and every action. An action is queued on the laptop
 * at once and pushed when the server answers, so the store re-reads the queues after each one;
 * a conflict or refusal comes back in the conflicts queue with the server's sentence.
 */
import { create } from 'zustand';
import type { TeamQueues, TeamStatus } from '../../../../shared/ipc/index.ts';
import type { LedgerdeskApi } from '../../lib/api.ts';
import { api } from '../../lib/api.ts';
import { sentenceOf, uiErrorOf, type UiError } from '../../lib/errors.ts';
import { useProfilesStore } from '../../stores/profiles.ts';
import { toast } from '../../stores/toasts.ts';

export type TeamMember = Awaited<ReturnType<LedgerdeskApi['team']['members']>>['rows'][number];
export type TeamActionInput = Parameters<LedgerdeskApi['team']['act']>[0];
export type TeamVerification = Awaited<ReturnType<LedgerdeskApi['team']['verify']>>;

interface TeamState {
  status: TeamStatus | null;
  statusError: UiError | null;
  members: TeamMember[] | null;
  membersError: UiError | null;
  queues: TeamQueues | null;
  queuesError: UiError | null;
  /** Why the last sync did not reach the server (actions stay queued), or null. */
  syncProblem: string | null;
  syncing: boolean;
  loadStatus: () => Promise<void>;
  loadMembers: () => Promise<void>;
  loadQueues: () => Promise<void>;
  join: (inviteFile: string) => Promise<void>;
  sync: () => Promise<void>;
  act: (input: TeamActionInput, done: string) => Promise<boolean>;
  acknowledge: (eventId: string) => Promise<void>;
  /** After comparing a new member's fingerprint with them (the one compared). */
  acknowledgeMember: (login: string, fingerprint: string) => Promise<void>;
}

export const useTeamStore = create<TeamState>((set, get) => ({
  status: null,
  statusError: null,
  members: null,
  membersError: null,
  queues: null,
  queuesError: null,
  syncProblem: null,
  syncing: false,

  async loadStatus() {
    try {
      set({ status: await api().team.status({}), statusError: null });
    } catch (reason) {
      set({ statusError: uiErrorOf(reason) });
    }
  },

  async loadMembers() {
    try {
      set({ members: (await api().team.members({})).rows, membersError: null });
    } catch (reason) {
      set({ membersError: uiErrorOf(reason) });
    }
  },

  async loadQueues() {
    try {
      set({ queues: await api().team.queues({ limit: 200 }), queuesError: null });
    } catch (reason) {
      set({ queuesError: uiErrorOf(reason) });
    }
  },

  async join(inviteFile) {
    // Errors go back to the form, which shows them beside the field.
    // The workspace maps to the profile the officer works in, so this laptop can name that
    // profile's pending transactions as every laptop of the team does.
    const profileId = useProfilesStore.getState().activeProfileId;
    const status = await api().team.join({ inviteFile, ...(profileId === null ? {} : { profileId }) });
    set({ status, statusError: null });
    toast('success', `Joined ${status.workspace ?? 'the team'}`, `Signed in as ${status.login ?? ''}.`);
    await Promise.all([get().loadMembers(), get().loadQueues()]);
  },

  async sync() {
    if (get().syncing) return;
    set({ syncing: true });
    try {
      const outcome = await api().team.sync({});
      set({ status: outcome.status, syncProblem: outcome.problem });
      if (outcome.problem === null)
        toast(
          'success',
          'Team synced',
          `${String(outcome.pushed)} pushed, ${String(outcome.pulled)} pulled and verified.`,
        );
      else toast('warning', 'The team server did not answer', `${outcome.problem} Your actions stay queued.`);
    } catch (reason) {
      toast('error', 'Could not sync with the team', sentenceOf(uiErrorOf(reason)));
    } finally {
      set({ syncing: false });
    }
    await get().loadQueues();
  },

  async act(input, done) {
    try {
      const outcome = await api().team.act(input);
      if (outcome.state === 'ok') toast('success', done);
      else if (outcome.state === 'queued')
        toast('info', `${done} (queued)`, 'The team server did not answer: it is pushed when it does.');
      else toast('warning', outcome.state === 'conflict' ? 'Conflict' : 'Refused', outcome.detail ?? undefined);
      await Promise.all([get().loadQueues(), get().loadStatus()]);
      return outcome.state === 'ok' || outcome.state === 'queued';
    } catch (reason) {
      toast('error', 'The action was not queued', sentenceOf(uiErrorOf(reason)));
      return false;
    }
  },

  async acknowledgeMember(login, fingerprint) {
    try {
      const { countsAs, confirmed } = await api().team.acknowledgeMember({ login, fingerprint });
      toast(
        'success',
        `Acknowledged ${login}`,
        confirmed ? `Signed as a confirmation: ${login} counts as ${countsAs} for four-eyes.` : undefined,
      );
    } catch (reason) {
      toast('error', `${login} was not acknowledged`, sentenceOf(uiErrorOf(reason)));
    }
    await Promise.all([get().loadMembers(), get().loadStatus()]);
  },

  async acknowledge(eventId) {
    try {
      await api().team.acknowledge({ eventId });
    } catch (reason) {
      toast('error', 'Could not dismiss it', sentenceOf(uiErrorOf(reason)));
    }
    await Promise.all([get().loadQueues(), get().loadStatus()]);
  },
}));
