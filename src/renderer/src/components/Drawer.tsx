/**
 * The detail drawer, beside the list (never over it: see .list-screen in app.css). Not
 * modal: the list stays usable, so j/k move through rows while the drawer follows. Escape
 * closes it; ListScreen gives focus back to the list (or to what opened the drawer).
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './Button.tsx';
import { isModalOpen } from '../lib/keyboard.ts';
import { useScrollStop } from './focus/useScrollStop.ts';

export interface DrawerProps {
  title: ReactNode;
  subtitle?: ReactNode;
  onClose: () => void;
  actions?: ReactNode;
  children: ReactNode;
}

export function Drawer({ title, subtitle, onClose, actions, children }: DrawerProps) {
  const titleId = useId();
  const root = useRef<HTMLElement>(null);
  const body = useRef<HTMLDivElement>(null);
  useScrollStop(body, () => document.getElementById(titleId)?.textContent ?? 'Details');
  // Where the window is too small to put it beside the list (200% zoom, 320 px) it opens under
  // the list: brought into view as it opens, so opening a row shows it (issue 38). Focus stays
  // on the list, whose keys move the drawer from there on.
  useEffect(() => {
    const element = root.current;
    if (element === null || typeof element.scrollIntoView !== 'function') return;
    const box = element.getBoundingClientRect();
    const height = document.documentElement.clientHeight;
    // Less than half of what could show is on screen: bring its top to the top.
    const shown = Math.min(box.bottom, height) - Math.max(box.top, 0);
    if (shown < Math.min(box.height, height) / 2) element.scrollIntoView({ block: 'start' });
  }, []);
  useEffect(() => {
    const listener = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape' || event.defaultPrevented || isModalOpen()) return;
      event.preventDefault();
      onClose();
    };
    window.addEventListener('keydown', listener);
    return () => {
      window.removeEventListener('keydown', listener);
    };
  }, [onClose]);
  return (
    <aside ref={root} className="drawer" role="complementary" aria-label="Details">
      <header className="drawer-header">
        <div className="drawer-titles">
          <h2 className="drawer-title" id={titleId}>
            {title}
          </h2>
          {subtitle === undefined ? null : <div className="drawer-subtitle">{subtitle}</div>}
        </div>
        {actions}
        <Button variant="ghost" size="sm" icon="close" aria-label="Close details (Esc)" onClick={onClose} />
      </header>
      {/* While it scrolls: a Tab stop of its own, named by the drawer's title (useScrollStop). */}
      <div className="drawer-body" ref={body}>
        {children}
      </div>
    </aside>
  );
}

/** A definition list of label → value, the body of most drawers. */
export function Properties({ items }: { items: readonly (readonly [string, ReactNode])[] }) {
  return (
    <dl className="properties">
      {items.map(([label, value]) => (
        <div className="property" key={label}>
          <dt>{label}</dt>
          <dd>{value === null || value === undefined || value === '' ? <span className="faint">—</span> : value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Section({ title, children, aside }: { title: string; children: ReactNode; aside?: ReactNode }) {
  return (
    <section className="section">
      <div className="section-header">
        <h3>{title}</h3>
        {aside}
      </div>
      {children}
    </section>
  );
}
