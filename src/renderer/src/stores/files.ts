/**
 * Uploading a file (POST /file) for a form's file picker: documents and card art both point
 * at an uploaded file. It is a write like any other, so it is confirmed on a Production
 * profile; it throws rather than answering null because the file picker shows the thrown
 * message under its field.
 */
import type { FileResponse } from '../../../shared/bank/index.ts';
import type { MediaType } from '../components/FilePicker.tsx';
import { api } from '../lib/api.ts';
import { confirmWrite } from './confirm.ts';

export async function uploadFile(
  profileId: string | null,
  contentType: MediaType,
  bytes: Uint8Array,
): Promise<FileResponse> {
  if (profileId === null) throw new Error('No profile is active.');
  const confirmation = await confirmWrite('Upload a file');
  if (confirmation === null) throw new Error('The upload was cancelled.');
  return api().files.upload({ profileId, contentType, bytes, ...confirmation });
}
