/**
 * The one list-screen behaviour every list shares (useDrawerFollowsCursor.ts): the drawer shows
 * the item the keys act on, after j/k, after a key that moves on by itself (c/f/e), after a
 * filter (kept when the new list holds the item, closed when not) and after a sync (the list read
 * again, new rows above: the same item, at its new place). A drawer that fetches what it shows
 * (applications, listener requests, send timelines) is told each row once.
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ListScreen, type ListExtension } from '../../../src/renderer/src/components/list/ListScreen.tsx';
import type { Column } from '../../../src/renderer/src/components/VirtualTable.tsx';
import { PagedRows } from '../../../src/renderer/src/lib/pagedRows.ts';
import './setup.tsx';

interface Item {
  id: string;
}

const COLUMNS: readonly Column<Item>[] = [
  { key: 'id', header: 'Item', width: '100px', rowHeader: true, render: (row) => <span>{row.id}</span> },
];

function listOf(ids: readonly string[], standIn: PagedRows<Item> | null = null): PagedRows<Item> {
  const rows = new PagedRows<Item>(
    async (cursor, limit) => {
      // Answered a turn later, as the bridge answers: a stand-in shows meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const start = cursor === undefined ? 0 : Number(cursor);
      const page = ids.slice(start, start + limit).map((id) => ({ id }));
      return { rows: page, nextCursor: start + limit >= ids.length ? null : String(start + limit), total: ids.length };
    },
    { pageSize: 25, standIn },
  );
  rows.ensure(0, 0);
  return rows;
}

async function settle(): Promise<void> {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 30));
  });
}

const ITEMS = Array.from({ length: 60 }, (_, index) => `item-${String(index)}`);

/** A screen whose drawer fetches what it shows (by id), as applications and requests do. */
function Screen({ initial, shownLog }: { initial: PagedRows<Item>; shownLog: string[] }) {
  const [source, setSource] = useState(initial);
  const [active, setActive] = useState<number | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const escalateAndMoveOn: ListExtension<Item> = {
    keys: [
      {
        key: 'e',
        label: 'Escalate',
        // As the review keys do: act, then move to the next row by themselves.
        run: (selection) => {
          const last = selection.indices.at(-1) ?? 0;
          setActive(last + 1);
        },
      },
    ],
  };
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setSource(listOf(ITEMS.filter((id) => id.endsWith('1') || id.endsWith('3'))));
          setActive(null);
        }}
      >
        Filter odd
      </button>
      <button
        type="button"
        onClick={() => {
          setSource(listOf(['item-100']));
          setActive(null);
        }}
      >
        Filter away
      </button>
      <button
        type="button"
        onClick={() => {
          // A sync brought two new items, listed first: the list is read again, rows kept meanwhile.
          setSource((before) => listOf(['new-1', 'new-2', ...ITEMS], before));
        }}
      >
        Synced
      </button>
      <ListScreen
        label="Items"
        source={source}
        columns={COLUMNS}
        active={active}
        onActivate={setActive}
        rowKey={(row) => row.id}
        extensions={[escalateAndMoveOn]}
        emptyTitle="Nothing"
        drawer={{
          content:
            shown === null ? null : (
              <aside aria-label="Details">
                <h2 className="drawer-title">Details of {shown}</h2>
              </aside>
            ),
          shows: (row) => row.id === shown,
          show: (row) => {
            shownLog.push(row.id);
            setShown(row.id);
          },
          close: () => {
            setShown(null);
          },
        }}
      />
    </>
  );
}

function activeRowText(): string | null {
  const grid = screen.getByRole('grid', { name: 'Items' });
  const id = grid.getAttribute('aria-activedescendant');
  return id === null ? null : (document.getElementById(id)?.textContent ?? null);
}

function drawerText(): string | null {
  return screen.queryByRole('complementary', { name: 'Details' })?.textContent ?? null;
}

describe('the drawer follows the cursor on every list screen', () => {
  it('after j/k, after a key that moves on by itself, after a filter and after a sync', async () => {
    const shownLog: string[] = [];
    render(<Screen initial={listOf(ITEMS)} shownLog={shownLog} />);
    await settle();
    const grid = screen.getByRole('grid', { name: 'Items' });

    // Enter opens the drawer on the active row.
    fireEvent.keyDown(grid, { key: 'j' });
    fireEvent.keyDown(grid, { key: 'Enter' });
    await settle();
    expect(drawerText()).toBe('Details of item-0');

    // j and k: the drawer moves with the keyboard, each row fetched once.
    fireEvent.keyDown(grid, { key: 'j' });
    fireEvent.keyDown(grid, { key: 'j' });
    fireEvent.keyDown(grid, { key: 'k' });
    await settle();
    expect(activeRowText()).toBe('item-1');
    expect(drawerText()).toBe('Details of item-1');
    expect(shownLog).toEqual(['item-0', 'item-1', 'item-2', 'item-1']);

    // A disposition key moves on by itself: the drawer is on the row the next key acts on.
    fireEvent.keyDown(grid, { key: 'e' });
    await settle();
    expect(activeRowText()).toBe('item-2');
    expect(drawerText()).toBe('Details of item-2');

    // A sync: two new rows above, the list read again. The same item stays active and shown.
    fireEvent.keyDown(grid, { key: 'j' });
    await settle();
    expect(drawerText()).toBe('Details of item-3');
    fireEvent.click(screen.getByRole('button', { name: 'Synced' }));
    // Meanwhile the old rows stand in: no blank list, the same row active.
    expect(screen.queryByText(/Loading/)).toBeNull();
    expect(activeRowText()).toBe('item-3');
    await settle();
    expect(activeRowText()).toBe('item-3');
    expect(screen.getByRole('grid', { name: 'Items' }).getAttribute('aria-activedescendant')).toBe('vtable-row-5');
    expect(drawerText()).toBe('Details of item-3');

    // A filter that keeps the item: still active, still shown.
    fireEvent.click(screen.getByRole('button', { name: 'Filter odd' }));
    await settle();
    expect(activeRowText()).toBe('item-3');
    expect(drawerText()).toBe('Details of item-3');

    // A filter that leaves it out: nothing is active, and the drawer does not stay on it.
    fireEvent.click(screen.getByRole('button', { name: 'Filter away' }));
    await settle();
    // (A filtered list is a new grid: looked up again.)
    expect(screen.getByRole('grid', { name: 'Items' }).getAttribute('aria-activedescendant')).toBeNull();
    expect(drawerText()).toBeNull();
  });
});
