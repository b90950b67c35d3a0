/**
 * Functions that run inside the page (passed to page.evaluate): what has focus, which controls
 * cannot be seen when focused, what is clipped sideways. Node-side files are type-checked
 * without the DOM library, so the little of the page's globals these use is declared here,
 * for this file alone; the functions are sent to the page as source and use its real globals.
 */

interface ProbeRect {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
}

interface ProbeElement {
  tagName: string;
  textContent: string | null;
  scrollWidth: number;
  clientWidth: number;
  classList: { contains(name: string): boolean };
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  closest(selector: string): ProbeElement | null;
  parentElement: ProbeElement | null;
  contains(other: ProbeElement | null): boolean;
  focus(): void;
  blur(): void;
  checkVisibility(): boolean;
  getBoundingClientRect(): ProbeRect;
  getAnimations(): { finished: Promise<unknown> }[];
}

declare const document: {
  activeElement: ProbeElement | null;
  body: ProbeElement;
  querySelectorAll(selector: string): Iterable<ProbeElement>;
  elementFromPoint(x: number, y: number): ProbeElement | null;
};
declare const window: { innerWidth: number; innerHeight: number; ledgerdeskBusyWatch?: BusyWatch };
declare class MutationObserver {
  constructor(callback: () => void);
  observe(target: ProbeElement, options: { attributes: boolean; attributeFilter: string[] }): void;
}

/** What watchBusy saw: each time the control became unavailable, whether it still had focus. */
interface BusyWatch {
  unavailable: number;
  keptFocus: number;
}
declare function matchMedia(query: string): { matches: boolean };
declare function getComputedStyle(element: ProbeElement): {
  overflowX: string;
  overflowY: string;
  textOverflow: string;
  animationName: string;
  transitionDuration: string;
  outlineStyle: string;
};

/** What has focus, in words a failure message can show. */
export function describeFocus(): string {
  const element = document.activeElement;
  if (element === null || element === document.body) return 'body';
  const role = element.getAttribute('role');
  const name = element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? '';
  return `${element.tagName.toLowerCase()}${role === null ? '' : `[role=${role}]`} "${name}"`;
}

/** Takes focus away from everything: it falls to <body>, as when a focused element is removed. */
export function dropFocus(): void {
  document.activeElement?.blur();
}

/** Resolves once `element`'s animations (the drawer sliding in) have run: measure after that. */
export async function animationsDone(element: ProbeElement): Promise<void> {
  await Promise.all(element.getAnimations().map((animation) => animation.finished));
}

/** True when the page is drawn in forced colours (Windows high contrast and the like). */
export function forcedColorsActive(): boolean {
  return matchMedia('(forced-colors: active)').matches;
}

/**
 * Starts watching `element` (a button): every time it turns aria-disabled (busy, or disabled
 * while its job runs), note whether it still has focus. Read with busyWatchResult.
 */
export function watchBusy(element: ProbeElement): void {
  const watch: BusyWatch = { unavailable: 0, keptFocus: 0 };
  window.ledgerdeskBusyWatch = watch;
  new MutationObserver(() => {
    if (element.getAttribute('aria-disabled') !== 'true' && !element.hasAttribute('disabled')) return;
    watch.unavailable += 1;
    if (document.activeElement === element) watch.keptFocus += 1;
  }).observe(element, { attributes: true, attributeFilter: ['aria-disabled', 'disabled'] });
}

export function busyWatchResult(): BusyWatch | null {
  return window.ledgerdeskBusyWatch ?? null;
}

/** True when focus is on `element` or inside it. */
export function holdsFocus(element: ProbeElement): boolean {
  return element.contains(document.activeElement);
}

/**
 * Controls a user could not reach or see: for each Tab stop of the page (outside
 * `exceptSelector`), focus it and ask what is drawn at its centre. A line for each where that
 * is not the control: covered (by the drawer), cut off by a box that does not scroll, or
 * outside the window.
 */
export function hiddenControls(exceptSelector: string | null): string[] {
  const selector =
    'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex]:not([tabindex="-1"])';
  const problems: string[] = [];
  for (const element of document.querySelectorAll(selector)) {
    if (element.closest('[inert]') !== null || !element.checkVisibility()) continue;
    if (exceptSelector !== null && element.closest(exceptSelector) !== null) continue;
    // Off screen until focused, by design; checked on its own.
    if (element.classList.contains('skip-link')) continue;
    // A file input hidden behind its visible button (Import…, Run a file…): out of the tab order
    // and hidden from assistive technology; the button is the control, and is checked.
    if (element.getAttribute('aria-hidden') === 'true' && element.getAttribute('tabindex') === '-1') continue;
    element.focus();
    const box = element.getBoundingClientRect();
    const inWindow = box.bottom > 0 && box.right > 0 && box.top < window.innerHeight && box.left < window.innerWidth;
    const x = Math.min(Math.max(box.left + box.width / 2, 0), window.innerWidth - 1);
    const y = Math.min(Math.max(box.top + box.height / 2, 0), window.innerHeight - 1);
    const drawn = document.elementFromPoint(x, y);
    const shown = drawn !== null && (element.contains(drawn) || drawn.contains(element));
    if (!inWindow || !shown) {
      const name = element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 30) ?? '';
      const over = drawn === null ? 'nothing' : `${drawn.tagName.toLowerCase()}.${drawn.getAttribute('class') ?? ''}`;
      problems.push(`${element.tagName.toLowerCase()} "${name}" ${inWindow ? `under ${over}` : 'out of the window'}`);
    }
  }
  document.activeElement?.blur();
  return problems;
}

/**
 * Content lost at this window size: elements that reach past a box that clips them without
 * letting the user scroll (overflow hidden or clip, and the window itself, whose body does not
 * scroll). Text cut with an ellipsis is left out: table cells truncate by design, and the row's
 * drawer shows the whole value. One line a lost element, naming it and the box that clips it.
 */
export function lostContent(): string[] {
  const problems: string[] = [];
  // getAttribute, not className: an SVG icon's className is not a string.
  const describe = (element: ProbeElement): string => {
    const classes = (element.getAttribute('class') ?? '').trim();
    return `${element.tagName.toLowerCase()}${classes === '' ? '' : `.${classes.split(/\s+/).join('.')}`}`;
  };
  for (const element of document.querySelectorAll('#root *')) {
    if (element.closest('[inert]') !== null || !element.checkVisibility()) continue;
    // Out of sight until focused, by design (checked by the skip link's own test).
    if (element.closest('.skip-link') !== null) continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    for (const axis of ['x', 'y'] as const) {
      let clipper: ProbeElement | null = element.parentElement;
      let lost: string | null = null;
      while (clipper !== null) {
        const style = getComputedStyle(clipper);
        const overflow = axis === 'x' ? style.overflowX : style.overflowY;
        if (overflow === 'auto' || overflow === 'scroll') break;
        if (overflow !== 'visible') {
          if (style.textOverflow === 'ellipsis' || getComputedStyle(element).textOverflow === 'ellipsis') break;
          const edge = clipper.getBoundingClientRect();
          const past =
            axis === 'x'
              ? box.right > edge.right + 1 || box.left < edge.left - 1
              : box.bottom > edge.bottom + 1 || box.top < edge.top - 1;
          if (past) lost = describe(clipper);
          break;
        }
        clipper = clipper.parentElement;
      }
      if (clipper === null) {
        const past = axis === 'x' ? box.right > window.innerWidth + 1 : box.bottom > window.innerHeight + 1;
        if (past) lost = 'the window';
      }
      if (lost !== null) problems.push(`${describe(element)} cut off (${axis}) by ${lost}`);
    }
    if (problems.length >= 12) break;
  }
  return problems;
}

/** The computed style values the motion and forced-colours checks read. */
export function styleOf(element: ProbeElement): {
  animationName: string;
  transitionDuration: string;
  outlineStyle: string;
} {
  const style = getComputedStyle(element);
  return {
    animationName: style.animationName,
    transitionDuration: style.transitionDuration,
    outlineStyle: style.outlineStyle,
  };
}
