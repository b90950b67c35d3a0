/**
 * What the Ctrl+K palette offers for reviewing: the queue by state, each list's unreviewed
 * items, and the report. Each command names where it goes in the officer's words.
 */
import { REVIEW_KINDS } from '../../../../shared/review/reviewTerms.ts';
import { useNavigationStore } from '../../stores/navigation.ts';
import { openListWith } from './openQueue.ts';
import type { QueueState } from '../../../../shared/review/queueTerms.ts';
import { EMPTY_FILTERS, useQueueStore } from './queueStore.ts';
import { KIND_LABELS } from './reviewWords.ts';

export interface PaletteCommand {
  id: string;
  label: string;
  group: string;
  run: () => void;
}

function openQueue(state: QueueState | null): void {
  if (state === null) useQueueStore.setState({ filters: EMPTY_FILTERS, askedByName: false });
  else useQueueStore.getState().ask(state);
  useNavigationStore.getState().navigate('review-queue');
}

export function reviewCommands(): PaletteCommand[] {
  return [
    {
      id: 'review-changed',
      label: 'Review queue: changed since review',
      group: 'Review',
      run: () => {
        openQueue('changed');
      },
    },
    {
      id: 'review-flagged',
      label: 'Review queue: flagged by a person',
      group: 'Review',
      run: () => {
        openQueue('flagged-by-person');
      },
    },
    {
      id: 'review-escalated',
      label: 'Review queue: escalated',
      group: 'Review',
      run: () => {
        openQueue('escalated');
      },
    },
    {
      id: 'review-flagged-by-rule',
      label: 'Review queue: flagged by a rule',
      group: 'Review',
      run: () => {
        openQueue('flagged-by-rule');
      },
    },
    {
      id: 'review-unreviewed',
      label: 'Review queue: unreviewed, every account',
      group: 'Review',
      run: () => {
        openQueue('unreviewed');
      },
    },
    {
      id: 'review-all',
      label: 'Review queue: where items wait',
      group: 'Review',
      run: () => {
        openQueue(null);
      },
    },
    {
      id: 'review-report',
      label: 'Write the review report',
      group: 'Review',
      run: () => {
        useQueueStore.getState().setReporting(true);
        useNavigationStore.getState().navigate('review-queue');
      },
    },
    ...REVIEW_KINDS.map((kind) => ({
      id: `review-unreviewed-${kind}`,
      label: `Review unreviewed ${KIND_LABELS[kind].many}`,
      group: 'Review',
      run: () => {
        openListWith(kind, 'unreviewed');
      },
    })),
  ];
}
