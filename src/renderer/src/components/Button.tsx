/** Buttons: one primary action per view; secondary and ghost for the rest; danger to delete. */
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
  children,
  className,
  ...rest
}: ButtonProps) {
  return (
    <button
      type="button"
      {...rest}
      disabled={rest.disabled === true || busy}
      aria-busy={busy || undefined}
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
