/**
 * The renderer's Content Security Policy. The shell sends it as a response header of the
 * app:// protocol (where frame-ancestors takes effect); index.html repeats it, minus
 * frame-ancestors, as a <meta> tag so the page is locked down however it is loaded.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // eng-disable CSP_GLOBAL_CHECK -- inline styles only (React style attributes): script-src stays 'self', and no directive allows an external host, so an injected style can neither run code nor send data out.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
