/**
 * Captured traffic out of the app: JSONL (one request per line, everything kept) and cURL
 * commands that re-send each request. Neither ever contains a secret: Authorization was
 * redacted when the request was kept, and a cURL command that needs Basic auth reads the
 * secret from an environment variable instead.
 */
import type { ReceivedRequest } from './receivedRequest.ts';
import { isHopByHop } from './outbound.ts';

export type ExportFormat = 'jsonl' | 'curl';

/** The variable a cURL command reads the Basic secret from. */
const CURL_SECRET_VARIABLE = 'LEDGERDESK_BASIC_SECRET';

function jsonlLineOf(request: ReceivedRequest): string {
  return JSON.stringify(request);
}

/** POSIX shell single quotes: safe for any byte but NUL. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A cURL command that sends `request` again to `baseUrl` + its path and query. */
export function curlOf(request: ReceivedRequest, baseUrl: string): string {
  const target = baseUrl.replace(/\/+$/, '') + request.path + (request.query === null ? '' : `?${request.query}`);
  const parts = ['curl', '-sS', '-X', shellQuote(request.method || 'POST'), shellQuote(target)];
  for (const [name, value] of request.headers) {
    const lower = name.toLowerCase();
    if (isHopByHop(lower) || lower === 'authorization') continue;
    parts.push('-H', shellQuote(`${name}: ${value}`));
  }
  if (request.presentedUser !== null) {
    parts.push('-u', `${shellQuote(request.presentedUser + ':')}"$${CURL_SECRET_VARIABLE}"`);
  }
  const comment = `# request ${request.id}, received ${request.receivedAt}, verdict ${request.verdict}${
    request.bodyTruncated ? ', body truncated when kept' : ''
  }`;
  if (request.bodyText !== null) {
    parts.push('--data-binary', shellQuote(request.bodyText));
    return `${comment}\n${parts.join(' ')}`;
  }
  if (request.bodyBase64 !== null) {
    // Not UTF-8: decode the exact bytes in the shell rather than mangle them in quotes.
    parts.push('--data-binary', '@-');
    return `${comment}\nprintf %s ${shellQuote(request.bodyBase64)} | base64 -d | ${parts.join(' ')}`;
  }
  return `${comment}\n${parts.join(' ')}`;
}

/** The export, line by line (cURL commands separated by a blank line), so a large export is streamed. */
export function* exportLines(
  requests: Iterable<ReceivedRequest>,
  format: ExportFormat,
  baseUrl: string,
): Generator<string> {
  for (const request of requests) {
    yield format === 'jsonl' ? jsonlLineOf(request) + '\n' : curlOf(request, baseUrl) + '\n\n';
  }
}
