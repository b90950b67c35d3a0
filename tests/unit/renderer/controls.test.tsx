/**
 * Shared controls and their keyboard contract: a busy or disabled Button stays focusable and
 * does nothing (K2), a JSON editor indents with Tab and lets go after Escape (K3), and the
 * list columns draw a bank field as BankValue does.
 */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Button } from '../../../src/renderer/src/components/Button.tsx';
import { JSON_EDITOR_KEYS, JsonEditor } from '../../../src/renderer/src/components/JsonEditor.tsx';
import { fieldColumn, timeColumn } from '../../../src/renderer/src/components/list/columns.tsx';
import { NOT_SENT_TEXT, NULL_TEXT } from '../../../src/shared/bank/index.ts';
import './setup.tsx';

describe('Button', () => {
  it('stays focusable while busy or disabled, says so, and ignores clicks', async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    const { rerender } = render(
      <Button busy onClick={onClick}>
        Sync
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Sync' });
    expect(button.hasAttribute('disabled')).toBe(false);
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.getAttribute('aria-busy')).toBe('true');
    button.focus();
    expect(document.activeElement).toBe(button);
    await user.keyboard('{Enter}');
    await user.click(button);
    expect(onClick).not.toHaveBeenCalled();

    rerender(
      <Button disabled onClick={onClick}>
        Sync
      </Button>,
    );
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.getAttribute('aria-busy')).toBeNull();
    await user.click(button);
    expect(onClick).not.toHaveBeenCalled();

    rerender(<Button onClick={onClick}>Sync</Button>);
    expect(button.getAttribute('aria-disabled')).toBeNull();
    await user.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(document.activeElement).toBe(button);
  });

  it('as a disabled submit button, keeps its form from being sent, by click or by Enter in a field', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn((event: { preventDefault: () => void }) => {
      event.preventDefault();
    });
    render(
      <form onSubmit={onSubmit} aria-label="Open">
        <input aria-label="Application id" />
        <Button type="submit" disabled>
          Open
        </Button>
      </form>,
    );
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await user.type(screen.getByLabelText('Application id'), 'aact_1{Enter}');
    expect(onSubmit).not.toHaveBeenCalled();
  });
});

function Editor() {
  const [value, setValue] = useState('{}');
  return (
    <>
      <JsonEditor label="bankdata" value={value} onChange={setValue} hint="At most 1 KB." />
      <input aria-label="Next field" />
    </>
  );
}

describe('JsonEditor', () => {
  it('indents with Tab, leaves after Escape then Tab, and says so in its description', async () => {
    const user = userEvent.setup();
    render(<Editor />);
    const editor = screen.getByLabelText('bankdata');
    const described = (editor.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent);
    expect(described).toEqual(['At most 1 KB.', JSON_EDITOR_KEYS]);
    await user.click(editor);
    await user.keyboard('{End}{Tab}');
    expect(document.activeElement).toBe(editor);
    expect((editor as HTMLTextAreaElement).value).toBe('{}  ');
    // Escape, then a letter: Tab indents again.
    await user.keyboard('{Escape}x{Tab}');
    expect(document.activeElement).toBe(editor);
    await user.keyboard('{Escape}{Tab}');
    expect(document.activeElement).toBe(screen.getByLabelText('Next field'));
    // Shift+Tab always leaves backwards.
    await user.click(editor);
    await user.keyboard('{Shift>}{Tab}{/Shift}');
    expect(document.activeElement).not.toBe(editor);
  });
});

interface Row {
  id: string;
  amount?: string | null;
  at?: string | null;
}

describe('list columns', () => {
  it('draw a field as the bank sent it: left out, null, or the value formatted', () => {
    const amount = fieldColumn<Row, string>('amount', 'Amount', '100px', (row) => row.amount, {
      className: 'tabular',
      align: 'end',
      format: (value) => `$${value}`,
    });
    const at = timeColumn<Row>('at', 'Time', (row) => row.at);
    expect(amount.align).toBe('end');
    expect(at.width).toBe('196px');
    render(
      <ul>
        <li>{amount.render({ id: 'a' }, 0)}</li>
        <li>{amount.render({ id: 'b', amount: null }, 1)}</li>
        <li>{amount.render({ id: 'c', amount: '12.34' }, 2)}</li>
        <li>{at.render({ id: 'd', at: '2026-11-24T18:05:00Z' }, 3)}</li>
      </ul>,
    );
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      NOT_SENT_TEXT,
      NULL_TEXT,
      '$12.34',
      '2026-11-24 18:05:00 UTC',
    ]);
  });
});
