/**
 * Overview: where a compliance officer stands at a glance, for the active profile. Review
 * progress, pending volume by day per account, webhook delivery success, freshness of each
 * cached list. Every figure is an aggregate computed by SQL in main (overview.get); each
 * chart carries a sentence that says what it shows and a table view of its numbers.
 */
import { useEffect } from 'react';
import { Button } from '../../components/Button.tsx';
import { Page, PageHeader } from '../../components/Page.tsx';
import { ErrorState, LoadingState } from '../../components/States.tsx';
import { formatTimestamp } from '../../lib/time.ts';
import { useActiveProfileId } from '../../stores/profiles.ts';
import { DeliveriesPanel } from './DeliveriesPanel.tsx';
import { FreshnessPanel } from './FreshnessPanel.tsx';
import { useOverviewStore } from './overviewStore.ts';
import { PendingVolumePanel } from './PendingVolumePanel.tsx';
import { ReviewProgressPanel } from './ReviewProgressPanel.tsx';
import './overview.css';

export function OverviewScreen() {
  const profileId = useActiveProfileId();
  const { data, loading, error, load, pendingWindow, choosePendingWindow } = useOverviewStore();
  useEffect(() => {
    if (profileId !== null) void load(profileId);
  }, [profileId, load]);

  return (
    <Page>
      <PageHeader
        title="Overview"
        description={
          data === null
            ? 'Review progress, pending volume by day, webhook deliveries and how fresh each cached list is.'
            : `From the offline cache, read ${formatTimestamp(data.readAt)}.`
        }
        actions={
          <Button
            icon="refresh"
            busy={loading}
            disabled={profileId === null}
            onClick={() => {
              if (profileId !== null) void load(profileId);
            }}
          >
            Read again
          </Button>
        }
      />
      <div className="page-scroll overview-grid">
        {error !== null ? (
          <ErrorState
            what="Overview"
            error={error}
            onRetry={() => {
              if (profileId !== null) void load(profileId);
            }}
          />
        ) : null}
        {data === null ? (
          error === null ? (
            <LoadingState label="Reading the overview…" />
          ) : null
        ) : (
          <>
            <ReviewProgressPanel progress={data.progress} days={data.reviewDays} />
            <PendingVolumePanel
              accounts={data.pendingByAccount}
              window={data.pendingWindow}
              chosenWindow={pendingWindow}
              onChooseWindow={(window) => void choosePendingWindow(window)}
            />
            <DeliveriesPanel deliveries={data.deliveries} />
            <FreshnessPanel
              lists={data.freshness}
              readAt={data.readAt}
              accountNames={new Map((data.accountNames ?? []).map((account) => [account.id, account]))}
            />
          </>
        )}
      </div>
    </Page>
  );
}
