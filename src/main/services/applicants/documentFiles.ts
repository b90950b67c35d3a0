/**
 * The file behind a document an applicant names, for its preview (issue 24, item 3): from the
 * cache when it holds it, otherwise fetched from the bank (GET /document/{id} for its file id,
 * then GET /file/{id}/content) and kept sealed for next time. Only a document the applicant's
 * record names is read, only the allowed media types are kept (the declared type and the bytes'
 * own signature must agree), and never more than the bank's file size limit.
 */
import {
  PREVIEW_MAX_BYTES,
  PREVIEW_MEDIA_TYPES,
  type PreviewMediaType,
} from '../../../shared/ipc/domains/documentPreviews.ts';
import { BankError } from '../bank/bankError.ts';
import type { BankClient } from '../bank/bankClient.ts';
import type { ApplicantsTable } from '../cache/applicantsTable.ts';
import type { DocumentFilesTable } from '../cache/documentFilesTable.ts';

export type DocumentFileProblem = 'not-named' | 'not-found' | 'too-large' | 'unsupported-type';

/** Why a preview cannot be shown, in a sentence the officer can act on. */
export class DocumentFileRefused extends Error {
  readonly problem: DocumentFileProblem;
  constructor(problem: DocumentFileProblem, message: string) {
    super(message);
    this.name = 'DocumentFileRefused';
    this.problem = problem;
  }
}

export interface DocumentFile {
  documentId: string;
  fileId: string;
  contentType: PreviewMediaType;
  bytes: Uint8Array;
  source: 'cache' | 'bank';
  fetchedAt: string;
}

function isPreviewType(type: string): type is PreviewMediaType {
  return (PREVIEW_MEDIA_TYPES as readonly string[]).includes(type);
}

/** Whether the bytes start as their declared type does: a PNG, JPEG or PDF signature. */
function bytesMatchType(bytes: Uint8Array, type: PreviewMediaType): boolean {
  const starts = (signature: readonly number[]): boolean =>
    bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte);
  switch (type) {
    case 'image/png':
      return starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case 'image/jpeg':
      return starts([0xff, 0xd8, 0xff]);
    case 'application/pdf':
      return starts([0x25, 0x50, 0x44, 0x46, 0x2d]); // %PDF-
  }
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${String(bytes / (1024 * 1024))} MiB` : `${String(bytes)} bytes`;
}

function documentIdsOf(record: Readonly<Record<string, unknown>> | null): string[] {
  const ids = record?.['document_ids'];
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

export interface DocumentFileSources {
  applicants: ApplicantsTable;
  files: DocumentFilesTable;
  /** Asked only when the cache lacks the file. */
  bank: () => BankClient;
  now: () => Date;
  /** The most read of one file; the bank's own limit unless a caller needs less. */
  maxBytes?: number;
}

export async function documentFileOf(
  sources: DocumentFileSources,
  request: { profileId: string; applicantId: string; documentId: string },
  signal?: AbortSignal,
): Promise<DocumentFile> {
  const { profileId, applicantId, documentId } = request;
  const maxBytes = sources.maxBytes ?? PREVIEW_MAX_BYTES;
  const applicant = sources.applicants.get(profileId, applicantId);
  if (applicant === null) {
    throw new DocumentFileRefused('not-named', `There is no cached applicant ${applicantId}.`);
  }
  if (!documentIdsOf(applicant.record).includes(documentId)) {
    throw new DocumentFileRefused('not-named', `Applicant ${applicantId} names no document ${documentId}.`);
  }
  const cached = sources.files.get(profileId, documentId);
  if (cached !== null && isPreviewType(cached.contentType)) {
    return { ...cached, contentType: cached.contentType, source: 'cache' };
  }
  const bank = sources.bank();
  let fileId: string;
  let file: { bytes: Uint8Array; contentType: string };
  try {
    const named = (await bank.getDocument(documentId, signal)).file_id;
    if (typeof named !== 'string' || named === '') {
      throw new DocumentFileRefused('not-found', `The bank names no file for document ${documentId}.`);
    }
    fileId = named;
    file = await bank.readFileContent(fileId, { maxBytes, accept: PREVIEW_MEDIA_TYPES, signal });
  } catch (error) {
    if (error instanceof BankError && error.kind === 'not-found') {
      throw new DocumentFileRefused(
        'not-found',
        `The bank does not return document ${documentId} or its file: it may have been removed.`,
      );
    }
    if (error instanceof BankError && error.kind === 'too-large') {
      throw new DocumentFileRefused(
        'too-large',
        `The file of document ${documentId} is larger than ${sizeText(maxBytes)}, the most a preview reads.`,
      );
    }
    throw error;
  }
  const type = file.contentType;
  if (!isPreviewType(type) || !bytesMatchType(file.bytes, type)) {
    throw new DocumentFileRefused(
      'unsupported-type',
      isPreviewType(type)
        ? `The file of document ${documentId} says it is ${type}, but its bytes are not: it is not shown.`
        : `The file of document ${documentId} is ${type === '' ? 'of no declared type' : type}; previews show PNG, JPEG and PDF only.`,
    );
  }
  const fetchedAt = sources.now().toISOString();
  const kept = { documentId, fileId, contentType: type, bytes: file.bytes, fetchedAt };
  sources.files.put(profileId, kept);
  return { ...kept, source: 'bank' };
}
