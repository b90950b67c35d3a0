/**
 * The first Tab stop of the window: skips the sidebar and the top bar to the current screen's
 * heading. Shown only while focused. Focus is moved by script: following the href would change
 * the URL hash, which names the screen.
 */
import { screenLanding } from '../components/focus/focusTargets.ts';
import { screenOf, type ScreenId } from '../lib/screens.ts';

export function SkipLink({ screen }: { screen: ScreenId }) {
  return (
    <a
      className="skip-link"
      href="#screen"
      onClick={(event) => {
        event.preventDefault();
        screenLanding()?.focus();
      }}
    >
      Skip to {screenOf(screen)?.label ?? 'the screen'}
    </a>
  );
}
