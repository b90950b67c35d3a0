/**
 * The built renderer (out/renderer) as web mode serves it: the same files, the same path checks
 * and the same headers (CSP included) as the Electron shell's app:// protocol, with one
 * difference: index.html loads the web bridge (web-bridge.js, web mode's preload) before the
 * renderer's own script, so `window.ledgerdesk` exists when the app starts.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { APP_ORIGIN, appResponseHeaders, resolveAppFile } from '../app/appProtocol.ts';
import { TAB_KEY_META } from '../../shared/ipc/webSocketProtocol.ts';

/** The web bridge's bundle, at the root of out/renderer (electron.vite.config.ts). */
export const WEB_BRIDGE_FILE = 'web-bridge.js';

export interface RendererFile {
  body: Uint8Array;
  headers: Record<string, string>;
}

/**
 * index.html with the web bridge's script first: module scripts run in document order. The
 * sign-in answer also carries the tab key in a <meta> the bridge reads once and removes
 * (webAccess.ts, W1): the body of this one answer is the only place the key ever travels.
 */
export function withWebBridge(indexHtml: string, tabKey?: string): string {
  const key = tabKey === undefined ? '' : `<meta name="${TAB_KEY_META}" content="${tabKey}">\n    `;
  const tag = `${key}<script type="module" src="./${WEB_BRIDGE_FILE}"></script>`;
  const at = indexHtml.indexOf('<script');
  if (at < 0) return indexHtml.replace('</head>', `${tag}\n</head>`);
  return `${indexHtml.slice(0, at)}${tag}\n    ${indexHtml.slice(at)}`;
}

/**
 * A file the build names by its content (Vite's `assets/<name>-<8-character hash>.<ext>`): its
 * bytes never change under that name, so the browser keeps it and a reload, or a second tab, or
 * the next run on the same `--port`, fetches only index.html again (which is never kept).
 */
export function isHashedChunk(requestPath: string): boolean {
  return /^\/assets\/[\w.-]+-[\w-]{8}\.(?:js|mjs|css)$/.test(requestPath);
}

const KEPT_FOR_GOOD = { 'cache-control': 'public, max-age=31536000, immutable' };

/**
 * The file a request path names, with its headers; null when there is none (or the path tries
 * to leave the folder). The path is checked by the app protocol's own resolver, given as an
 * app:// address so it meets exactly the same rules.
 */
export async function rendererFile(
  root: string,
  requestPath: string,
  /** The sign-in answer's tab key (only given for the page that answers the sign-in address). */
  tabKey?: string,
): Promise<RendererFile | null> {
  if (!requestPath.startsWith('/')) return null;
  const file = resolveAppFile(root, `${APP_ORIGIN}${requestPath}`);
  if (file === null) return null;
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(file));
  } catch {
    return null;
  }
  const headers = { ...appResponseHeaders(file), ...(isHashedChunk(requestPath) ? KEPT_FOR_GOOD : {}) };
  if (basename(file) === 'index.html') {
    return { body: new TextEncoder().encode(withWebBridge(new TextDecoder().decode(bytes), tabKey)), headers };
  }
  return { body: bytes, headers };
}
