/**
 * The review feature on a list screen it does not own (ListScreen's `extensions`): a Review
 * column, a Review filter with the count of each state, and the keys of the queue — c clear,
 * f flag, e escalate, n note — acting on the selection (one row, or a Shift-extended run:
 * one disposition and one note for all), then moving to the next row that needs a person.
 * Each disposition is said: what was done to which item and which item is now active (one
 * item: to screen readers only, the row shows the rest; several: a toast all can read).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  DISPOSITIONS,
  REVIEW_FILTERS,
  type Disposition,
  type ReviewFilter,
  type ReviewKind,
} from '../../../../shared/review/reviewTerms.ts';
import type { ListExtension, ListSelection, RowKeyBinding } from '../../components/list/ListScreen.tsx';
import { ToolbarSelect } from '../../components/Page.tsx';
import { announce } from '../../stores/announcements.ts';
import { toast } from '../../stores/toasts.ts';
import type { PagedRows } from '../../lib/pagedRows.ts';
import { nextToReview } from './nextToReview.ts';
import { ReviewCell } from './ReviewCell.tsx';
import { useReviewStore } from './reviewStore.ts';
import { countOf, DISPOSITION_WORDS, itemName, SHORT_LABELS, type ReviewSummary } from './reviewWords.ts';
import './review.css';

interface ReviewFilterControl {
  value: ReviewFilter | '';
  onChange: (filter: ReviewFilter | '') => void;
  /** How many rows each review filter would show with the list's other filters. */
  count?: (filter: ReviewFilter) => Promise<number>;
}

export interface ReviewExtensionOptions<Row> {
  profileId: string | null;
  /** The kind of the list's rows, or of each row (the review queue lists every kind). */
  kind: ReviewKind | ((row: Row) => ReviewKind);
  source: PagedRows<Row> | null;
  refOf: (row: Row) => string | undefined;
  readOf: (row: Row) => ReviewSummary | null | undefined;
  /** Makes a row the active one (the screen's store). */
  onActivate: (index: number) => void;
  filter?: ReviewFilterControl;
  /** The bank's record behind a row, to name it in announcements (default: the row itself). */
  recordOf?: (row: Row) => unknown;
}

/** After a disposition, wait this long for more before counting again (a queue reviewed by keyboard). */
const RECOUNT_DELAY_MS = 800;

export function useReviewExtension<Row>(options: ReviewExtensionOptions<Row>): ListExtension<Row> {
  const { profileId, kind, source, refOf, readOf, filter } = options;
  const latest = useRef(options);
  latest.current = options;
  const version = useReviewStore((state) => state.version);
  const counts = useFilterCounts(source, filter, version);

  // Rows read again carry their reviews: what was laid over the old ones is not needed.
  useEffect(() => {
    useReviewStore.getState().forget();
  }, [source]);

  // A filter asked for elsewhere (the queue, the palette) applies once the list is open.
  const onFilter = filter?.onChange;
  useEffect(() => {
    if (typeof kind !== 'string' || onFilter === undefined) return;
    const requested = useReviewStore.getState().takeRequest(kind);
    if (requested !== null) onFilter(requested);
  }, [kind, onFilter]);

  return useMemo(() => {
    const kindOf = (row: Row): ReviewKind => (typeof kind === 'string' ? kind : kind(row));
    const currentOf = (row: Row): ReviewSummary | null => {
      const ref = refOf(row);
      const read = readOf(row);
      if (profileId === null || ref === undefined) return read ?? null;
      return useReviewStore.getState().current(profileId, kindOf(row), ref, read);
    };

    /** The selection's items by kind; null when a row is not loaded or has no ref. */
    const itemsOf = (selection: ListSelection<Row>): Map<ReviewKind, string[]> | null => {
      const rows = selection.rows();
      if (rows.length === 0 || rows.length !== selection.count) return null;
      const byKind = new Map<ReviewKind, string[]>();
      for (const row of rows) {
        const ref = refOf(row);
        if (ref === undefined) return null;
        const rowKind = kindOf(row);
        byKind.set(rowKind, [...(byKind.get(rowKind) ?? []), ref]);
      }
      return byKind;
    };

    const nameOf = (row: Row): string =>
      itemName(kindOf(row), refOf(row) ?? '', (latest.current.recordOf ?? ((same: Row) => same))(row));

    /** What the selection is called: one item by its name, several by their count. */
    const selectionName = (selection: ListSelection<Row>, items: Map<ReviewKind, string[]>): string => {
      const [only] = selection.rows();
      if (selection.count === 1 && only !== undefined) return nameOf(only);
      return [...items].map(([itemKind, refs]) => countOf(refs.length, itemKind)).join(' and ');
    };

    /** Activates the next row that needs a person; answers where the keyboard now is, in words. */
    const moveOn = (selection: ListSelection<Row>): string => {
      const last = selection.indices[selection.indices.length - 1];
      const rows = latest.current.source;
      selection.clear();
      if (last === undefined || rows === null) return '';
      const next = nextToReview(rows, last, currentOf);
      latest.current.onActivate(next);
      const row = rows.rowAt(next);
      if (next === last || row === undefined) return 'Nothing below needs a person.';
      return `Now on ${nameOf(row)}.`;
    };

    const give = async (selection: ListSelection<Row>, disposition: Disposition): Promise<void> => {
      const items = itemsOf(selection);
      if (profileId === null || items === null) return;
      const what = selectionName(selection, items);
      for (const [itemKind, refs] of items) {
        const given = await useReviewStore.getState().give(profileId, itemKind, refs, disposition);
        if (given === null) return;
      }
      const done = `${DISPOSITION_WORDS[disposition].done} ${what}`;
      const now = moveOn(selection);
      if (selection.count > 1) toast('success', done, now);
      else announce(`${done}. ${now}`);
    };

    const enabled = (selection: ListSelection<Row>): boolean =>
      profileId !== null && itemsOf(selection) !== null && !useReviewStore.getState().busy;

    const keys: RowKeyBinding<Row>[] = DISPOSITIONS.map((disposition) => ({
      key: DISPOSITION_WORDS[disposition].key,
      label: DISPOSITION_WORDS[disposition].verb,
      enabled,
      run: (selection) => void give(selection, disposition),
    }));
    keys.push({
      key: 'n',
      label: 'Note…',
      enabled: (selection) => enabled(selection) && (itemsOf(selection)?.size ?? 0) === 1,
      run: (selection) => {
        const items = itemsOf(selection);
        const [entry] = items === null ? [] : [...items];
        const [first] = selection.rows();
        if (profileId === null || items === null || entry === undefined || first === undefined) return;
        useReviewStore.getState().askNote({
          profileId,
          kind: entry[0],
          refs: entry[1],
          name: selectionName(selection, items),
          disposition: currentOf(first)?.disposition ?? 'flagged',
          onGiven: () => moveOn(selection),
        });
      },
    });

    const column = {
      key: 'review',
      header: 'Review',
      width: '124px',
      render: (row: Row) =>
        profileId === null ? null : (
          <ReviewCell profileId={profileId} kind={kindOf(row)} reference={refOf(row)} read={readOf(row)} />
        ),
    };

    return {
      columns: [column],
      keys,
      filters:
        filter === undefined ? undefined : (
          <ToolbarSelect
            label="Review"
            value={filter.value}
            onChange={(value) => {
              filter.onChange(value as ReviewFilter | '');
            }}
            options={REVIEW_FILTERS.map((option) => ({
              value: option,
              label:
                counts?.[option] === undefined
                  ? SHORT_LABELS[option]
                  : `${SHORT_LABELS[option]} (${counts[option].toLocaleString('en-US')})`,
            }))}
            className="select-review"
          />
        ),
    };
  }, [kind, profileId, refOf, readOf, filter, counts]);
}

/** The count behind each review filter, read again when the list is, and after dispositions. */
function useFilterCounts(
  source: PagedRows<unknown> | null,
  filter: ReviewFilterControl | undefined,
  version: number,
): Partial<Record<ReviewFilter, number>> | null {
  const [counts, setCounts] = useState<Partial<Record<ReviewFilter, number>> | null>(null);
  const count = filter?.count;
  const shown = useRef(version);
  useEffect(() => {
    if (count === undefined || source === null) {
      setCounts(null);
      return undefined;
    }
    let stale = false;
    const delay = shown.current === version ? 0 : RECOUNT_DELAY_MS;
    shown.current = version;
    const timer = setTimeout(() => {
      void Promise.all(REVIEW_FILTERS.map(async (option) => [option, await count(option)] as const)).then(
        (entries) => {
          if (!stale) setCounts(Object.fromEntries(entries));
        },
        () => {
          if (!stale) setCounts(null);
        },
      );
    }, delay);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [source, count, version]);
  return counts;
}
