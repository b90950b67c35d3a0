/**
 * Hardening of every webContents and of the session: navigation denied, window.open denied
 * (a safe https link goes to the browser instead), <webview> refused, every permission
 * denied. Written against the small parts of Electron's objects it uses, so the unit tests
 * drive it with fakes.
 */
import { isSafeExternalUrl } from '../app/externalLinks.ts';

export interface PreventableEvent {
  preventDefault(): void;
}

/** The parts of WebContents that hardening touches. */
export interface WebContentsLike {
  on(event: 'will-navigate' | 'will-redirect', listener: (event: PreventableEvent, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

export interface PermissionSessionLike {
  setPermissionRequestHandler(
    handler: ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | null,
  ): void;
  setPermissionCheckHandler(handler: ((contents: unknown, permission: string) => boolean) | null): void;
  setDevicePermissionHandler(handler: ((details: unknown) => boolean) | null): void;
}

export interface HardeningOptions {
  /** Opens a URL in the user's browser (shell.openExternal, at the edge). */
  openInBrowser: (url: string) => Promise<void> | void;
  log?: (message: string) => void;
}

/** Opens `url` externally when it passes the check; says whether it did. */
export function openInBrowserIfSafe(url: unknown, options: HardeningOptions): boolean {
  if (!isSafeExternalUrl(url)) {
    options.log?.(`refused to open ${String(url).slice(0, 200)} outside the app`);
    return false;
  }
  void Promise.resolve(options.openInBrowser(url)).catch(() => undefined);
  return true;
}

export function hardenWebContents(contents: WebContentsLike, options: HardeningOptions): void {
  // The renderer is a single page: it never navigates. A link to an https page is opened in
  // the browser instead; anything else is dropped.
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    openInBrowserIfSafe(url, options);
  });
  contents.on('will-redirect', (event, url) => {
    event.preventDefault();
    options.log?.(`refused a redirect to ${url.slice(0, 200)}`);
  });
  contents.setWindowOpenHandler(({ url }) => {
    openInBrowserIfSafe(url, options);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    options.log?.('refused to attach a <webview>');
  });
}

/** No permission is ever granted: camera, microphone, notifications, geolocation, HID… */
export function denyAllPermissions(session: PermissionSessionLike): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => {
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}
