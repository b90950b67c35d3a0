/**
 * Shell entry point: the Electron main process. One instance at a time; one hardened window
 * serving the renderer from app://ledgerdesk; the embedded sandbox bank in a utility process;
 * the services on the app data folder; the IPC router as the only door between them. On quit,
 * everything stops in order: the window's pushes, sync jobs, the listener (keeping what is in
 * flight), the cache, then the sandbox. What web mode shares with this shell (the sandbox, the
 * services, the router) starts in src/main/app/startLedgerdesk.ts; here is only what needs Electron.
 */
import Store from 'electron-store';
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, screen, session, shell, utilityProcess } from 'electron';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createLogger } from '../app/log.ts';
import {
  APP_ENTRY_URL,
  APP_ORIGIN,
  APP_SCHEME,
  APP_SCHEME_PRIVILEGES,
  createAppProtocolHandler,
} from '../app/appProtocol.ts';
import type { SandboxChild } from '../app/embeddedSandbox.ts';
import { appMenuTemplate } from './appMenu.ts';
import { devToolsAllowed } from './devTools.ts';
import { denyAllPermissions, hardenWebContents, openInBrowserIfSafe } from './hardening.ts';
import { secureWebPreferences } from './webPreferences.ts';
import { restoreBounds, trackWindowState } from './windowState.ts';
import { openWindowStateStore } from './windowStateStore.ts';
import { printHtmlToPdf } from './pdfPrinter.ts';
import { startLedgerdesk, type RunningLedgerdesk } from '../app/startLedgerdesk.ts';
import { writerRefusalOf } from '../app/writerRefusal.ts';
import { KeyringSecretStore } from '../services/credentials/keyringSecretStore.ts';
import { detectKeychain } from '../services/credentials/keychainStatus.ts';
import { registerRouter } from './ipcMainRouter.ts';
import { askAfterWriterRefusal, confirmInDialog, nativeWriteConfirmer } from './nativeDialogs.ts';
import { chromiumProxyResolver } from './systemProxyResolver.ts';

const log = createLogger();

/** The one place a URL leaves the app: only after isSafeExternalUrl (openInBrowserIfSafe) passed it. */
async function openInBrowser(checkedUrl: string): Promise<void> {
  // eng-disable OPEN_EXTERNAL_JS_CHECK -- reached only through openInBrowserIfSafe, which lets plain https:// URLs to a named host through and nothing else.
  await shell.openExternal(checkedUrl);
}

protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);

// Tests (and developers) can run an unpackaged build on a throwaway data folder.
const userDataOverride = process.env['LEDGERDESK_USER_DATA'];
if (userDataOverride !== undefined && userDataOverride !== '' && !app.isPackaged) {
  app.setPath('userData', userDataOverride);
}

/** DevTools only unpackaged, or packaged and started with --devtools on purpose (review L1). */
const devTools = devToolsAllowed(app.isPackaged, process.argv);

/** The windows we created: the only senders the router trusts. */
const trustedWindows = new Map<number, BrowserWindow>();

function devServerOrigin(): string | null {
  const url = process.env['ELECTRON_RENDERER_URL'];
  if (url === undefined || app.isPackaged) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

function createMainWindow(): BrowserWindow {
  const windowState = openWindowStateStore();
  const workAreas = screen.getAllDisplays().map((display) => display.workArea);
  const { maximized, ...bounds } = restoreBounds(windowState.load(), workAreas);
  const window = new BrowserWindow({
    ...bounds,
    minWidth: 900,
    minHeight: 600,
    title: 'Ledgerdesk',
    show: false,
    backgroundColor: '#111317',
    webPreferences: {
      ...secureWebPreferences(join(import.meta.dirname, '../preload/index.cjs')),
      // Restated literally (secureWebPreferences sets them too) so a reader, and the
      // Electronegativity gate, see them where the window is made.
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      disableBlinkFeatures: 'Auxclick',
      devTools,
    },
  });
  const id = window.webContents.id;
  trustedWindows.set(id, window);
  window.on('closed', () => trustedWindows.delete(id));
  trackWindowState(window, windowState);
  window.once('ready-to-show', () => {
    if (maximized === true) window.maximize();
    window.show();
  });
  const devServer = process.env['ELECTRON_RENDERER_URL'];
  void window.loadURL(devServerOrigin() !== null && devServer !== undefined ? devServer : APP_ENTRY_URL);
  return window;
}

function forkSandbox(): SandboxChild {
  const child = utilityProcess.fork(join(import.meta.dirname, 'sandbox.js'), [], {
    serviceName: 'Ledgerdesk sandbox bank',
    stdio: 'inherit',
  });
  const on = (event: 'message' | 'exit', listener: (value: never) => void): void => {
    if (event === 'message') child.on('message', listener as (message: unknown) => void);
    else child.on('exit', listener as (code: number) => void);
  };
  return {
    postMessage: (message) => {
      child.postMessage(message);
    },
    on,
    kill: () => child.kill(),
  };
}

/** Says which Ledgerdesk holds the data folder (offering its web address), then quits. */
async function refuseSecondWriter(refusal: NonNullable<ReturnType<typeof writerRefusalOf>>): Promise<void> {
  log.warn(refusal.detail);
  if ((await askAfterWriterRefusal(refusal)) === 'open' && refusal.address !== null) {
    await openInBrowser(`${refusal.address}/`);
  }
  app.exit(1);
}

async function start(): Promise<void> {
  const dataFolder = app.getPath('userData');
  denyAllPermissions(session.defaultSession);
  // Electron's default menu offers Toggle Developer Tools; ours only when DevTools are allowed.
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(process.platform, devTools)));
  protocol.handle(
    APP_SCHEME,
    createAppProtocolHandler({
      root: join(import.meta.dirname, '../renderer'),
      readFile: async (file) => {
        try {
          return new Uint8Array(await readFile(file));
        } catch {
          return null;
        }
      },
    }),
  );

  // Profiles and the active profile, in config.json (the layout the `ledger` CLI shares).
  const settings = new Store<Record<string, unknown>>({ name: 'config' });
  const devOrigin = devServerOrigin();
  let ledgerdesk: RunningLedgerdesk;
  try {
    ledgerdesk = await startLedgerdesk({
      dataFolder,
      // One writer per data folder: refused while `npm run serve` (or another app) works on it.
      shell: 'desktop',
      forkSandbox,
      secretStore: new KeyringSecretStore(),
      // The folder's recovery key, made on its first use (issue 34): shown once, in a dialog of its own.
      recoveryKeyMade: (made) => {
        void dialog.showMessageBox({
          type: 'info',
          title: 'Your recovery key',
          message: "Ledgerdesk made this data folder's recovery key. It is shown this once.",
          detail:
            `${made.key}\n\nIt is also in ${made.file} (readable only by you). Move that file offline now (a USB ` +
            'stick in a safe, or print it and delete it): with it, `ledger record recover --recovery-key FILE` brings ' +
            'the record back after the keychain is lost; whoever holds it can open the record.',
        });
      },
      settings,
      keychain: () => detectKeychain(),
      app: { name: app.getName(), version: app.getVersion(), platform: process.platform },
      senderPolicy: {
        isOwnWindow: (id) => trustedWindows.has(id),
        allowedOrigins: devOrigin === null ? [APP_ORIGIN] : [APP_ORIGIN, devOrigin],
      },
      send: (channel, payload) => {
        for (const window of trustedWindows.values()) {
          if (!window.isDestroyed()) window.webContents.send(channel, payload);
        }
      },
      chooseSavePath: async (defaultName) => {
        const parent = BrowserWindow.getFocusedWindow();
        const options = { defaultPath: join(app.getPath('downloads'), defaultName) };
        const choice =
          parent === null ? await dialog.showSaveDialog(options) : await dialog.showSaveDialog(parent, options);
        return choice.canceled ? null : choice.filePath;
      },
      printToPdf: printHtmlToPdf,
      openExternal: (url) => openInBrowserIfSafe(url, { openInBrowser, log: log.warn }),
      confirm: (question) => confirmInDialog(question),
      // Every write to a Production bank is asked here, in main, whatever the window said (I1).
      writeConfirmer: nativeWriteConfirmer(),
      // Profiles on "the system's proxy settings" ask Chromium per URL (PAC, WPAD, the OS's settings).
      systemProxy: chromiumProxyResolver(session.defaultSession),
      log,
    });
  } catch (error) {
    const refusal = writerRefusalOf(error);
    if (refusal === null) throw error;
    await refuseSecondWriter(refusal);
    return;
  }
  const unregister = registerRouter(ipcMain, ledgerdesk.router);

  createMainWindow();

  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting) return;
    quitting = true;
    event.preventDefault();
    void (async () => {
      try {
        unregister();
        await ledgerdesk.stop();
      } catch (error) {
        log.error(`shutdown: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        app.exit(0);
      }
    })();
  });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const [window] = trustedWindows.values();
    if (window === undefined) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('web-contents-created', (_event, contents) => {
    hardenWebContents(contents, {
      openInBrowser,
      log: log.warn,
    });
  });
  app.on('window-all-closed', () => {
    app.quit();
  });
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      log.error(`startup failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      app.exit(1);
    });
}
