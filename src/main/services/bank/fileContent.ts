/**
 * What GET /file/{id}/content answered, read into the file's bytes. The interface's own
 * shape is the bytes; the real service documents JSON instead (docs.treasuryprime.com,
 * "Download a file": `{id, content_type, content_length, content_hash, content_url}`, the URL
 * "only valid for a short time"), so a JSON answer that is not itself the file asked for is
 * read as that: its `content_url` is fetched at once through the same proxy and trust, without
 * the bank's Authorization (BankHttp.fetchLinked). A `content_length` over the cap is refused
 * before anything is downloaded; the download's media type falls back to the JSON's when the
 * storage host says only application/octet-stream. The caller checks the type and the bytes.
 */
import { z } from 'zod';
import { parseWith } from '../../../shared/bank/index.ts';
import { BankError } from './bankError.ts';
import type { BankHttp } from './bankHttp.ts';
import type { DriftListener } from './fieldDrift.ts';

const linkedFile = z.looseObject({
  content_url: z.string().min(1),
  content_type: z.string().nullish(),
  content_length: z.number().int().min(0).nullish(),
});

function mediaType(text: string | null | undefined): string {
  return ((text ?? '').split(';')[0] ?? '').trim().toLowerCase();
}

export async function readFileAnswer(
  http: BankHttp,
  answered: { bytes: Uint8Array; contentType: string },
  options: { maxBytes: number; accept: readonly string[]; signal?: AbortSignal; endpoint: string },
  onDrift: DriftListener | undefined,
): Promise<{ bytes: Uint8Array; contentType: string }> {
  // JSON that was asked for as the file itself stays the file.
  if (answered.contentType !== 'application/json' || options.accept.includes('application/json')) return answered;
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(answered.bytes).toString('utf8')) as unknown;
  } catch {
    throw failure(
      http,
      options.endpoint,
      'malformed-response',
      'the bank answered application/json that is not JSON, instead of the file',
    );
  }
  const parsed = parseWith(linkedFile, body);
  if (!parsed.ok) {
    throw failure(
      http,
      options.endpoint,
      'schema-violation',
      `the bank answered JSON without a usable content_url (${parsed.problems.slice(0, 3).join('; ')})`,
    );
  }
  try {
    // Measured like any read: how often a bank answers the JSON form is worth knowing.
    onDrift?.({ resource: 'file content', records: 1, missing: {}, unknown: { content_url: 1 }, malformed: {} });
  } catch {
    // Drift is a measurement.
  }
  const declaredLength = parsed.value.content_length ?? null;
  if (declaredLength !== null && declaredLength > options.maxBytes) {
    throw new BankError({
      kind: 'too-large',
      endpoint: options.endpoint,
      profileName: http.profileName,
      status: null,
      serverMessage: `the file is ${String(declaredLength)} bytes`,
      retryable: false,
      remedy: `The file is larger than ${String(Math.round(options.maxBytes / (1024 * 1024)))} MiB, the most Ledgerdesk reads.`,
      attempts: 1,
    });
  }
  const downloaded = await http.fetchLinked({
    url: parsed.value.content_url,
    endpoint: `${options.endpoint} → content_url`,
    accept: options.accept.join(', '),
    maxBytes: options.maxBytes,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const declared = mediaType(parsed.value.content_type);
  const served = downloaded.contentType;
  const contentType =
    served === '' || served === 'application/octet-stream' || served === 'binary/octet-stream' ? declared : served;
  return { bytes: downloaded.bytes, contentType };
}

function failure(
  http: BankHttp,
  endpoint: string,
  kind: 'malformed-response' | 'schema-violation',
  message: string,
): BankError {
  return new BankError({
    kind,
    endpoint,
    profileName: http.profileName,
    status: 200,
    serverMessage: message,
    retryable: false,
    remedy: 'Tell the bank: its file download answer cannot be read.',
    attempts: 1,
  });
}
