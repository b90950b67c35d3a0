/**
 * A file's short-lived download address, as the real service hands one out: `GET
 * /file/{id}/content` answers JSON with a `content_url` on another address that needs no API
 * key (docs.treasuryprime.com, "Download a file": "URL is only valid for a short time"). Here it
 * is `/sandbox/file_download/<token>`: the file id and an expiry, signed with the data file's
 * own key. Like a signed storage URL, it refuses a request that also carries an Authorization
 * header, so a client that leaks the bank's credentials to the download address is caught.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const FILE_DOWNLOAD_PATH = '/sandbox/file_download';

/** How long a content_url stays valid. */
export const FILE_DOWNLOAD_LIFETIME_MS = 5 * 60 * 1000;

function signatureOf(key: string, payload: string): string {
  // 128 bits of the HMAC: a token stays well within the router's 100-character path segments.
  return createHmac('sha256', key).update(`file_download:${payload}`).digest('base64url').slice(0, 22);
}

/** The token of a download address for `fileId`, valid until `expiresAtMs`: `<file id>.<expiry>.<signature>`. */
export function downloadToken(key: string, fileId: string, expiresAtMs: number): string {
  const payload = `${fileId}.${expiresAtMs.toString(36)}`;
  return `${payload}.${signatureOf(key, payload)}`;
}

/** The file a token names, or why it does not name one any more. */
export function readDownloadToken(
  key: string,
  token: string,
  nowMs: number,
): { ok: true; fileId: string } | { ok: false; reason: string } {
  const parts = token.split('.');
  const [fileId = '', expiry = '', signature = ''] = parts;
  const expected = Buffer.from(signatureOf(key, `${fileId}.${expiry}`));
  const given = Buffer.from(signature);
  if (parts.length !== 3 || expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return { ok: false, reason: 'This download address is not valid: ask GET /file/{file_id}/content for a new one.' };
  }
  if (parseInt(expiry, 36) < nowMs) {
    return { ok: false, reason: 'This download address has expired: ask GET /file/{file_id}/content for a new one.' };
  }
  return { ok: true, fileId };
}
