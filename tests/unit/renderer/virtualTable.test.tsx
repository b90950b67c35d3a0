import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { VirtualTable, type Column } from '../../../src/renderer/src/components/VirtualTable.tsx';
import { PagedRows } from '../../../src/renderer/src/lib/pagedRows.ts';
import './setup.tsx';
import { settle } from './setup.tsx';

const COLUMNS: readonly Column<number>[] = [
  { key: 'n', header: 'Number', width: '100px', render: (row) => <span>row {row}</span> },
];

/** A million numbers, served by cursor like the cache serves pages. */
function million(): PagedRows<number> {
  const rows = new PagedRows<number>(
    (cursor, limit) => {
      const start = cursor === undefined ? 0 : Number(cursor);
      const page = Array.from({ length: limit }, (_, index) => start + index);
      return Promise.resolve({ rows: page, nextCursor: String(start + limit), total: 1_000_000 });
    },
    { pageSize: 200 },
  );
  rows.ensure(0, 0);
  return rows;
}

describe('VirtualTable', () => {
  it('holds a window of rows in the DOM, not the million', async () => {
    render(
      <VirtualTable
        label="Numbers"
        columns={COLUMNS}
        source={million()}
        selectedIndex={null}
        onSelect={() => undefined}
      />,
    );
    await settle();
    const grid = screen.getByRole('grid', { name: 'Numbers' });
    expect(grid.getAttribute('aria-rowcount')).toBe('1000001');
    const rows = screen.getAllByRole('row');
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(60);
    expect(screen.getByText('row 0')).toBeTruthy();
  });

  it('moves the selection with j and k and opens it with Enter, from anywhere but a text field', async () => {
    const onSelect = vi.fn();
    const onOpen = vi.fn();
    const source = million();
    const { rerender } = render(
      <>
        <input aria-label="Search" />
        <VirtualTable
          label="Numbers"
          columns={COLUMNS}
          source={source}
          selectedIndex={4}
          onSelect={onSelect}
          onOpen={onOpen}
          globalKeys
        />
      </>,
    );
    await settle();
    fireEvent.keyDown(document.body, { key: 'j' });
    expect(onSelect).toHaveBeenLastCalledWith(5);
    fireEvent.keyDown(document.body, { key: 'k' });
    expect(onSelect).toHaveBeenLastCalledWith(3);
    fireEvent.keyDown(document.body, { key: 'Enter' });
    expect(onOpen).toHaveBeenCalledWith(4, 4);
    // Typing in a field is typing, not navigating.
    fireEvent.keyDown(screen.getByLabelText('Search'), { key: 'j' });
    expect(onSelect).toHaveBeenCalledTimes(2);
    rerender(
      <>
        <input aria-label="Search" />
        <VirtualTable
          label="Numbers"
          columns={COLUMNS}
          source={source}
          selectedIndex={4}
          onSelect={onSelect}
          onOpen={onOpen}
          globalKeys
        />
      </>,
    );
    expect(screen.getByRole('row', { selected: true }).textContent).toContain('row 4');
  });
});
