/**
 * The bar above every screen: where you are, whether the bank is reachable (and how old the
 * data is), running syncs, the profile switcher, the theme toggle and the command palette.
 */
import { useEffect, useState } from 'react';
import { Icon } from '../components/Icon.tsx';
import { SandboxRestartLink } from '../features/settings/SandboxRestartLink.tsx';
import { isMac, shortcutLabel } from '../lib/keyboard.ts';
import { screenOf } from '../lib/screens.ts';
import { ageOf, formatTimestamp } from '../lib/time.ts';
import { useNavigationStore } from '../stores/navigation.ts';
import { useActiveProfile, useOnlineStatus, useProfilesStore } from '../stores/profiles.ts';
import { useSyncStore } from '../stores/sync.ts';
import { useThemeStore } from '../stores/theme.ts';

/** Re-renders every `ms` so "as of 3 min ago" stays true. */
export function useNow(ms = 15_000): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => {
      setNow(Date.now());
    }, ms);
    return () => {
      clearInterval(timer);
    };
  }, [ms]);
  return now;
}

/** The reason (main's sentence for people), saying once that cached data stays available. */
function withCachedNote(reason: string): string {
  return /cached data stays available/i.test(reason) ? reason : `${reason} Cached data stays available.`;
}

function ConnectivityIndicator() {
  const status = useOnlineStatus();
  const now = useNow();
  const state = status?.state ?? 'unknown';
  const label = state === 'online' ? 'Online' : state === 'offline' ? 'Offline' : 'Checking…';
  const detail =
    state === 'offline'
      ? withCachedNote(status?.reason ?? 'The bank cannot be reached.')
      : `Checked ${ageOf(status?.checkedAt ?? null, now)}${status?.checkedAt == null ? '' : ` (${formatTimestamp(status.checkedAt)})`}`;
  return (
    <div
      className={`connectivity connectivity-${state}`}
      role="status"
      aria-label={`${label}. ${detail}`}
      title={detail}
    >
      <span className="connectivity-dot" aria-hidden="true" />
      <span>{label}</span>
      {state === 'offline' && status?.nextCheckSeconds != null ? (
        <span className="connectivity-detail">retry in {Math.round(status.nextCheckSeconds)} s</span>
      ) : null}
    </div>
  );
}

/** Offline because the local sandbox bank is not running: the way to restart it, beside the badge. */
function OfflineSandboxLink() {
  const status = useOnlineStatus();
  return status?.state === 'offline' ? <SandboxRestartLink sentence={status.reason} label="Restart sandbox" /> : null;
}

function RunningSyncs() {
  const running = useSyncStore((state) => Object.values(state.jobs).filter((job) => job.state === 'running').length);
  if (running === 0) return null;
  return (
    <div className="topbar-sync" role="status">
      <span className="spinner" aria-hidden="true" />
      {running === 1 ? 'Syncing' : `${running} syncs`}
    </div>
  );
}

function ProfileSwitcher() {
  const profiles = useProfilesStore((state) => state.profiles);
  const activeProfileId = useProfilesStore((state) => state.activeProfileId);
  const setActive = useProfilesStore((state) => state.setActive);
  const active = useActiveProfile();
  return (
    <label className={`profile-switcher${active?.production === true ? ' is-production' : ''}`}>
      <span className="visually-hidden">Profile</span>
      <span
        className={`profile-kind profile-kind-${active?.production === true ? 'production' : (active?.kind ?? 'embedded')}`}
        aria-hidden="true"
      />
      <select
        aria-label="Profile"
        value={activeProfileId ?? ''}
        onChange={(event) => void setActive(event.target.value)}
        disabled={profiles.length === 0}
      >
        {profiles.length === 0 ? <option value="">No profile</option> : null}
        {profiles.map((profile) => (
          <option key={profile.id} value={profile.id}>
            {profile.name}
            {profile.production ? ' (Production)' : ''}
          </option>
        ))}
      </select>
      <Icon name="chevronDown" size={12} />
    </label>
  );
}

export function TopBar() {
  const screen = useNavigationStore((state) => state.screen);
  const setPaletteOpen = useNavigationStore((state) => state.setPaletteOpen);
  const theme = useThemeStore((state) => state.theme);
  const toggle = useThemeStore((state) => state.toggle);
  return (
    <header className="topbar">
      <div className="topbar-title">{screenOf(screen)?.label}</div>
      <div className="topbar-actions">
        <RunningSyncs />
        <ConnectivityIndicator />
        <OfflineSandboxLink />
        <ProfileSwitcher />
        <button
          type="button"
          className="topbar-button"
          aria-label={theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
          title={theme === 'dark' ? 'Light theme' : 'Dark theme'}
          onClick={toggle}
        >
          <Icon name={theme === 'dark' ? 'sun' : 'moon'} />
        </button>
        {/* Named by what it shows ("Go to… Ctrl+K"), so speech input can say what it sees. */}
        <button
          type="button"
          className="topbar-search"
          onClick={() => {
            setPaletteOpen(true);
          }}
          aria-keyshortcuts={isMac() ? 'Meta+K' : 'Control+K'}
          aria-haspopup="dialog"
          title="Command palette"
        >
          <Icon name="search" size={14} />
          <span>Go to…</span>
          <kbd>{shortcutLabel('k')}</kbd>
        </button>
      </div>
    </header>
  );
}
