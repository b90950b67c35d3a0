/**
 * A block of JSON is a Tab stop, a named region, only while it scrolls (issue 38): a stop that
 * scrolls nothing is noise, and IBM Equal Access calls a focusable element with no widget role
 * an error unless it scrolls. jsdom lays nothing out, so the block's sizes are given here.
 */
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ScrollBlock } from '../../../src/renderer/src/components/ScrollBlock.tsx';
import './setup.tsx';

const sizes = ['scrollHeight', 'clientHeight', 'scrollWidth', 'clientWidth'] as const;

/** Gives every <pre> these layout sizes (jsdom's are all 0). */
function layOut(size: Record<(typeof sizes)[number], number>): void {
  for (const name of sizes)
    Object.defineProperty(HTMLPreElement.prototype, name, { configurable: true, get: () => size[name] });
}

afterEach(() => {
  for (const name of sizes) Reflect.deleteProperty(HTMLPreElement.prototype, name);
});

describe('ScrollBlock', () => {
  it('is a named region and a Tab stop while its text is taller than its box, which scrolls', () => {
    layOut({ scrollHeight: 900, clientHeight: 300, scrollWidth: 400, clientWidth: 400 });
    // The app's stylesheet lets a JSON block scroll (app.css); here, a rule of the same kind.
    const sheet = document.createElement('style');
    sheet.textContent = 'pre.json-view { overflow-y: auto; }';
    document.head.append(sheet);
    render(
      <ScrollBlock className="json-view" label="Every field">
        {'{ "a": 1 }'}
      </ScrollBlock>,
    );
    const region = screen.getByRole('region', { name: 'Every field' });
    expect(region.getAttribute('tabindex')).toBe('0');
    expect(region.textContent).toBe('{ "a": 1 }');
    sheet.remove();
  });

  it('is plain text, with no stop, no role and no name, when all of it shows', () => {
    layOut({ scrollHeight: 120, clientHeight: 120, scrollWidth: 400, clientWidth: 400 });
    render(
      <ScrollBlock className="json-view" label="Example of ach.create">
        {'{ "a": 1 }'}
      </ScrollBlock>,
    );
    expect(screen.queryByRole('region')).toBeNull();
    // The text sits in its padded block inside the unpadded scrolling box.
    const block = screen.getByText('{ "a": 1 }').closest('pre');
    if (block === null) throw new Error('no pre around the text');
    expect(block.hasAttribute('tabindex')).toBe(false);
    expect(block.hasAttribute('aria-label')).toBe(false);
  });
});
