/**
 * Profiles and the active one, with each profile's online state. Every screen reads the
 * active profile from here; switching it reloads what the screens show.
 */
import { useCallback, useEffect } from 'react';
import { create } from 'zustand';
import type { OnlineStatus, Profile } from '../../../shared/ipc/index.ts';
import { api } from '../lib/api.ts';
import { uiErrorOf, type UiError } from '../lib/errors.ts';
import { toast } from './toasts.ts';

interface ProfilesState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: UiError | null;
  profiles: Profile[];
  activeProfileId: string | null;
  online: Record<string, OnlineStatus>;
  load: () => Promise<void>;
  setActive: (id: string) => Promise<void>;
  refreshOnline: (profileId: string) => Promise<void>;
  onlineChanged: (status: OnlineStatus) => void;
}

export const useProfilesStore = create<ProfilesState>((set, get) => ({
  status: 'idle',
  error: null,
  profiles: [],
  activeProfileId: null,
  online: {},
  async load() {
    set({ status: get().status === 'ready' ? 'ready' : 'loading', error: null });
    try {
      const list = await api().profiles.list();
      set({ status: 'ready', profiles: list.profiles, activeProfileId: list.activeProfileId });
      if (list.activeProfileId !== null) void get().refreshOnline(list.activeProfileId);
    } catch (reason) {
      set({ status: 'error', error: uiErrorOf(reason) });
    }
  },
  async setActive(id) {
    if (id === get().activeProfileId) return;
    try {
      const list = await api().profiles.setActive({ id });
      set({ profiles: list.profiles, activeProfileId: list.activeProfileId });
      void get().refreshOnline(id);
    } catch (reason) {
      const error = uiErrorOf(reason);
      toast('error', 'Could not switch profile', error.message);
    }
  },
  async refreshOnline(profileId) {
    try {
      const status = await api().app.onlineStatus({ profileId });
      get().onlineChanged(status);
    } catch {
      // The indicator keeps its last known state; the event stream will correct it.
    }
  },
  onlineChanged(status) {
    set({ online: { ...get().online, [status.profileId]: status } });
  },
}));

export function useActiveProfile(): Profile | null {
  return useProfilesStore((state) => state.profiles.find((profile) => profile.id === state.activeProfileId) ?? null);
}

export function useActiveProfileId(): string | null {
  return useProfilesStore((state) => state.activeProfileId);
}

/**
 * Loads a screen's data for the active profile, and again whenever another profile becomes
 * active. Returns that load, for the screen's "Try again".
 */
export function useActiveProfileLoad(load: (profileId: string) => Promise<void>): () => void {
  const profileId = useActiveProfileId();
  const reload = useCallback(() => {
    if (profileId !== null) void load(profileId);
  }, [profileId, load]);
  useEffect(reload, [reload]);
  return reload;
}

export function useOnlineStatus(): OnlineStatus | null {
  return useProfilesStore((state) =>
    state.activeProfileId === null ? null : (state.online[state.activeProfileId] ?? null),
  );
}

export function isOffline(status: OnlineStatus | null): boolean {
  return status?.state === 'offline';
}

/** Subscribes to online-status events; returns the unsubscribe. */
export function installProfiles(): () => void {
  void useProfilesStore.getState().load();
  try {
    return api().app.onOnlineStatus((status) => {
      useProfilesStore.getState().onlineChanged(status);
    });
  } catch {
    return () => undefined;
  }
}
