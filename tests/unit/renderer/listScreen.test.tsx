import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import {
  ListScreen,
  type ListExtension,
  type ListSelection,
} from '../../../src/renderer/src/components/list/ListScreen.tsx';
import type { Column } from '../../../src/renderer/src/components/VirtualTable.tsx';
import { PagedRows } from '../../../src/renderer/src/lib/pagedRows.ts';
import './setup.tsx';
import { settle } from './setup.tsx';

const COLUMNS: readonly Column<number>[] = [
  { key: 'n', header: 'Number', width: '100px', render: (row) => <span>row {row}</span> },
];

function numbers(count: number): PagedRows<number> {
  const rows = new PagedRows<number>(
    (cursor, limit) => {
      const start = cursor === undefined ? 0 : Number(cursor);
      const page = Array.from({ length: Math.min(limit, count - start) }, (_, index) => start + index);
      return Promise.resolve({
        rows: page,
        nextCursor: start + limit >= count ? null : String(start + limit),
        total: count,
      });
    },
    { pageSize: 50 },
  );
  rows.ensure(0, 0);
  return rows;
}

function Harness({
  source,
  onOpen,
  extension,
  onExport,
}: {
  source: PagedRows<number>;
  onOpen: (index: number) => void;
  extension?: ListExtension<number>;
  onExport?: () => void;
}) {
  const [active, setActive] = useState<number | null>(null);
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={onExport}>
        Export CSV
      </button>
      <ListScreen
        label="Numbers"
        source={source}
        columns={COLUMNS}
        active={active}
        onActivate={setActive}
        onOpen={(index) => {
          setOpen(true);
          onOpen(index);
        }}
        drawer={{
          content: open ? (
            <aside aria-label="Details">
              <button
                type="button"
                onClick={() => {
                  setOpen(false);
                }}
              >
                Close
              </button>
            </aside>
          ) : null,
          shows: () => true,
          show: () => {
            setOpen(true);
          },
          close: () => {
            setOpen(false);
          },
        }}
        emptyTitle="Nothing"
        extensions={extension === undefined ? [] : [extension]}
      />
    </>
  );
}

describe('ListScreen', () => {
  it('extends the selection with Shift+j and says how many rows are selected', async () => {
    render(<Harness source={numbers(100)} onOpen={() => undefined} />);
    await settle();
    const grid = screen.getByRole('grid', { name: 'Numbers' });
    expect(grid.getAttribute('aria-multiselectable')).toBe('true');
    fireEvent.keyDown(grid, { key: 'j' });
    fireEvent.keyDown(grid, { key: 'J', shiftKey: true });
    fireEvent.keyDown(grid, { key: 'ArrowDown', shiftKey: true });
    expect(screen.getAllByRole('row', { selected: true }).map((row) => row.textContent)).toEqual([
      'row 0',
      'row 1',
      'row 2',
    ]);
    expect(grid.getAttribute('aria-activedescendant')).toBe('vtable-row-2');
    expect(screen.getByText('3 rows selected').getAttribute('role')).toBe('status');
    // Shift+click extends from the same anchor; Escape clears back to the active row.
    fireEvent.click(screen.getByText('row 5'), { shiftKey: true });
    expect(screen.getByText('6 rows selected')).toBeTruthy();
    fireEvent.keyDown(grid, { key: 'Escape' });
    expect(screen.getAllByRole('row', { selected: true })).toHaveLength(1);
  });

  it('runs an extension key on the selected rows and offers it as a button', async () => {
    const marked: number[][] = [];
    const extension: ListExtension<number> = {
      keys: [
        {
          key: 'c',
          label: 'Mark as cleared',
          run: (selection: ListSelection<number>) => {
            marked.push(selection.rows());
          },
        },
      ],
      columns: [{ key: 'review', header: 'Review', width: '80px', render: () => <span>unreviewed</span> }],
    };
    render(<Harness source={numbers(100)} onOpen={() => undefined} extension={extension} />);
    await settle();
    expect(screen.getByRole('columnheader', { name: 'Review' })).toBeTruthy();
    const grid = screen.getByRole('grid', { name: 'Numbers' });
    fireEvent.keyDown(grid, { key: 'j' });
    fireEvent.keyDown(grid, { key: 'j', shiftKey: true });
    fireEvent.keyDown(document.body, { key: 'c' });
    expect(marked).toEqual([[0, 1]]);
    fireEvent.click(screen.getByRole('button', { name: /Mark as cleared/ }));
    expect(marked).toEqual([
      [0, 1],
      [0, 1],
    ]);
  });

  it('leaves Enter to a focused button once a row is selected (K1)', async () => {
    const onOpen = vi.fn();
    const onExport = vi.fn();
    render(<Harness source={numbers(10)} onOpen={onOpen} onExport={onExport} />);
    await settle();
    fireEvent.keyDown(document.body, { key: 'j' });
    const exportButton = screen.getByRole('button', { name: 'Export CSV' });
    const event = fireEvent.keyDown(exportButton, { key: 'Enter' });
    // Not cancelled: the browser goes on to click the button.
    expect(event).toBe(true);
    expect(onOpen).not.toHaveBeenCalled();
    fireEvent.keyDown(document.body, { key: 'Enter' });
    expect(onOpen).toHaveBeenCalledWith(0);
  });

  it('gives focus back to the grid when the drawer closes (K5)', async () => {
    render(<Harness source={numbers(10)} onOpen={() => undefined} />);
    await settle();
    fireEvent.keyDown(document.body, { key: 'j' });
    fireEvent.keyDown(document.body, { key: 'Enter' });
    const close = screen.getByRole('button', { name: 'Close' });
    close.focus();
    fireEvent.click(close);
    await settle();
    expect(document.activeElement).toBe(screen.getByRole('grid', { name: 'Numbers' }));
  });

  it('binds to the store that keeps the active row, or keeps the row itself', async () => {
    const store = { selected: null as number | null, select: vi.fn() };
    const { rerender } = render(
      <ListScreen label="Numbers" source={numbers(10)} columns={COLUMNS} activeRow={store} emptyTitle="Nothing" />,
    );
    await settle();
    const grid = screen.getByRole('grid', { name: 'Numbers' });
    fireEvent.keyDown(grid, { key: 'j' });
    expect(store.select).toHaveBeenCalledWith(0);
    rerender(
      <ListScreen
        label="Numbers"
        source={numbers(10)}
        columns={COLUMNS}
        activeRow={{ ...store, selected: 3 }}
        emptyTitle="Nothing"
      />,
    );
    await settle();
    // A new source: the list draws a new grid.
    expect(screen.getByRole('grid', { name: 'Numbers' }).getAttribute('aria-activedescendant')).toBe('vtable-row-3');

    // No store, no active/onActivate: the list keeps its active row itself.
    rerender(<ListScreen label="Own" source={numbers(10)} columns={COLUMNS} emptyTitle="Nothing" />);
    await settle();
    const own = screen.getByRole('grid', { name: 'Own' });
    fireEvent.keyDown(own, { key: 'j' });
    fireEvent.keyDown(own, { key: 'j' });
    expect(own.getAttribute('aria-activedescendant')).toBe('vtable-row-1');
  });

  it('passes the search on once typing pauses, and Escape there gives focus to the grid', async () => {
    const onSearch = vi.fn();
    render(
      <ListScreen
        label="Numbers"
        source={numbers(10)}
        columns={COLUMNS}
        searchBox={{ label: 'Search numbers', placeholder: 'Search' }}
        search=""
        onSearch={onSearch}
        emptyTitle="Nothing"
      />,
    );
    await settle();
    vi.useFakeTimers();
    try {
      const box = screen.getByRole('searchbox', { name: 'Search numbers' });
      fireEvent.change(box, { target: { value: '4' } });
      fireEvent.change(box, { target: { value: '42' } });
      expect(onSearch).not.toHaveBeenCalled();
      act(() => {
        vi.advanceTimersByTime(300);
      });
      expect(onSearch.mock.calls).toEqual([['42']]);
      box.focus();
      fireEvent.keyDown(box, { key: 'Escape' });
      expect(document.activeElement).toBe(screen.getByRole('grid', { name: 'Numbers' }));
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives focus back to the button that opened the drawer (the lookup form’s Open)', async () => {
    function Lookup() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button
            type="button"
            onClick={() => {
              setOpen(true);
            }}
          >
            Open
          </button>
          <ListScreen
            label="Numbers"
            source={numbers(10)}
            columns={COLUMNS}
            emptyTitle="Nothing"
            drawer={{
              content: open ? (
                <aside aria-label="Details">
                  <button
                    type="button"
                    onClick={() => {
                      setOpen(false);
                    }}
                  >
                    Close
                  </button>
                </aside>
              ) : null,
              shows: () => true,
              show: () => {
                setOpen(true);
              },
              close: () => {
                setOpen(false);
              },
            }}
          />
        </>
      );
    }
    render(<Lookup />);
    await settle();
    const open = screen.getByRole('button', { name: 'Open' });
    open.focus();
    fireEvent.click(open);
    await settle();
    const close = screen.getByRole('button', { name: 'Close' });
    close.focus();
    fireEvent.click(close);
    await settle();
    expect(document.activeElement).toBe(open);
  });
});
