/**
 * The review feature in jsdom, on the real bridge builder with fake handlers: the keys of the
 * queue (c, f, e, n) give dispositions to the selection and move to the next row that needs a
 * person; the review column follows at once; the letter of a "G then a letter" chord is left
 * to the chord; the note dialog counts and refuses what the service would; the rule form sends
 * only the kind's conditions; the clear-cache sentence names the reviews.
 */
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReviewSummary } from '../../../src/shared/ipc/domains/reviews.ts';
import { ListScreen } from '../../../src/renderer/src/components/list/ListScreen.tsx';
import type { Column } from '../../../src/renderer/src/components/VirtualTable.tsx';
import { setChordPending } from '../../../src/renderer/src/lib/keyboard.ts';
import { PagedRows } from '../../../src/renderer/src/lib/pagedRows.ts';
import { itemSummary } from '../../../src/renderer/src/features/review/itemSummary.ts';
import { nextToReview } from '../../../src/renderer/src/features/review/nextToReview.ts';
import { ReviewNoteHost } from '../../../src/renderer/src/features/review/NoteDialog.tsx';
import { reviewsKeptSentence } from '../../../src/renderer/src/features/review/reviewsHeld.ts';
import { useReviewStore } from '../../../src/renderer/src/features/review/reviewStore.ts';
import { ruleInputOf } from '../../../src/renderer/src/features/review/RuleForm.tsx';
import { useReviewExtension } from '../../../src/renderer/src/features/review/useReviewExtension.tsx';
import { useToastStore } from '../../../src/renderer/src/stores/toasts.ts';
import { useAnnouncements } from '../../../src/renderer/src/stores/announcements.ts';
import { useMoveOnPreference } from '../../../src/renderer/src/features/review/moveOnPreference.ts';
import { installFakeBridge, refuse, settle, type FakeBridge } from './setup.tsx';

interface Item {
  ref: string;
  label: string;
  review: ReviewSummary | null;
}

function reviewOf(ref: string, state: ReviewSummary['state'], extra: Partial<ReviewSummary> = {}): ReviewSummary {
  return {
    kind: 'application',
    ref,
    state,
    disposition: state === 'changed' ? 'cleared' : state,
    byRule: null,
    note: null,
    reviewer: 'A. Officer',
    reviewedAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    changes: [],
    version: 1,
    ...extra,
  };
}

/** Ten applications; the third is already cleared, the fifth flagged by a rule. */
function items(): Item[] {
  return Array.from({ length: 10 }, (_, index) => ({
    ref: `aact_${String(index)}`,
    label: `application ${String(index)}`,
    review:
      index === 2
        ? reviewOf('aact_2', 'cleared')
        : index === 4
          ? reviewOf('aact_4', 'flagged', { disposition: null, byRule: 'Manual review', reviewer: null })
          : null,
  }));
}

function sourceOf(rows: Item[]): PagedRows<Item> {
  const source = new PagedRows<Item>(() => Promise.resolve({ rows, nextCursor: null, total: rows.length }), {
    pageSize: 50,
  });
  source.ensure(0, 0);
  return source;
}

const COLUMNS: readonly Column<Item>[] = [{ key: 'label', header: 'Item', width: '1fr', render: (row) => row.label }];
const refOf = (row: Item): string => row.ref;
const readOf = (row: Item): ReviewSummary | null => row.review;

function Queue({ source }: { source: PagedRows<Item> }) {
  const [active, setActive] = useState<number | null>(null);
  const extension = useReviewExtension<Item>({
    profileId: 'prof_1',
    kind: 'application',
    source,
    refOf,
    readOf,
    onActivate: setActive,
  });
  return (
    <>
      <ListScreen
        label="Applications"
        source={source}
        columns={COLUMNS}
        active={active}
        onActivate={setActive}
        emptyTitle="None"
        extensions={[extension]}
      />
      <ReviewNoteHost />
    </>
  );
}

let bridge: FakeBridge;
let given: { refs: string[]; disposition: string; note?: string }[];

beforeEach(() => {
  given = [];
  useReviewStore.setState({ given: new Map(), version: 0, busy: false, note: null, requested: null });
  useToastStore.setState({ toasts: [] });
  bridge = installFakeBridge({
    'reviews.give': (input) => {
      const { refs, disposition, note } = input as { refs: string[]; disposition: 'cleared'; note?: string };
      if (refs.includes('aact_9')) throw refuse('not_found', 'No application aact_9 is in the offline cache.', 'refs');
      given.push({ refs, disposition, ...(note === undefined ? {} : { note }) });
      return {
        rows: refs.map((ref) => reviewOf(ref, disposition, { note: note ?? null, version: 2 })),
      };
    },
  });
});

afterEach(() => {
  setChordPending(false);
});

function rowText(index: number): string {
  return document.getElementById(`vtable-row-${String(index)}`)?.textContent ?? '';
}

function activeIndex(): string | null {
  return screen.getByRole('grid', { name: 'Applications' }).getAttribute('aria-activedescendant');
}

describe('nextToReview', () => {
  it('skips rows a person has decided, stops at unreviewed, rule-flagged and changed ones', () => {
    const rows = [null, reviewOf('b', 'cleared'), reviewOf('c', 'escalated'), reviewOf('d', 'changed')];
    const around = { count: 6, rowAt: (index: number) => (index < rows.length ? { review: rows[index] } : undefined) };
    expect(nextToReview(around, 0, (row) => row.review)).toBe(3);
    // Past the loaded rows: the next one, whose page loads as the list gets there.
    expect(nextToReview(around, 3, (row) => row.review)).toBe(4);
    expect(nextToReview({ count: 2, rowAt: () => ({ review: rows[1] }) }, 0, (row) => row.review)).toBe(0);
  });
});

describe('the review keys on a list', () => {
  it('c clears the active row, shows it at once and moves past rows already decided', async () => {
    render(<Queue source={sourceOf(items())} />);
    await settle();
    const grid = screen.getByRole('grid', { name: 'Applications' });
    expect(rowText(2)).toContain('cleared');
    expect(rowText(4)).toContain('rule: Manual review');
    fireEvent.keyDown(grid, { key: 'j' });
    fireEvent.keyDown(grid, { key: 'j' });
    expect(activeIndex()).toBe('vtable-row-1');
    fireEvent.keyDown(grid, { key: 'c' });
    await settle();
    expect(given).toEqual([{ refs: ['aact_1'], disposition: 'cleared' }]);
    expect(rowText(1)).toContain('cleared');
    // Row 2 is cleared already; row 3 needs a person.
    expect(activeIndex()).toBe('vtable-row-3');
    fireEvent.keyDown(grid, { key: 'e' });
    await settle();
    // Row 4 was flagged by a rule only: it still needs a person.
    expect(activeIndex()).toBe('vtable-row-4');
    expect(rowText(3)).toContain('escalated');
  });

  it('with moving on turned off (Settings › Review), c stays on the row it cleared and says so', async () => {
    useMoveOnPreference.getState().setMoveOn(false);
    try {
      render(<Queue source={sourceOf(items())} />);
      await settle();
      const grid = screen.getByRole('grid', { name: 'Applications' });
      fireEvent.keyDown(grid, { key: 'j' });
      fireEvent.keyDown(grid, { key: 'j' });
      fireEvent.keyDown(grid, { key: 'c' });
      await settle();
      expect(given).toEqual([{ refs: ['aact_1'], disposition: 'cleared' }]);
      expect(activeIndex()).toBe('vtable-row-1');
      expect(useAnnouncements.getState().text).toMatch(/^Cleared .+\. Still on .+\.$/);
      // j then c reviews the next row: none is skipped.
      fireEvent.keyDown(grid, { key: 'j' });
      expect(activeIndex()).toBe('vtable-row-2');
    } finally {
      useMoveOnPreference.getState().setMoveOn(true);
    }
    expect(localStorage.getItem('ledgerdesk.review.moveOn')).toBe('on');
  });

  it('f flags a Shift-extended selection with one call, and says so once', async () => {
    render(<Queue source={sourceOf(items())} />);
    await settle();
    const grid = screen.getByRole('grid', { name: 'Applications' });
    fireEvent.keyDown(grid, { key: 'j' });
    fireEvent.keyDown(grid, { key: 'J', shiftKey: true });
    fireEvent.keyDown(grid, { key: 'J', shiftKey: true });
    expect(screen.getByText('3 rows selected')).toBeTruthy();
    fireEvent.keyDown(grid, { key: 'f' });
    await settle();
    expect(given).toEqual([{ refs: ['aact_0', 'aact_1', 'aact_2'], disposition: 'flagged' }]);
    expect([rowText(0), rowText(1), rowText(2)].every((text) => text.includes('flagged'))).toBe(true);
    expect(useToastStore.getState().toasts.map((toast) => toast.title)).toEqual(['Flagged 3 account applications']);
    expect(screen.queryByText('3 rows selected')).toBeNull();
    expect(activeIndex()).toBe('vtable-row-3');
  });

  it('refuses as the service does, keeping the row where it was', async () => {
    render(<Queue source={sourceOf(items())} />);
    await settle();
    const grid = screen.getByRole('grid', { name: 'Applications' });
    fireEvent.keyDown(grid, { key: 'End' });
    fireEvent.keyDown(grid, { key: 'c' });
    await settle();
    expect(given).toEqual([]);
    expect(rowText(9)).toContain('unreviewed');
    expect(activeIndex()).toBe('vtable-row-9');
    expect(useToastStore.getState().toasts[0]).toMatchObject({
      tone: 'error',
      title: 'Could not clear',
      body: 'No application aact_9 is in the offline cache.',
    });
  });

  it('leaves the letter of a G chord to the chord', async () => {
    render(<Queue source={sourceOf(items())} />);
    await settle();
    const grid = screen.getByRole('grid', { name: 'Applications' });
    fireEvent.keyDown(grid, { key: 'j' });
    setChordPending(true);
    const event = fireEvent.keyDown(grid, { key: 'c' });
    await settle();
    expect(event).toBe(true);
    expect(bridge.calls.filter((call) => call.channel === 'reviews.give')).toEqual([]);
  });

  it('n writes one note for the selection with the disposition chosen; a note too long is not sent', async () => {
    render(<Queue source={sourceOf(items())} />);
    await settle();
    const grid = screen.getByRole('grid', { name: 'Applications' });
    fireEvent.keyDown(grid, { key: 'j' });
    fireEvent.keyDown(grid, { key: 'J', shiftKey: true });
    fireEvent.keyDown(grid, { key: 'n' });
    const dialog = screen.getByRole('dialog', { name: 'Note for 2 account applications' });
    const note = screen.getByLabelText('Note');
    expect(document.activeElement).toBe(note);
    // Items no one decided preset no disposition (issue 38: never "Flagged" on an unreviewed
    // row): the note waits for one. An emoji counts as one character.
    for (const option of ['Cleared', 'Flagged', 'Escalated'])
      expect(screen.getByLabelText<HTMLInputElement>(option).checked).toBe(false);
    expect(screen.getByRole('button', { name: 'Save the note' }).getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(screen.getByLabelText('Flagged'));
    fireEvent.change(note, { target: { value: `${'x'.repeat(3999)}🙂🙂` } });
    expect(dialog.textContent).toContain('4,001 / 4,000 characters: too long');
    const flag = screen.getByRole('button', { name: 'Flag with this note' });
    expect(flag.getAttribute('aria-disabled')).toBe('true');
    // Unavailable, not removed: it stays focusable, and a click on it sends nothing.
    fireEvent.click(flag);
    fireEvent.keyDown(note, { key: 'Enter', ctrlKey: true });
    await settle();
    expect(given).toEqual([]);
    fireEvent.change(note, { target: { value: 'Same device, two applicants.' } });
    fireEvent.click(screen.getByLabelText('Escalated'));
    fireEvent.keyDown(note, { key: 'Enter', ctrlKey: true });
    await settle();
    expect(given).toEqual([
      { refs: ['aact_0', 'aact_1'], disposition: 'escalated', note: 'Same device, two applicants.' },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(rowText(0)).toContain('escalated');
    expect(screen.getAllByLabelText('with a note')).toHaveLength(2);
    expect(activeIndex()).toBe('vtable-row-3');
  });
});

describe('small pieces', () => {
  it('sends only the conditions of the rule’s kind', () => {
    const draft = {
      name: 'Failing sends',
      kind: 'webhook-send' as const,
      amountBeyond: '100.00',
      descriptionHas: 'coffee',
      type: '',
      typeSource: '',
      applicationStatus: 'kyc',
      applicantYoungerThan: ' 18 ',
      applicantOlderThan: '',
      citizenshipOutside: 'US, CA',
      sendStatus: 'error',
      attemptAtLeast: ' 3 ',
    };
    expect(ruleInputOf(draft)).toEqual({
      name: 'Failing sends',
      kind: 'webhook-send',
      sendStatus: 'error',
      attemptAtLeast: 3,
    });
    expect(ruleInputOf({ ...draft, name: '', kind: 'application' })).toEqual({
      name: '',
      kind: 'application',
      applicationStatus: 'kyc',
      applicantYoungerThan: 18,
      citizenshipOutside: 'US, CA',
    });
  });

  it('names the reviews a clear keeps', () => {
    expect(reviewsKeptSentence(1204)).toContain(
      'The reviews stay — 1,204 reviews: dispositions, notes and their history',
    );
    expect(reviewsKeptSentence(1)).toContain('1 review:');
    expect(reviewsKeptSentence(null)).toContain('every officer’s review');
    expect(reviewsKeptSentence(0)).toContain('Watch rules and the audit log are kept.');
    expect(reviewsKeptSentence(3)).not.toMatch(/go with it|dropped/);
  });

  it('says what an item is from the record its review keeps, tolerating missing fields', () => {
    expect(itemSummary('pending-transaction', 'k', { desc: 'COFFEE', amount: '-3.50', date: '2026-01-02' })).toBe(
      'COFFEE · -3.50 · 2026-01-02',
    );
    expect(itemSummary('pending-transaction', 'k', null)).toBe('pending transaction');
    expect(itemSummary('application', 'aact_1', { status: 'kyc' })).toBe('kyc');
    expect(itemSummary('application', 'aact_1', {})).toBe('aact_1');
    expect(
      itemSummary('webhook-send', 'notification/wh_1/ach_1/ach.create', {
        event: 'ach.create',
        object_id: 'ach_1',
        attempts: [{ status: 'error' }, { status: 'sent' }],
      }),
    ).toBe('ach.create · ach_1 · 2 attempts · sent');
    expect(itemSummary('webhook-send', 'whsend_1', { event: 'ach.create', status: 'error', attempt_number: 0 })).toBe(
      'ach.create · error · attempt 0',
    );
  });
});
