/**
 * The renderer is served from `app://ledgerdesk/…`, a privileged standard scheme, not from
 * file://. Only files inside the renderer folder are served; every request path is decoded
 * once and checked for traversal (`..`, `%2e%2e`, absolute paths, backslashes, NUL, drive
 * letters) before it touches the file system. Each response carries the app's CSP.
 *
 * Free of Electron: `protocol.handle` is given the handler built here.
 */
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../../shared/security/contentSecurityPolicy.ts';

export const APP_SCHEME = 'app';
const APP_HOST = 'ledgerdesk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** Registered before `ready` with protocol.registerSchemesAsPrivileged. */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  stream: true,
} as const;

const MEDIA_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

function mediaTypeOf(file: string): string {
  return MEDIA_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The file a request URL names inside `root`, or null when the URL is not ours or the path
 * tries to leave the folder. A path without an extension is a page of the single-page app
 * and resolves to index.html.
 */
export function resolveAppFile(root: string, requestUrl: string): string | null {
  // The URL parser folds `..` and `%2e%2e` segments away silently; a request that tried to
  // climb out is refused outright rather than served whatever it folded to.
  if (/%2e|%2f|%5c|%00|\\|\/\.\.?(?:[/?#]|$)/i.test(requestUrl)) return null;
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null;
  if (url.username !== '' || url.password !== '') return null;

  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\') || decoded.includes(':')) return null;
  if (decoded.startsWith('//')) return null;
  const segments = decoded.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '..' || segment === '.')) return null;
  if (segments.some((segment) => segment.startsWith('.'))) return null;

  const relativePath = segments.length === 0 ? 'index.html' : segments.join('/');
  const page = extname(relativePath) === '' ? 'index.html' : relativePath;
  const absoluteRoot = resolve(root);
  const file = resolve(absoluteRoot, page);
  const inside = relative(absoluteRoot, file);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside) || !file.startsWith(absoluteRoot + sep)) {
    return null;
  }
  return file;
}

/** Headers of every response of the app protocol. */
export function appResponseHeaders(file: string): Record<string, string> {
  return {
    'content-type': mediaTypeOf(file),
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-cache',
  };
}

export interface AppProtocolOptions {
  /** The built renderer folder (out/renderer). */
  root: string;
  /** Reads a file; null when it does not exist or is not a file. */
  readFile(file: string): Promise<Uint8Array | null>;
}

/** The handler for protocol.handle('app', …). */
export function createAppProtocolHandler(options: AppProtocolOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response('Method not allowed', { status: 405, headers: { allow: 'GET, HEAD' } });
    }
    const file = resolveAppFile(options.root, request.url);
    if (file === null) return new Response('Not found', { status: 404 });
    const bytes = await options.readFile(file);
    if (bytes === null) return new Response('Not found', { status: 404 });
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(bytes), {
      status: 200,
      headers: appResponseHeaders(file),
    });
  };
}
