/**
 * The window: a skip link, production banner, sidebar, top bar, the current screen; the command
 * palette, confirmations and toasts above them (dialogs and toasts in layers of their own).
 */
import { useEffect, useRef } from 'react';
import { StateMessage } from './components/States.tsx';
import { Toasts } from './components/Toasts.tsx';
import { Announcer } from './components/Announcer.tsx';
import { ReviewNoteHost } from './features/review/NoteDialog.tsx';
import { CommandPalette } from './frame/CommandPalette.tsx';
import { ConfirmHost } from './frame/ConfirmHost.tsx';
import { installGlobalKeys } from './frame/globalKeys.ts';
import { ProductionBanner } from './frame/ProductionBanner.tsx';
import { StoreBanner } from './frame/StoreBanner.tsx';
import { ScreenArrived, useScreenArrival, type OwedArrival } from './frame/screenArrival.ts';
import { ScreenLoading } from './frame/ScreenLoading.tsx';
import { SCREEN_VIEWS } from './frame/screenViews.tsx';
import { Sidebar } from './frame/Sidebar.tsx';
import { SkipLink } from './frame/SkipLink.tsx';
import { TopBar } from './frame/TopBar.tsx';
import { hasBridge } from './lib/api.ts';
import { screenOf, type ScreenId } from './lib/screens.ts';
import { installNavigation, useNavigationStore } from './stores/navigation.ts';
import { installProfiles, useProfilesStore } from './stores/profiles.ts';
import { installSync } from './stores/sync.ts';
import { installTheme } from './stores/theme.ts';

export function App() {
  useEffect(() => {
    const cleanups = [installTheme(), installNavigation(), installGlobalKeys()];
    if (hasBridge()) cleanups.push(installProfiles(), installSync());
    return () => {
      for (const cleanup of cleanups) cleanup();
    };
  }, []);
  if (!hasBridge()) {
    return (
      <main className="standalone">
        <div className="stack" style={{ alignItems: 'center' }}>
          <h1>Ledgerdesk</h1>
          <StateMessage icon="alert" tone="warning" title="Not connected">
            This page is the Ledgerdesk window: open it from the desktop app, which connects it to its services.
          </StateMessage>
        </div>
      </main>
    );
  }
  return <Frame />;
}

function Frame() {
  const screen = useNavigationStore((state) => state.screen);
  // Focus owed to a screen whose chunk was still being fetched when it was chosen.
  const owed = useRef<OwedArrival>(null);
  useScreenArrival(screen, owed);
  return (
    <div className="app">
      <SkipLink screen={screen} />
      <ProductionBanner />
      <StoreBanner />
      <div className="app-body">
        <Sidebar />
        <div className="app-main">
          <TopBar />
          {/* tabIndex -1: focus lands here when a screen has no heading (no profile yet). */}
          <main className="screen" id="screen" tabIndex={-1} aria-label={screenOf(screen)?.label}>
            <CurrentScreen screen={screen} owed={owed} />
          </main>
        </div>
      </div>
      <CommandPalette />
      <ConfirmHost />
      <ReviewNoteHost />
      <Toasts />
      <Announcer />
    </div>
  );
}

function CurrentScreen({ screen, owed }: { screen: ScreenId; owed: { current: OwedArrival } }) {
  const status = useProfilesStore((state) => state.status);
  const error = useProfilesStore((state) => state.error);
  const activeProfileId = useProfilesStore((state) => state.activeProfileId);
  if (status === 'error' && error !== null && screen !== 'settings') {
    return (
      <StateMessage icon="alert" tone="negative" title="Could not load the profiles" role="alert">
        {error.message}
      </StateMessage>
    );
  }
  // Settings, the listener and team review work without a bank profile.
  if (activeProfileId === null && screen !== 'settings' && screen !== 'listener' && screen !== 'team-review') {
    if (status !== 'ready') return null;
    return (
      <StateMessage icon="settings" title="No profile yet">
        Add a profile in Settings to start.
      </StateMessage>
    );
  }
  const View = SCREEN_VIEWS[screen];
  // Keyed by profile: switching profile starts every screen afresh on the new profile.
  return (
    <div className="screen-content" key={`${screen}:${activeProfileId ?? ''}`}>
      <ScreenLoading label={screenOf(screen)?.label ?? screen}>
        <View />
        <ScreenArrived screen={screen} owed={owed} />
      </ScreenLoading>
    </div>
  );
}
