/**
 * The page a browser gets when it is not (or no longer) signed in to web mode: the browser was
 * closed (its session cookie went with it), another browser signed in with a newer address,
 * Ledgerdesk was restarted, or the address was already used. It says how to get a new sign-in
 * address instead of an empty 401. Static: no data, no script, the app's own content policy.
 */
import { NEW_SIGN_IN_COMMAND } from '../../shared/ipc/webSocketProtocol.ts';

const STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; background: #ffffff; color: #1b1d21; }
  body { max-width: 40rem; margin: 4rem auto; padding: 0 1.5rem; }
  h1 { font-size: 1.5rem; margin-bottom: 0.5rem; }
  pre { padding: 0.75rem 1rem; border-radius: 6px; background: #eef0f3; color: #1b1d21; font-size: 1rem; }
  code { font-size: 0.95em; }
  li { margin-bottom: 0.25rem; }
  @media (prefers-color-scheme: dark) {
    :root { background: #16181d; color: #e6e8eb; }
    pre { background: #262a33; color: #e6e8eb; }
  }
`;
const SIGNED_OUT_TITLE = 'Sign in to Ledgerdesk again';

export function signedOutPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${SIGNED_OUT_TITLE}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${SIGNED_OUT_TITLE}</h1>
<p>This browser tab is not signed in to Ledgerdesk's web mode. That happens when:</p>
<ul>
<li>the browser was closed since it signed in,</li>
<li>another browser signed in with a newer address (one browser at a time),</li>
<li>Ledgerdesk was restarted, or</li>
<li>the address you opened was already used: each sign-in address works once.</li>
</ul>
<p>For a new sign-in address, run this in a terminal on the machine where Ledgerdesk runs, in its folder:</p>
<pre><code>${NEW_SIGN_IN_COMMAND}</code></pre>
<p>Then open the address it prints in this browser. If Ledgerdesk is not running any more, start it
with <code>npm run serve</code>: it prints a new address too.</p>
</main>
</body>
</html>
`;
}
