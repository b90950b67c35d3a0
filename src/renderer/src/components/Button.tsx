/**
 * Buttons: one primary action per view; secondary and ghost for the rest; danger to delete.
 *
 * A disabled or busy button is `aria-disabled`, not `disabled`: it stays focusable and in the
 * Tab order, so pressing Sync or Create (which then waits) never drops focus to <body>, and a
 * screen reader still finds it and hears that it is unavailable. Its clicks are ignored here,
 * and default-prevented, so a disabled submit button does not submit its form either (Enter in
 * a field clicks the form's default button; the prevented click cancels the submission).
 */
import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Icon, type IconName } from './Icon.tsx';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'ghost' | 'danger';
  size?: 'sm' | 'md';
  icon?: IconName;
  busy?: boolean;
  children?: ReactNode;
}

export function Button({
  variant = 'secondary',
  size = 'md',
  icon,
  busy = false,
  disabled = false,
  children,
  className,
  onClick,
  ...rest
}: ButtonProps) {
  const unavailable = disabled || busy;
  return (
    <button
      type="button"
      {...rest}
      aria-disabled={unavailable || undefined}
      aria-busy={busy || undefined}
      onClick={(event) => {
        if (unavailable) {
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
      className={`button button-${variant} button-${size}${children === undefined ? ' button-icon-only' : ''}${className === undefined ? '' : ' ' + className}`}
    >
      {busy ? (
        <span className="spinner" aria-hidden="true" />
      ) : icon === undefined ? null : (
        <Icon name={icon} size={14} />
      )}
      {children}
    </button>
  );
}
