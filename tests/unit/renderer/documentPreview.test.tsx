/**
 * The document preview dialog (issue 24, item 3): titled with the document, each refusal from
 * main shown as its own sentence (unknown document, too large, wrong type, bank down with a Try
 * again), Escape closes it and focus goes back to its Preview button. (Drawing the image and the
 * PDF needs a real browser: jsdom has no blob: URLs and no canvas.)
 */
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DocumentPreviewButton } from '../../../src/renderer/src/features/applicants/DocumentPreview.tsx';
import { installFakeBridge, refuse, settle } from './setup.tsx';

const REFUSALS = {
  doc_unknown: () => refuse('not_found', 'Applicant apsn_grace names no document doc_unknown.', 'documentId'),
  doc_big: () => refuse('bank_error', 'The file of document doc_big is larger than 10 MiB, the most a preview reads.'),
  doc_text: () =>
    refuse('bank_error', 'The file of document doc_text is text/plain; previews show PNG, JPEG and PDF only.'),
  doc_down: () => refuse('offline', 'The bank of Sandbox cannot be reached.'),
} as const;

function open(documentId: keyof typeof REFUSALS): { calls: { channel: string; input: unknown }[] } {
  const bridge = installFakeBridge({
    'documentPreviews.get': (input) => {
      throw REFUSALS[(input as { documentId: keyof typeof REFUSALS }).documentId]();
    },
  });
  render(
    <DocumentPreviewButton profileId="prof_1" applicantId="apsn_grace" documentId={documentId} who="Grace Hopper" />,
  );
  return bridge;
}

describe('the document preview dialog', () => {
  it.each([
    ['doc_unknown', 'Applicant apsn_grace names no document doc_unknown.'],
    ['doc_big', 'is larger than 10 MiB, the most a preview reads.'],
    ['doc_text', 'previews show PNG, JPEG and PDF only.'],
  ] as const)('says why %s cannot be previewed', async (documentId, sentence) => {
    const bridge = open(documentId);
    fireEvent.click(screen.getByRole('button', { name: `Preview document ${documentId}` }));
    await settle();
    expect(screen.getByRole('dialog', { name: `Document ${documentId}` })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain(sentence);
    expect(bridge.calls.at(-1)?.input).toEqual({ profileId: 'prof_1', applicantId: 'apsn_grace', documentId });
  });

  it('says the bank is down and asks again on Try again', async () => {
    const bridge = open('doc_down');
    fireEvent.click(screen.getByRole('button', { name: 'Preview document doc_down' }));
    await settle();
    expect(screen.getByText('Offline')).toBeTruthy();
    expect(screen.getByRole('dialog').textContent).toContain('The bank of Sandbox cannot be reached.');
    const asked = bridge.calls.length;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await settle();
    expect(bridge.calls.length).toBe(asked + 1);
  });

  it('closes on Escape and gives focus back to its Preview button', async () => {
    open('doc_unknown');
    const button = screen.getByRole('button', { name: 'Preview document doc_unknown' });
    button.focus();
    fireEvent.click(button);
    await settle();
    const dialog = screen.getByRole('dialog', { name: 'Document doc_unknown' });
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await settle();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
  });
});
