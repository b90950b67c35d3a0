/** Navigation, window.open, <webview> and permissions are all refused. */
import { describe, expect, it, vi } from 'vitest';
import {
  denyAllPermissions,
  hardenWebContents,
  type PermissionSessionLike,
  type PreventableEvent,
  type WebContentsLike,
} from '../../../src/main/electron/hardening.ts';
import { secureWebPreferences } from '../../../src/main/electron/webPreferences.ts';

function fakeContents() {
  const listeners = new Map<string, (...args: never[]) => void>();
  let openHandler: ((details: { url: string }) => { action: 'deny' }) | null = null;
  const contents: WebContentsLike = {
    on(event: string, listener: (...args: never[]) => void) {
      listeners.set(event, listener);
      return contents;
    },
    setWindowOpenHandler(handler) {
      openHandler = handler;
    },
  };
  const fire = (event: string, url?: string) => {
    const preventDefault = vi.fn();
    const listener = listeners.get(event) as ((event: PreventableEvent, url?: string) => void) | undefined;
    listener?.({ preventDefault }, url);
    return preventDefault;
  };
  return { contents, fire, open: (url: string) => openHandler?.({ url }) };
}

describe('hardenWebContents', () => {
  it('denies every navigation; an https link goes to the browser, anything else nowhere', () => {
    const openInBrowser = vi.fn();
    const { contents, fire } = fakeContents();
    hardenWebContents(contents, { openInBrowser });
    expect(fire('will-navigate', 'https://example.com/docs')).toHaveBeenCalled();
    expect(fire('will-navigate', 'file:///etc/passwd')).toHaveBeenCalled();
    expect(fire('will-navigate', 'app://ledgerdesk/index.html')).toHaveBeenCalled();
    expect(fire('will-redirect', 'https://evil.example/')).toHaveBeenCalled();
    expect(openInBrowser.mock.calls).toEqual([['https://example.com/docs']]);
  });

  it('denies window.open, opening only safe https links externally', () => {
    const openInBrowser = vi.fn();
    const { contents, open } = fakeContents();
    hardenWebContents(contents, { openInBrowser });
    expect(open('https://example.com/')).toEqual({ action: 'deny' });
    expect(open('javascript:alert(1)')).toEqual({ action: 'deny' });
    expect(open('http://example.com/')).toEqual({ action: 'deny' });
    expect(openInBrowser.mock.calls).toEqual([['https://example.com/']]);
  });

  it('refuses to attach a <webview>', () => {
    const { contents, fire } = fakeContents();
    hardenWebContents(contents, { openInBrowser: vi.fn() });
    expect(fire('will-attach-webview')).toHaveBeenCalled();
  });
});

describe('denyAllPermissions', () => {
  it('refuses every permission request and check', () => {
    const handlers: Record<string, unknown> = {};
    const session: PermissionSessionLike = {
      setPermissionRequestHandler: (handler) => (handlers['request'] = handler),
      setPermissionCheckHandler: (handler) => (handlers['check'] = handler),
      setDevicePermissionHandler: (handler) => (handlers['device'] = handler),
    };
    denyAllPermissions(session);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'hid']) {
      const callback = vi.fn();
      (handlers['request'] as (c: unknown, p: string, cb: (granted: boolean) => void) => void)(
        {},
        permission,
        callback,
      );
      expect(callback).toHaveBeenCalledWith(false);
      expect((handlers['check'] as (c: unknown, p: string) => boolean)({}, permission)).toBe(false);
    }
    expect((handlers['device'] as (d: unknown) => boolean)({ deviceType: 'usb' })).toBe(false);
  });
});

describe('secureWebPreferences', () => {
  it('follows the Electron security checklist', () => {
    expect(secureWebPreferences('/app/out/preload/index.cjs')).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
    });
  });
});
