/**
 * The web preferences of every window: the Electron security checklist, explicitly, even
 * where it is already the default (so a changed default cannot weaken it).
 */
export function secureWebPreferences(preloadPath: string) {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    enableBlinkFeatures: '',
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
    // Middle-click opens links in a new window without window.open's checks.
    disableBlinkFeatures: 'Auxclick',
  } as const;
}
