/** Settings → Review: how the keys move, who signs the reviews, and the active profile's watch rules. */
import { Checkbox } from '../../components/Field.tsx';
import { Panel } from '../../components/Page.tsx';
import { useMoveOnPreference } from './moveOnPreference.ts';
import { ReviewerPanel } from './ReviewerPanel.tsx';
import { WatchRulesPanel } from './WatchRulesPanel.tsx';
import './review.css';

/** c, f and e move on by themselves, or stay: said here, where an officer looks for it. */
function MoveOnPanel() {
  const { moveOn, setMoveOn } = useMoveOnPreference();
  return (
    <Panel title="Keys">
      <Checkbox
        label="After c, f or e, move to the next item that needs a person"
        hint={
          moveOn
            ? 'On: the keyboard moves on by itself, skipping what is already reviewed; press c, f or e again for the next one.'
            : 'Off: the keyboard stays on the item just reviewed; press j to move on.'
        }
        checked={moveOn}
        onChange={setMoveOn}
      />
    </Panel>
  );
}

export function ReviewSettings() {
  return (
    <div className="page-scroll stack">
      <MoveOnPanel />
      <ReviewerPanel />
      <WatchRulesPanel />
    </div>
  );
}
