/**
 * What a list shows when it has no rows to show: loading, empty, offline, an error with
 * what to do, or a part of Ledgerdesk that is not available yet. Never invented data.
 */
import type { ReactNode } from 'react';
import { isNotAvailable, sentenceOf, type UiError } from '../lib/errors.ts';
import { pointsToSandboxRestart } from '../../../shared/ipc/index.ts';
import { SandboxRestartLink } from '../features/settings/SandboxRestartLink.tsx';
import { Button } from './Button.tsx';
import { Icon, type IconName } from './Icon.tsx';

interface StateProps {
  icon?: IconName;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  tone?: 'neutral' | 'negative' | 'warning';
  role?: 'status' | 'alert';
}

export function StateMessage({ icon, title, children, action, tone = 'neutral', role = 'status' }: StateProps) {
  return (
    <div className={`state state-${tone}`} role={role}>
      {icon === undefined ? null : (
        <div className="state-icon">
          <Icon name={icon} size={20} />
        </div>
      )}
      <div className="state-title">{title}</div>
      {children === undefined ? null : <div className="state-body">{children}</div>}
      {action === undefined ? null : <div className="state-action">{action}</div>}
    </div>
  );
}

export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state" role="status" aria-live="polite">
      <span className="spinner spinner-lg" aria-hidden="true" />
      <div className="state-body">{label}</div>
    </div>
  );
}

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <StateMessage icon="search" title={title} action={action}>
      {children}
    </StateMessage>
  );
}

function NotAvailableState({ what, error }: { what: string; error: UiError }) {
  return (
    <StateMessage icon="alert" tone="warning" title={`${what} is not available yet`}>
      <p>{error.message}</p>
      {error.action === undefined ? null : <p className="muted">{error.action}</p>}
    </StateMessage>
  );
}

export function ErrorState({ what, error, onRetry }: { what: string; error: UiError; onRetry?: () => void }) {
  if (isNotAvailable(error)) return <NotAvailableState what={what} error={error} />;
  if (error.code === 'offline') {
    return (
      <StateMessage
        icon="offline"
        tone="warning"
        title="Offline"
        action={
          onRetry === undefined && !pointsToSandboxRestart(sentenceOf(error)) ? undefined : (
            <>
              <SandboxRestartLink sentence={sentenceOf(error)} />
              {onRetry === undefined ? null : (
                <Button onClick={onRetry} icon="refresh">
                  Try again
                </Button>
              )}
            </>
          )
        }
      >
        {sentenceOf(error)}
      </StateMessage>
    );
  }
  return (
    <StateMessage
      icon="alert"
      tone="negative"
      role="alert"
      title={`Could not load ${what.toLowerCase()}`}
      action={
        onRetry === undefined ? undefined : (
          <Button onClick={onRetry} icon="refresh">
            Try again
          </Button>
        )
      }
    >
      {sentenceOf(error)}
    </StateMessage>
  );
}

/** A thin strip above a list: you are offline, these rows are from the cache, as of … */
/** Offline: how old the cached data is, or (null) that nothing was synced yet and what then to do. */
export function OfflineNotice({ asOf }: { asOf: string | null }) {
  return (
    <div className="notice notice-warning" role="status">
      <Icon name="offline" size={14} />
      <span>
        <strong>Offline.</strong>{' '}
        {asOf === null
          ? `${NOT_SYNCED_YET}, and the bank cannot be reached now: sync once you are back online.`
          : `Showing cached data as of ${asOf}. Changes on the bank since then are not shown.`}
      </span>
    </div>
  );
}

/** A list the cache holds nothing of yet, in the user's words (never "as of never synced"). */
export const NOT_SYNCED_YET = 'Not synced yet';

export function InlineError({ error }: { error: UiError }) {
  return (
    <div className="notice notice-negative" role="alert">
      <Icon name="alert" size={14} />
      <span>{sentenceOf(error)}</span>
      <SandboxRestartLink sentence={sentenceOf(error)} />
    </div>
  );
}
