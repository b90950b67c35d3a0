/**
 * Columns that stay (issue 25, item 5): at a table's width, the columns of priority 1 (the
 * identifying one, the amount or status, the review) are always shown, and the others leave
 * by their declared priority, the highest first; nothing leaves that fits.
 */
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { columnsThatFit, leastWidthOf } from '../../../src/renderer/src/components/columnPriority.ts';
import { VirtualTable, type Column } from '../../../src/renderer/src/components/VirtualTable.tsx';
import { PagedRows } from '../../../src/renderer/src/lib/pagedRows.ts';
import './setup.tsx';

const COLUMNS = [
  { key: 'date', width: '152px' },
  { key: 'desc', width: 'minmax(220px, 1fr)' },
  { key: 'type', width: '112px', priority: 3 },
  { key: 'source', width: '72px', priority: 4 },
  { key: 'amount', width: '132px' },
  { key: 'balance', width: '132px', priority: 5 },
  { key: 'trace', width: '84px', priority: 6 },
  { key: 'review', width: '132px' },
];
const keys = (width: number | null): string[] => columnsThatFit(COLUMNS, width).map((column) => column.key);

describe('column priority', () => {
  it('reads the least width of a grid track', () => {
    expect(leastWidthOf('152px')).toBe(152);
    expect(leastWidthOf('minmax(220px, 1fr)')).toBe(220);
    expect(leastWidthOf(' minmax( 120.5px , 0.6fr)')).toBe(120.5);
    expect(leastWidthOf('1fr')).toBe(0);
  });

  it('shows every column when they fit, or before the table is measured', () => {
    expect(keys(null)).toEqual(COLUMNS.map((column) => column.key));
    expect(keys(1100)).toEqual(COLUMNS.map((column) => column.key));
  });

  it('lets the columns leave highest priority first, keeping the declared order', () => {
    // 1036 + 16 needed: trace (84) leaves first, then balance, source, type.
    expect(keys(1000)).toEqual(['date', 'desc', 'type', 'source', 'amount', 'balance', 'review']);
    expect(keys(850)).toEqual(['date', 'desc', 'type', 'source', 'amount', 'review']);
    expect(keys(700)).toEqual(['date', 'desc', 'amount', 'review']);
  });

  it('never drops a kept column: too narrow for them, the table scrolls sideways', () => {
    expect(keys(320)).toEqual(['date', 'desc', 'amount', 'review']);
  });

  it('among equal priorities, the last declared leaves first', () => {
    const equal = [
      { key: 'a', width: '100px' },
      { key: 'b', width: '100px', priority: 2 },
      { key: 'c', width: '100px', priority: 2 },
    ];
    expect(columnsThatFit(equal, 230, 0).map((column) => column.key)).toEqual(['a', 'b']);
  });
});

describe('the table at its width', () => {
  const TABLE_COLUMNS: readonly Column<number>[] = [
    { key: 'n', header: 'Number', width: '100px', rowHeader: true, render: (row) => <span>row {row}</span> },
    { key: 'double', header: 'Double', width: '100px', priority: 2, render: (row) => <span>{row * 2}</span> },
    { key: 'square', header: 'Square', width: '100px', priority: 3, render: (row) => <span>{row * row}</span> },
  ];

  function numbers(): PagedRows<number> {
    const rows = new PagedRows<number>(
      (cursor, limit) => {
        const start = cursor === undefined ? 0 : Number(cursor);
        return Promise.resolve({
          rows: Array.from({ length: Math.min(limit, 20 - start) }, (_, index) => start + index),
          nextCursor: start + limit >= 20 ? null : String(start + limit),
          total: 20,
        });
      },
      { pageSize: 20 },
    );
    rows.ensure(0, 0);
    return rows;
  }

  async function shown(width: number): Promise<{ headers: string[]; rowHeaders: number; note: string | null }> {
    const widthOf = vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(width);
    const heightOf = vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(400);
    try {
      const view = render(
        <VirtualTable
          label="Numbers"
          columns={TABLE_COLUMNS}
          source={numbers()}
          selectedIndex={null}
          onSelect={() => undefined}
        />,
      );
      await act(async () => {
        await new Promise((resolve) => setTimeout(resolve, 0));
      });
      const result = {
        headers: screen.getAllByRole('columnheader').map((header) => header.textContent),
        rowHeaders: screen.getAllByRole('rowheader').length,
        note: view.container.querySelector('.vtable-hidden-columns')?.textContent ?? null,
      };
      view.unmount();
      return result;
    } finally {
      widthOf.mockRestore();
      heightOf.mockRestore();
    }
  }

  it('names each row by its row header, and shows every column when there is room', async () => {
    const wide = await shown(800);
    expect(wide.headers).toEqual(['Number', 'Double', 'Square']);
    expect(wide.rowHeaders).toBe(20);
    expect(screen.queryAllByRole('gridcell')).toEqual([]);
    expect(wide.note).toBeNull();
  });

  it('drops the columns that leave first, and says they are in the drawer', async () => {
    const narrow = await shown(250);
    expect(narrow.headers).toEqual(['Number', 'Double']);
    expect(narrow.note).toBe('Square: in the drawer at this width');
    const narrowest = await shown(120);
    expect(narrowest.headers).toEqual(['Number']);
    expect(narrowest.rowHeaders).toBe(20);
    expect(narrowest.note).toBe('Double, Square: in the drawer at this width');
  });
});
