/**
 * The unlock page: what web mode serves first when the data folder's key file needs its
 * passphrase and there is neither a terminal to ask on nor a passphrase file (issue 34). A plain
 * form, no script (its content policy allows none), posted to the same server; the services
 * start only once the passphrase opens the key file. On a folder's first use it asks for a new
 * passphrase twice.
 */
const STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; background: #ffffff; color: #1b1d21; }
  body { max-width: 36rem; margin: 4rem auto; padding: 0 1.5rem; }
  h1 { font-size: 1.5rem; margin-bottom: 0.5rem; }
  label { display: block; margin-top: 1rem; font-weight: 600; }
  input[type=password] { width: 100%; box-sizing: border-box; padding: 0.5rem; font-size: 1rem; margin-top: 0.25rem; }
  button { margin-top: 1.25rem; padding: 0.5rem 1.25rem; font-size: 1rem; }
  .problem { padding: 0.75rem 1rem; border-radius: 6px; background: #fdecea; color: #7a1c12; }
  code { font-size: 0.95em; }
  @media (prefers-color-scheme: dark) {
    :root { background: #16181d; color: #e6e8eb; }
    .problem { background: #4a1d18; color: #ffd8d2; }
  }
`;

export const UNLOCK_PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";

function escaped(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${String(character.charCodeAt(0))};`);
}

export interface UnlockPageState {
  /** The key file to open, or to make on a first use. */
  keyFile: string;
  creating: boolean;
  /** The one-time unlock token of this run: the form posts it back. */
  token: string;
  /** The last try's problem, in a sentence (a wrong passphrase, two that differ). */
  problem: string | null;
}

export function unlockPage(state: UnlockPageState): string {
  const title = state.creating ? 'Choose a passphrase for Ledgerdesk' : 'Unlock Ledgerdesk';
  const fields = state.creating
    ? `<label for="passphrase">New passphrase (12 characters or more)</label>
<input id="passphrase" name="passphrase" type="password" autocomplete="new-password" required autofocus>
<label for="again">The same passphrase again</label>
<input id="again" name="again" type="password" autocomplete="new-password" required>`
    : `<label for="passphrase">Passphrase</label>
<input id="passphrase" name="passphrase" type="password" autocomplete="current-password" required autofocus>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${title}</h1>
<p>This machine has no keychain, so the data folder's secrets are kept in <code>${escaped(state.keyFile)}</code>
under a passphrase. ${state.creating ? 'Choose it now: it is asked at each start, and nobody can open the file without it.' : 'Ledgerdesk starts once it is given.'}</p>
${state.problem === null ? '' : `<p class="problem" role="alert">${escaped(state.problem)}</p>`}
<form method="post" action="/ledgerdesk/unlock">
<input type="hidden" name="token" value="${escaped(state.token)}">
${fields}
<button type="submit">${state.creating ? 'Make the key file and start' : 'Unlock and start'}</button>
</form>
<p>To start without this page, give the passphrase in a file: <code>npm run serve -- --passphrase-file FILE</code>.</p>
</main>
</body>
</html>
`;
}
