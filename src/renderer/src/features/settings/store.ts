/** Settings: credential status per profile, keychain diagnostics, the cache, the audit log. */
import { create } from 'zustand';
import type {
  AuditEntry,
  CacheInfo,
  CredentialStatus,
  KeychainStatus,
  ConnectionTest,
} from '../../../../shared/ipc/index.ts';
import { api } from '../../lib/api.ts';
import { cacheSource } from '../../lib/cacheSource.ts';
import { sentenceOf, uiErrorOf, type UiError } from '../../lib/errors.ts';
import type { PagedRows } from '../../lib/pagedRows.ts';
import { confirmWrite } from '../../stores/confirm.ts';
import { exportArchive } from './recordArchiveActions.ts';
import { useProfilesStore } from '../../stores/profiles.ts';
import { toast } from '../../stores/toasts.ts';
import { reviewsHeld, reviewsKeptSentence } from '../review/reviewsHeld.ts';

export type SettingsTab =
  'profiles' | 'cache' | 'record' | 'screening' | 'listener' | 'audit' | 'review' | 'team' | 'appearance';

interface SettingsState {
  tab: SettingsTab;
  credentials: Record<string, CredentialStatus>;
  keychain: KeychainStatus | null;
  keychainError: UiError | null;
  tests: Record<string, ConnectionTest | 'running'>;
  cache: CacheInfo | null;
  cacheError: UiError | null;
  audit: PagedRows<AuditEntry> | null;
  auditSearch: string;
  setTab: (tab: SettingsTab) => void;
  loadCredentials: () => Promise<void>;
  testConnection: (profileId: string) => Promise<void>;
  setSecret: (profileId: string, secret: string) => Promise<void>;
  deleteSecret: (profileId: string) => Promise<void>;
  removeProfile: (profileId: string, name: string) => Promise<void>;
  loadCache: () => Promise<void>;
  clearCache: () => Promise<void>;
  loadAudit: (search?: string) => void;
  exportAudit: () => Promise<void>;
  credentialChanged: (status: CredentialStatus) => void;
}

export const useSettingsStore = create<SettingsState>((set, get) => ({
  tab: 'profiles',
  credentials: {},
  keychain: null,
  keychainError: null,
  tests: {},
  cache: null,
  cacheError: null,
  audit: null,
  auditSearch: '',
  setTab(tab) {
    set({ tab });
  },
  async loadCredentials() {
    const profiles = useProfilesStore.getState().profiles;
    try {
      set({ keychain: await api().credentials.keychain(), keychainError: null });
    } catch (reason) {
      set({ keychainError: uiErrorOf(reason) });
    }
    const statuses = await Promise.allSettled(
      profiles.map((profile) => api().credentials.status({ profileId: profile.id })),
    );
    const credentials: Record<string, CredentialStatus> = {};
    for (const status of statuses)
      if (status.status === 'fulfilled') credentials[status.value.profileId] = status.value;
    set({ credentials });
  },
  async testConnection(profileId) {
    set({ tests: { ...get().tests, [profileId]: 'running' } });
    try {
      const result = await api().profiles.testConnection({ id: profileId });
      set({ tests: { ...get().tests, [profileId]: result } });
    } catch (reason) {
      const error = uiErrorOf(reason);
      set({
        tests: { ...get().tests, [profileId]: { profileId, ok: false, latencyMs: null, message: sentenceOf(error) } },
      });
    }
  },
  async setSecret(profileId, secret) {
    const status = await api().credentials.set({ profileId, secret });
    get().credentialChanged(status);
    toast('success', 'Secret saved in the keychain');
  },
  async deleteSecret(profileId) {
    const confirmation = await confirmWrite('Delete the secret from the keychain', { alwaysAsk: true, danger: true });
    if (confirmation === null) return;
    try {
      get().credentialChanged(await api().credentials.delete({ profileId }));
      toast('success', 'Secret deleted from the keychain');
    } catch (reason) {
      toast('error', 'Could not delete the secret', sentenceOf(uiErrorOf(reason)));
    }
  },
  async removeProfile(profileId, name) {
    const confirmation = await confirmWrite(`Delete the profile ${name}`, {
      alwaysAsk: true,
      danger: true,
      detail: 'Its keychain entry and cached data are deleted too.',
      first: {
        sentence: `Its reviews, notes and their history go with it: export ${name}'s archive first to keep a signed copy an auditor can verify.`,
        label: `Export ${name}'s archive…`,
        run: async () => {
          await exportArchive({ id: profileId, name }, null);
        },
      },
    });
    if (confirmation === null) return;
    try {
      await api().profiles.remove({ id: profileId });
      toast('success', `Profile ${name} deleted`);
      await useProfilesStore.getState().load();
    } catch (reason) {
      toast('error', 'Could not delete the profile', sentenceOf(uiErrorOf(reason)));
    }
  },
  async loadCache() {
    try {
      set({ cache: await api().cache.info(), cacheError: null });
    } catch (reason) {
      set({ cacheError: uiErrorOf(reason) });
    }
  },
  async clearCache() {
    const reviews = await reviewsHeld(useProfilesStore.getState().profiles.map((profile) => profile.id));
    const confirmation = await confirmWrite('Clear the offline cache', {
      alwaysAsk: true,
      danger: true,
      detail: `Everything cached is dropped for every profile — transactions, send logs, account applications and their applicants (the people and businesses they name, with their personal data); the next sync fetches it again. ${reviewsKeptSentence(reviews)}`,
    });
    if (confirmation === null) return;
    try {
      await api().cache.clear({});
      toast('success', 'Cache cleared');
      await get().loadCache();
    } catch (reason) {
      toast('error', 'Could not clear the cache', sentenceOf(uiErrorOf(reason)));
    }
  },
  loadAudit(search = get().auditSearch) {
    get().audit?.close();
    const filter = search.trim() === '' ? {} : { search: search.trim() };
    set({ auditSearch: search, audit: cacheSource((page) => api().audit.list({ ...filter, ...page })) });
  },
  async exportAudit() {
    const search = get().auditSearch.trim();
    try {
      const saved = await api().exports.auditLog({ format: 'csv', ...(search === '' ? {} : { search }) });
      if (saved.saved) toast('success', `Exported ${saved.rows} audit entries`, saved.path ?? undefined);
    } catch (reason) {
      toast('error', 'Export failed', sentenceOf(uiErrorOf(reason)));
    }
  },
  credentialChanged(status) {
    // A connection test made with the old secret (or none) says nothing about the new state.
    const tests = Object.fromEntries(
      Object.entries(get().tests).filter(([profileId]) => profileId !== status.profileId),
    );
    set({ credentials: { ...get().credentials, [status.profileId]: status }, tests });
  },
}));

export function installCredentialEvents(): () => void {
  try {
    return api().credentials.onStatus((status) => {
      useSettingsStore.getState().credentialChanged(status);
    });
  } catch {
    return () => undefined;
  }
}
