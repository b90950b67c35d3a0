/**
 * The first Tab stop of the window: skips the sidebar and the top bar to the current screen's
 * heading. Shown only while focused. Focus is moved by script: following the href would change
 * the URL hash, which names the screen.
 */
import { screenLanding } from '../components/focus/focusTargets.ts';
import { screenOf, type ScreenId } from '../lib/screens.ts';

export function SkipLink({ screen }: { screen: ScreenId }) {
  // In a navigation landmark of its own: nothing of the window is outside one (IBM Equal Access's
  // aria_content_in_landmark, issue 38).
  return (
    <nav className="skip-links" aria-label="Skip">
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
    </nav>
  );
}
