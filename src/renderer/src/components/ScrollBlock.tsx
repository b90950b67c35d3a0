/**
 * A block of preformatted text (JSON, a request body) that is a Tab stop only while it scrolls.
 * A keyboard user needs the stop to scroll it with the arrows (axe's scrollable-region-focusable);
 * a stop on a block that does not scroll does nothing, and a focusable element with no widget
 * role is an error to IBM Equal Access unless it scrolls (issue 38). So the block is a named,
 * focusable region while its text overflows, and plain text when it all shows (useScrollStop).
 * The padding is on the text inside, not on the scrolling box (app.css, .json-view).
 */
import { useRef, type ReactNode } from 'react';
import { useScrollStop } from './focus/useScrollStop.ts';

export function ScrollBlock({ label, className, children }: { label: string; className: string; children: ReactNode }) {
  const ref = useRef<HTMLPreElement | null>(null);
  useScrollStop(ref, () => label);
  return (
    <pre ref={ref} className={className}>
      <span className="scroll-block-text">{children}</span>
    </pre>
  );
}
