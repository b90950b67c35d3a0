/**
 * External links: only plain https:// URLs to a named host are opened, in the user's own
 * browser (shell.openExternal). Anything else — other schemes (file:, smb:, javascript:,
 * custom protocol handlers), embedded credentials, control characters — is refused.
 */
const EXTERNAL_URL_MAX = 2_048;

export function isSafeExternalUrl(candidate: unknown): candidate is string {
  if (typeof candidate !== 'string' || candidate.length === 0 || candidate.length > EXTERNAL_URL_MAX) return false;
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (/[\u0000-\u0020\u007f-\u009f\\]/.test(candidate)) return false;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:') return false;
  if (url.username !== '' || url.password !== '') return false;
  if (url.hostname === '' || !url.hostname.includes('.')) return false;
  if (url.port !== '' && url.port !== '443') return false;
  return true;
}
