/**
 * Choose a local file and upload it to the bank (POST /file through the bridge), or type
 * the id of a file already there. Either way the form gets a `file_…` id.
 */
import { useId, useRef, useState } from 'react';
import type { FileResponse } from '../../../shared/bank/index.ts';
import { FILE_MEDIA_TYPES } from '../../../shared/ipc/index.ts';
import { Button } from './Button.tsx';
import { FieldFrame } from './Field.tsx';
import { formatBytes } from '../lib/time.ts';

export type MediaType = (typeof FILE_MEDIA_TYPES)[number];

export interface FilePickerProps {
  label: string;
  fileId: string;
  onFileId: (fileId: string) => void;
  accept: readonly MediaType[];
  upload: (contentType: MediaType, bytes: Uint8Array) => Promise<FileResponse>;
  onChosen?: (file: File | null) => void;
  error?: string | undefined;
}

export function FilePicker({ label, fileId, onFileId, accept, upload, onChosen, error }: FilePickerProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ fileId: string; text: string } | null>(null);
  const [uploadError, setUploadError] = useState<string | undefined>(undefined);

  const choose = async (file: File | undefined): Promise<void> => {
    if (file === undefined) return;
    const type = accept.find((candidate) => candidate === file.type);
    onChosen?.(file);
    if (type === undefined) {
      setUploadError(
        `${file.name} is ${file.type === '' ? 'of an unknown type' : file.type}; choose ${accept.join(' or ')}.`,
      );
      return;
    }
    setBusy(true);
    setUploadError(undefined);
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      const record = await upload(type, bytes);
      onFileId(record.id);
      setNote({
        fileId: record.id,
        text: `${file.name} · ${formatBytes(record.content_length ?? bytes.byteLength)} uploaded`,
      });
    } catch (reason) {
      setUploadError(
        typeof reason === 'object' && reason !== null && 'message' in reason
          ? String(reason.message)
          : 'The upload failed.',
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <FieldFrame
      label={label}
      id={id}
      error={uploadError ?? error}
      hint={
        note !== null && note.fileId === fileId ? note.text : 'Upload a file, or paste the id of one already uploaded.'
      }
    >
      <div className="drop-zone">
        <input
          id={id}
          className="input mono grow"
          placeholder="file_…"
          value={fileId}
          onChange={(event) => {
            onFileId(event.target.value);
          }}
          aria-invalid={error === undefined && uploadError === undefined ? undefined : true}
        />
        <input
          ref={input}
          type="file"
          accept={accept.join(',')}
          hidden
          aria-label={`${label}: choose a file to upload`}
          onChange={(event) => void choose(event.target.files?.[0])}
          data-testid="file-input"
        />
        <Button icon="upload" busy={busy} onClick={() => input.current?.click()}>
          Upload…
        </Button>
      </div>
    </FieldFrame>
  );
}
