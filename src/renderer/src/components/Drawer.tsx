/**
 * The detail drawer on the right. Not modal: the list stays usable, so j/k move through
 * rows while the drawer follows. Esc closes it and gives focus back to the list.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { Button } from './Button.tsx';

export interface DrawerProps {
  title: ReactNode;
  subtitle?: ReactNode;
  onClose: () => void;
  actions?: ReactNode;
  children: ReactNode;
}

export function Drawer({ title, subtitle, onClose, actions, children }: DrawerProps) {
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    const listener = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (document.querySelector('[role="dialog"][aria-modal="true"]') !== null) return;
      event.preventDefault();
      onClose();
    };
    window.addEventListener('keydown', listener);
    return () => {
      window.removeEventListener('keydown', listener);
    };
  }, [onClose]);
  return (
    <aside ref={panel} className="drawer" role="complementary" aria-label="Details">
      <header className="drawer-header">
        <div className="drawer-titles">
          <h2 className="drawer-title">{title}</h2>
          {subtitle === undefined ? null : <div className="drawer-subtitle">{subtitle}</div>}
        </div>
        {actions}
        <Button variant="ghost" size="sm" icon="close" aria-label="Close details (Esc)" onClick={onClose} />
      </header>
      <div className="drawer-body">{children}</div>
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
