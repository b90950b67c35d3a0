/**
 * Where focus may go, decided in one place: what counts as a live, focusable element, the
 * focusable elements of a container in Tab order, and the screen's own landing place (its
 * heading) when nothing better is left. Dialogs, drawers and navigation all give focus back
 * through `focusFirstLive`, so focus never drops to <body> when the element it came from has
 * been removed or disabled.
 */

const TABBABLE = [
  'a[href]',
  'button',
  'input:not([type="hidden"])',
  'select',
  'textarea',
  'summary',
  '[tabindex]',
  '[contenteditable]:not([contenteditable="false"])',
].join(',');

function isVisible(element: HTMLElement): boolean {
  // jsdom has no layout: there every connected element counts as shown.
  if (typeof element.checkVisibility !== 'function') return element.closest('[hidden]') === null;
  return element.checkVisibility();
}

/**
 * True when `element` can take focus now: in the page, shown, not natively disabled and not
 * inside an inert subtree. (aria-disabled controls stay focusable on purpose.)
 */
export function isLive(element: Element | null | undefined): element is HTMLElement {
  if (!(element instanceof HTMLElement) || !element.isConnected) return false;
  if (element.matches(':disabled')) return false;
  if (element.closest('[inert]') !== null) return false;
  return isVisible(element);
}

/** The elements of `container` a Tab press reaches, in document order. */
export function tabbables(container: ParentNode): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (element) => element.tabIndex >= 0 && element.getAttribute('tabindex') !== '-1' && isLive(element),
  );
}

/** The screen's landing place: its h1 (focusable by script only), else the main region. */
export function screenLanding(): HTMLElement | null {
  const heading = document.querySelector<HTMLElement>('#screen h1');
  if (heading !== null) {
    if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
    return heading;
  }
  return document.querySelector<HTMLElement>('#screen');
}

/**
 * Focuses the first candidate that is live, else the screen's landing place. Returns what
 * got focus. `preventScroll`: giving focus back must not jump the page.
 */
export function focusFirstLive(candidates: readonly (Element | null | undefined)[]): HTMLElement | null {
  const target = candidates.find(isLive) ?? screenLanding();
  target?.focus({ preventScroll: true });
  return target ?? null;
}

/** True when focus is nowhere useful: on <body>, or on an element that has left the page. */
export function focusIsLost(): boolean {
  const focused = document.activeElement;
  return focused === null || focused === document.body || !focused.isConnected;
}
