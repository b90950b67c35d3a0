/**
 * Toasts stand clear of a result panel (`data-result-panel`: a sync's outcome, a scenario's
 * steps, a check's result), as of the focus and dialogs: placed in the layout the page gives
 * them (jsdom has none, so each element's box is set here).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { placeToasts } from '../../../src/renderer/src/components/toastPlacement.ts';

function boxed(element: HTMLElement, box: () => { left: number; top: number; right: number; bottom: number }) {
  element.getBoundingClientRect = () => {
    const { left, top, right, bottom } = box();
    return { left, top, right, bottom, x: left, y: top, width: right - left, height: bottom - top, toJSON: () => ({}) };
  };
  element.getClientRects = () => [element.getBoundingClientRect()] as unknown as DOMRectList;
}

/** A toast layer 300 × 80 at the bottom right (or top right) of a 1280 × 800 window. */
function layer(): HTMLElement {
  const toasts = document.createElement('div');
  toasts.append(document.createElement('div'));
  boxed(toasts, () =>
    toasts.dataset['edge'] === 'top'
      ? { left: 960, top: 20, right: 1260, bottom: 100 }
      : { left: 960, top: 700, right: 1260, bottom: 780 },
  );
  document.body.append(toasts);
  return toasts;
}

function panel(box: { left: number; top: number; right: number; bottom: number }, result: boolean): HTMLElement {
  const element = document.createElement('section');
  if (result) element.dataset['resultPanel'] = '';
  boxed(element, () => box);
  document.body.append(element);
  return element;
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('toast placement', () => {
  it('moves the toasts to the top when a result panel fills the bottom corner', () => {
    panel({ left: 600, top: 500, right: 1280, bottom: 800 }, true);
    expect(placeToasts(layer())).toBe('top');
  });

  it('stays at the bottom over a panel that is not a result', () => {
    panel({ left: 600, top: 500, right: 1280, bottom: 800 }, false);
    expect(placeToasts(layer())).toBe('bottom');
  });

  it('keeps off the focused control before a result panel when it cannot avoid both', () => {
    panel({ left: 600, top: 500, right: 1280, bottom: 800 }, true);
    const button = document.createElement('button');
    boxed(button, () => ({ left: 1000, top: 40, right: 1100, bottom: 70 }));
    document.body.append(button);
    button.focus();
    expect(placeToasts(layer())).toBe('bottom');
  });
});
