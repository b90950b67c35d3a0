/**
 * What the Ctrl+K palette offers for reviewing: the queue by state, each list's unreviewed
 * items, and the report. Each command names where it goes in the officer's words.
 */
import { REVIEW_KINDS } from '../../../../shared/review/reviewTerms.ts';
import { useNavigationStore } from '../../stores/navigation.ts';
import { openListWith } from './openQueue.ts';
import { useQueueStore } from './queueStore.ts';
import { KIND_LABELS } from './reviewWords.ts';

export interface PaletteCommand {
  id: string;
  label: string;
  group: string;
  run: () => void;
}

function openQueue(state: 'changed' | 'flagged' | 'escalated' | ''): void {
  const navigation = useNavigationStore.getState();
  // An open queue reads its list again; a closed one reads these filters when it opens.
  if (navigation.screen === 'review-queue') useQueueStore.getState().setFilters({ kind: '', state });
  else useQueueStore.setState({ filters: { kind: '', state } });
  navigation.navigate('review-queue');
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
      label: 'Review queue: flagged',
      group: 'Review',
      run: () => {
        openQueue('flagged');
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
      id: 'review-all',
      label: 'Review queue: every review',
      group: 'Review',
      run: () => {
        openQueue('');
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
