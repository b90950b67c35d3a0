/**
 * A document an applicant names, previewed (issue 24, item 3): "Preview" opens a dialog titled
 * with the document, which asks main for the file (from the cache, or fetched from the bank on
 * demand and then kept, sealed). An image is shown from a blob: URL (the content policy's
 * img-src allows blob:), a PDF is drawn page by page on canvases (pdfPages.ts). Escape or Close
 * ends it and focus goes back to the Preview button (components/Dialog.tsx); the blob URL and the
 * PDF are released when it closes.
 */
import { useEffect, useRef, useState } from 'react';
import type { DocumentPreview } from '../../../../shared/ipc/index.ts';
import { Button } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { ErrorState, LoadingState } from '../../components/States.tsx';
import { api } from '../../lib/api.ts';
import { uiErrorOf, type UiError } from '../../lib/errors.ts';
import { formatTimestamp } from '../../lib/time.ts';
import { openPdf, type PdfPages } from './pdfPages.ts';
import './documentPreview.css';

/** The file's bytes, decoded from the base64 main sends. */
function bytesOf(preview: DocumentPreview): Uint8Array {
  const text = atob(preview.contentBase64);
  const bytes = new Uint8Array(text.length);
  for (let index = 0; index < text.length; index += 1) bytes[index] = text.charCodeAt(index);
  return bytes;
}

/** At most this many pages are drawn; the rest are named, not drawn (a preview, not a reader). */
const MAX_PAGES = 30;
const PAGE_WIDTH = 640;

function ImagePreview({ preview, label }: { preview: DocumentPreview; label: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [broken, setBroken] = useState(false);
  useEffect(() => {
    const made = URL.createObjectURL(new Blob([bytesOf(preview).buffer as ArrayBuffer], { type: preview.contentType }));
    setUrl(made);
    return () => {
      URL.revokeObjectURL(made);
    };
  }, [preview]);
  if (broken) {
    return (
      <p className="document-preview-problem" role="alert">
        The image cannot be drawn: its bytes are damaged or not a complete {preview.contentType} file.
      </p>
    );
  }
  return url === null ? null : (
    <img
      className="document-preview-image"
      src={url}
      alt={label}
      onError={() => {
        setBroken(true);
      }}
    />
  );
}

function PdfPreview({ preview, label }: { preview: DocumentPreview; label: string }) {
  const [pdf, setPdf] = useState<PdfPages | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let open: PdfPages | null = null;
    let cancelled = false;
    openPdf(bytesOf(preview))
      .then((opened) => {
        open = opened;
        if (cancelled) void opened.close();
        else setPdf(opened);
      })
      .catch((reason: unknown) => {
        if (cancelled) return;
        const detail = reason instanceof Error ? reason.message : String(reason);
        setProblem(`The PDF cannot be read (${detail}).`);
      });
    return () => {
      cancelled = true;
      if (open !== null) void open.close();
    };
  }, [preview]);
  if (problem !== null) {
    return (
      <p className="document-preview-problem" role="alert">
        {problem}
      </p>
    );
  }
  if (pdf === null) return <LoadingState label="Reading the PDF…" />;
  const shown = Math.min(pdf.pageCount, MAX_PAGES);
  return (
    <div className="document-preview-pages">
      <p className="muted">
        {pdf.pageCount === 1 ? '1 page' : `${String(pdf.pageCount)} pages`}
        {shown < pdf.pageCount ? `; the first ${String(shown)} are shown.` : '.'}
      </p>
      {Array.from({ length: shown }, (_, index) => (
        <PdfPage key={index} pdf={pdf} number={index + 1} total={pdf.pageCount} label={label} />
      ))}
    </div>
  );
}

function PdfPage({ pdf, number, total, label }: { pdf: PdfPages; number: number; total: number; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (canvas.current === null) return;
    pdf.draw(number, canvas.current, PAGE_WIDTH).catch((reason: unknown) => {
      setProblem(
        `Page ${String(number)} cannot be drawn (${reason instanceof Error ? reason.message : String(reason)}).`,
      );
    });
  }, [pdf, number]);
  return (
    <figure className="document-preview-page">
      <canvas ref={canvas} role="img" aria-label={`${label}, page ${String(number)} of ${String(total)}`} />
      {problem === null ? null : (
        <figcaption className="document-preview-problem" role="alert">
          {problem}
        </figcaption>
      )}
    </figure>
  );
}

function PreviewBody({ profileId, applicantId, documentId, who }: PreviewProps) {
  const [preview, setPreview] = useState<DocumentPreview | null>(null);
  const [error, setError] = useState<UiError | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let current = true;
    setPreview(null);
    setError(null);
    api()
      .documentPreviews.get({ profileId, applicantId, documentId })
      .then((answer) => {
        if (current) setPreview(answer);
      })
      .catch((reason: unknown) => {
        if (current) setError(uiErrorOf(reason));
      });
    return () => {
      current = false;
    };
  }, [profileId, applicantId, documentId, attempt]);
  if (error !== null) {
    return (
      <ErrorState
        what="The document"
        error={error}
        onRetry={() => {
          setAttempt((value) => value + 1);
        }}
      />
    );
  }
  if (preview === null) return <LoadingState label="Fetching the document…" />;
  const label = `Document ${documentId} of ${who}`;
  return (
    // It scrolls when the file is taller than the dialog: focusable, so the keyboard scrolls it too.
    <div className="document-preview" role="region" aria-label={label} tabIndex={0}>
      <p className="muted" role="status">
        {preview.contentType === 'application/pdf'
          ? 'PDF'
          : preview.contentType === 'image/png'
            ? 'PNG image'
            : 'JPEG image'}
        , {(preview.byteLength / 1024).toFixed(1)} KiB, file <span className="mono">{preview.fileId}</span>;{' '}
        {preview.source === 'cache'
          ? `from the offline cache (fetched ${formatTimestamp(preview.fetchedAt)}).`
          : 'fetched from the bank just now, and kept in the offline cache.'}
      </p>
      {preview.contentType === 'application/pdf' ? (
        <PdfPreview preview={preview} label={label} />
      ) : (
        <ImagePreview preview={preview} label={label} />
      )}
    </div>
  );
}

interface PreviewProps {
  profileId: string;
  applicantId: string;
  documentId: string;
  /** The applicant's name, for the image's text alternative. */
  who: string;
}

export function DocumentPreviewButton(props: PreviewProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        aria-label={`Preview document ${props.documentId}`}
        onClick={() => {
          setOpen(true);
        }}
      >
        Preview
      </Button>
      {open ? (
        <Dialog
          title={`Document ${props.documentId}`}
          onClose={() => {
            setOpen(false);
          }}
          footer={
            <Button
              onClick={() => {
                setOpen(false);
              }}
            >
              Close
            </Button>
          }
        >
          <PreviewBody {...props} />
        </Dialog>
      ) : null}
    </>
  );
}
