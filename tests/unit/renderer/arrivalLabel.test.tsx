/** The listener grid's Delivery cell and millisecond clock (issue 27, item 4). */
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  ArrivalLabelCell,
  clockWithMilliseconds,
} from '../../../src/renderer/src/features/listener/ArrivalLabelCell.tsx';
import './setup.tsx';

describe('ArrivalLabelCell', () => {
  it('says attempt N for a retry, with who decided and why for sighted and screen-reader users', () => {
    render(
      <ArrivalLabelCell
        label={{ kind: 'retry', attempt: 3, basis: 'send whsend_1 follows 2 earlier attempts', source: 'bank' }}
      />,
    );
    expect(screen.getByText('attempt 3')).toBeTruthy();
    expect(screen.getByTitle('bank: send whsend_1 follows 2 earlier attempts')).toBeTruthy();
    expect(screen.getByText('(bank: send whsend_1 follows 2 earlier attempts)', { exact: false })).toBeTruthy();
  });

  it('says new event when the listener decided by body, and a dash for a request of an earlier run', () => {
    const { rerender } = render(
      <ArrivalLabelCell
        label={{
          kind: 'new_event',
          attempt: 1,
          basis: 'first arrival of it since the listener started',
          source: 'listener',
        }}
      />,
    );
    expect(screen.getByText('new event')).toBeTruthy();
    expect(screen.getByTitle('by body: first arrival of it since the listener started')).toBeTruthy();
    rerender(<ArrivalLabelCell label={null} />);
    expect(screen.getByText('—').getAttribute('title')).toContain('never across restarts');
  });

  it('shows arrival times to the millisecond', () => {
    expect(clockWithMilliseconds('2026-11-27T01:55:02.200Z')).toBe('01:55:02.200');
    expect(clockWithMilliseconds('2026-11-27T01:55:02.2Z')).toBe('01:55:02.200');
    expect(clockWithMilliseconds('2026-11-27T01:55:02Z')).toBe('01:55:02.000');
  });
});
