/**
 * Absent is shown, never fatal (issue 14, item 2), on the screens: records in the real
 * service's lean shapes (fields left out, or null) render with "not sent by the bank" for a
 * field the bank left out and "—" for null, never blank and never the word "undefined".
 */
import { act, render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { BankValue } from '../../../src/renderer/src/components/BankValue.tsx';
import { StatusBadge } from '../../../src/renderer/src/components/Badge.tsx';
import { DocumentsScreen } from '../../../src/renderer/src/features/documents/DocumentsScreen.tsx';
import { useDocumentsStore } from '../../../src/renderer/src/features/documents/store.ts';
import { WebhooksScreen } from '../../../src/renderer/src/features/webhooks/WebhooksScreen.tsx';
import { useProfilesStore } from '../../../src/renderer/src/stores/profiles.ts';
import { cardProductLabelOf, NOT_SENT_TEXT, NULL_TEXT } from '../../../src/shared/bank/index.ts';
import { installFakeBridge, settle } from './setup.tsx';

const page = <Row,>(rows: Row[]) => ({ rows, nextCursor: null, asOf: '2026-11-24T10:00:00.000Z', source: 'cache' });

/** A document as the real service answers a create: no bank_id, organization_id or description. */
const LEAN_DOCUMENT = {
  id: 'doc_lean1',
  type: 'passport',
  name: 'Passport of the applicant',
  file_id: 'file_scan1',
  fields: { date_of_birth: '1990-01-31' },
  bankdata: {},
  userdata: {},
  created_at: '2026-11-24T09:00:00Z',
  updated_at: '2026-11-24T09:00:00Z',
};

beforeEach(() => {
  useProfilesStore.setState({
    profiles: [
      {
        id: 'lean',
        name: 'Lean bank',
        kind: 'remote',
        baseUrl: 'https://sandbox.bank.example',
        authScheme: 'basic',
        keyId: 'key_1',
        production: false,
        createdAt: '2026-11-21T10:00:00Z',
        updatedAt: '2026-11-21T10:00:00Z',
      },
    ] as never,
    activeProfileId: 'lean',
  });
});

describe('BankValue and the badges', () => {
  it('tells a field left out from null and from a value', () => {
    render(
      <ul>
        <li data-testid="absent">
          <BankValue value={undefined} />
        </li>
        <li data-testid="null">
          <BankValue value={null} />
        </li>
        <li data-testid="value">
          <BankValue value="2025-01-02T03:04:05Z">{(text) => text.slice(0, 10)}</BankValue>
        </li>
        <li data-testid="status">
          <StatusBadge status={undefined} />
        </li>
      </ul>,
    );
    expect(screen.getByTestId('absent').textContent).toBe(NOT_SENT_TEXT);
    expect(screen.getByTestId('null').textContent).toBe(NULL_TEXT);
    expect(screen.getByTestId('value').textContent).toBe('2025-01-02');
    expect(screen.getByTestId('status').textContent).toBe(NOT_SENT_TEXT);
  });

  it('names a card product of the real shape (no name, no card_art) by its type and art', () => {
    expect(cardProductLabelOf({ id: 'cdpt_1', type: 'physical', card_front_image_file_id: 'file_f' })).toBe(
      'physical card · cdpt_1 · front art file_f',
    );
    expect(cardProductLabelOf({ id: 'cdpt_2' })).toBe('card product · cdpt_2');
  });
});

describe('Webhooks with lean records', () => {
  it('shows the fields the bank left out as such', async () => {
    installFakeBridge({
      'webhooks.list': () =>
        page([
          // The real record may come without basic_user/basic_secret keys, and here without a creation time.
          { id: 'wh_lean1', event: 'ach.update', url: 'https://hooks.example/a', status: 'enabled', error: null },
          { id: 'wh_lean2', event: 'document.create', url: 'https://hooks.example/b', basic_user: null },
        ]),
      'sync.status': () => ({ jobs: [] }),
    });
    render(<WebhooksScreen />);
    await settle();
    const table = screen.getByRole('table', { name: 'Webhooks' });
    const [first, second] = within(table).getAllByRole('row').slice(1);
    const cellsOf = (row: HTMLElement | undefined) =>
      row === undefined
        ? []
        : within(row)
            .getAllByRole('cell')
            .map((cell) => cell.textContent);
    // The Basic user is said under the address (the column holds the deliveries now).
    expect(cellsOf(first)[2]).toContain(`Basic user ${NOT_SENT_TEXT}`);
    expect(cellsOf(first)[4]).toBe(NOT_SENT_TEXT);
    // No status at all: said, not blank; null basic_user: a dash.
    expect(cellsOf(second)[0]).toBe(NOT_SENT_TEXT);
    expect(cellsOf(second)[2]).toContain(`Basic user ${NULL_TEXT}`);
    expect(table.textContent).not.toContain('undefined');
  });
});

describe('Documents with lean records', () => {
  it('shows a created document and the history with what the bank left out', async () => {
    const bridge = installFakeBridge({
      'documents.list': () => page([LEAN_DOCUMENT, { id: 'doc_lean0', name: 'Only a name' }]),
      'documents.create': () => LEAN_DOCUMENT,
    });
    useDocumentsStore.setState({ profileId: null, created: null, history: [] });
    render(<DocumentsScreen />);
    await settle();
    await act(async () => {
      await useDocumentsStore.getState().create({
        type: 'passport',
        name: 'Passport of the applicant',
        file_id: 'file_scan1',
        fields: { date_of_birth: '1990-01-31' },
      });
    });
    await settle();
    expect(bridge.calls.some((call) => call.channel === 'documents.create')).toBe(true);
    const created = screen.getByRole('heading', { name: 'Created' }).closest('section');
    if (created === null) throw new Error('no Created panel');
    const text = created.textContent;
    expect(text).toContain(`Bank${NOT_SENT_TEXT}`);
    expect(text).toContain(`Organization${NOT_SENT_TEXT}`);
    expect(text).toContain('Created2026-11-24 09:00:00 UTC');
    const history = screen.getByRole('table', { name: 'Documents created from this app' });
    const onlyName = within(history).getByRole('row', { name: /doc_lean0/ });
    expect(
      within(onlyName)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Only a namedoc_lean0', NOT_SENT_TEXT, NOT_SENT_TEXT, NOT_SENT_TEXT]);
  });
});
