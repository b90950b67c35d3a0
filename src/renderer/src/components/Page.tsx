/** The layout of a screen: a header with title and actions, a toolbar of filters, the body. */
import { useRef, type ReactNode } from 'react';
import { useDebouncedText } from '../lib/useDebounced.ts';
import { useScrollStop } from './focus/useScrollStop.ts';
import { Select } from './Field.tsx';
import { Icon } from './Icon.tsx';

export function Page({ children, drawer }: { children: ReactNode; drawer?: ReactNode }) {
  return (
    <div className="page-with-drawer">
      <div className="page">{children}</div>
      {drawer}
    </div>
  );
}

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="page-header">
      <div>
        {/* Focusable by script only: where focus lands when the screen opens (navigation, skip link). */}
        <h1 tabIndex={-1}>{title}</h1>
        {description === undefined ? null : <p className="page-description">{description}</p>}
      </div>
      {actions === undefined ? null : <div className="page-actions">{actions}</div>}
    </div>
  );
}

export function Toolbar({ children }: { children: ReactNode }) {
  return (
    <div className="toolbar" role="toolbar" aria-label="Filters">
      {children}
    </div>
  );
}

/**
 * The screen's search box: `/` focuses it from anywhere; Escape hands focus back (to the
 * list, through `onEscape`), never to nowhere. Like every typed filter, it keeps what is
 * typed and passes it on (`onChange`) once the typing pauses, so a list is not queried for
 * each letter; `value` is the search in force.
 */
export function SearchInput({
  value,
  onChange,
  placeholder,
  label,
  onEscape,
}: {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  label: string;
  onEscape?: () => void;
}) {
  const [text, setText] = useDebouncedText(value, onChange);
  return (
    <div className="search-input">
      <Icon name="search" size={14} />
      <input
        type="search"
        data-search
        aria-label={label}
        placeholder={placeholder}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && onEscape !== undefined) {
            event.preventDefault();
            onEscape();
          }
        }}
      />
      <kbd aria-hidden="true">/</kbd>
    </div>
  );
}

/** A small labelled filter control for toolbars. */
export function ToolbarItem({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="toolbar-item">
      <span className="toolbar-label">{label}</span>
      {children}
    </div>
  );
}

/**
 * A toolbar filter typed as text: an id or a path prefix, in monospace. Passed on once the
 * typing pauses, like the search box.
 */
export function ToolbarText({
  label,
  ariaLabel,
  value,
  onChange,
  placeholder,
}: {
  label: string;
  ariaLabel: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
}) {
  const [text, setText] = useDebouncedText(value, onChange, 400);
  return (
    <ToolbarItem label={label}>
      <input
        className="input mono"
        aria-label={ariaLabel}
        placeholder={placeholder}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
        }}
        style={{ width: 150 }}
      />
    </ToolbarItem>
  );
}

/**
 * A toolbar filter picked from a list. `emptyLabel` names the empty choice (no filter),
 * "Any" unless told; null when a value must be chosen.
 */
export function ToolbarSelect({
  label,
  ariaLabel = label,
  value,
  onChange,
  options,
  emptyLabel = 'Any',
  className,
}: {
  label: string;
  ariaLabel?: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly (string | { value: string; label: string })[];
  emptyLabel?: string | null;
  className?: string;
}) {
  return (
    <ToolbarItem label={label}>
      <Select
        aria-label={ariaLabel}
        value={value}
        onChange={onChange}
        options={options}
        placeholder={emptyLabel ?? undefined}
        {...(className === undefined ? {} : { className })}
      />
    </ToolbarItem>
  );
}

export function Panel({
  title,
  children,
  actions,
  className,
  result = false,
}: {
  title?: string;
  children: ReactNode;
  actions?: ReactNode;
  className?: string;
  /** The panel shows the outcome of what the user just did (data-result-panel: a sync strip, a check). */
  result?: boolean;
}) {
  const body = useRef<HTMLDivElement>(null);
  // A flush panel holds a table that may be wider than the window (at 200% zoom).
  useScrollStop(body, () => title ?? body.current?.querySelector('table')?.getAttribute('aria-label') ?? 'Table');
  return (
    <section
      className={`panel${className === undefined ? '' : ' ' + className}`}
      {...(result ? { 'data-result-panel': '' } : {})}
    >
      {title === undefined && actions === undefined ? null : (
        <div className="panel-header">
          {title === undefined ? <span /> : <h2>{title}</h2>}
          {actions}
        </div>
      )}
      <div className="panel-body" ref={body}>
        {children}
      </div>
    </section>
  );
}
