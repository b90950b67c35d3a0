/**
 * A box that scrolls sideways or down only when the window is small (a wide table at 200%
 * zoom) must then be reachable by keyboard, or its hidden columns are lost to anyone without
 * a mouse. While its content overflows, the box becomes a Tab stop named as a region (the
 * arrow keys then scroll it); when everything fits it is left out of the Tab order.
 */
import { useLayoutEffect, type RefObject } from 'react';

export function useScrollStop(box: RefObject<HTMLElement | null>, label: () => string): void {
  useLayoutEffect(() => {
    const element = box.current;
    if (element === null) return undefined;
    const update = (): void => {
      // Content larger than the box, on an axis the box scrolls (overflow auto or scroll): a box
      // that clips or lets its content spill cannot be scrolled, so a stop there does nothing
      // (and IBM Equal Access calls it a focusable element with no widget role, issue 38).
      const style = getComputedStyle(element);
      const scrolls = (overflow: string): boolean => overflow === 'auto' || overflow === 'scroll';
      // Overflow no larger than the box's own padding (the padding past the last column) is not
      // scrolling to IBM Equal Access (VisUtil.isElementScrollable): a stop there is an error to it,
      // and what such a box hides is at most a padding's width.
      const pixels = (value: string): number => Number.parseFloat(value) || 0;
      const padX = pixels(style.paddingLeft) + pixels(style.paddingRight);
      const padY = pixels(style.paddingTop) + pixels(style.paddingBottom);
      const overflows =
        (element.scrollWidth - element.clientWidth >= 1 + padX && scrolls(style.overflowX)) ||
        (element.scrollHeight - element.clientHeight >= 1 + padY && scrolls(style.overflowY));
      if (overflows) {
        element.tabIndex = 0;
        element.setAttribute('role', 'region');
        element.setAttribute('aria-label', label());
      } else if (element.hasAttribute('tabindex')) {
        element.removeAttribute('tabindex');
        element.removeAttribute('role');
        element.removeAttribute('aria-label');
      }
    };
    update();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(update);
    observer.observe(element);
    // The content changes size too (rows arriving): watch the first child as well.
    if (element.firstElementChild !== null) observer.observe(element.firstElementChild);
    return () => {
      observer.disconnect();
    };
  });
}
