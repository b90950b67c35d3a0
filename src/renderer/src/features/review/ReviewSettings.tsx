/** Settings → Review: who signs the reviews, and the active profile's watch rules. */
import { ReviewerPanel } from './ReviewerPanel.tsx';
import { WatchRulesPanel } from './WatchRulesPanel.tsx';
import './review.css';

export function ReviewSettings() {
  return (
    <div className="page-scroll stack">
      <ReviewerPanel />
      <WatchRulesPanel />
    </div>
  );
}
