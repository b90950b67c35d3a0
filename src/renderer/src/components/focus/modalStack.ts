/**
 * The open modal dialogs, top-most last, and the rules that hold while any is open:
 * - everything else in the page is `inert` (the app and the dialogs beneath the top one), so
 *   neither Tab nor a click nor a screen reader's cursor can reach behind the backdrop;
 * - Tab and Shift+Tab wrap inside the top dialog, and focus that lands outside it is brought back;
 * - Escape closes the top dialog, wherever focus is, unless a control inside used the key first
 *   (a JSON editor releasing Tab, an open native select) and said so with preventDefault;
 * - closing gives focus back to the element that opened the dialog when it is still live, else
 *   to the dialog beneath, else to the screen's heading: never to <body>.
 *
 * Each dialog is drawn in its own layer, a direct child of <body> (a React portal), so "the
 * rest of the page" is simply every other child of <body>. A layer marked
 * `data-modal-exempt` (the toasts' live region) is left alone so announcements still reach
 * screen readers.
 */
import { focusFirstLive, isLive, tabbables } from './focusTargets.ts';

export interface ModalLayer {
  /** The layer's root: a direct child of <body> (the backdrop). */
  root: HTMLElement;
  /** The dialog itself, whose controls Tab cycles through. */
  panel: HTMLElement;
  close: () => void;
}

interface OpenLayer extends ModalLayer {
  opener: HTMLElement | null;
}

const stack: OpenLayer[] = [];
/** The elements this module made inert, so only those are given back. */
const madeInert = new Set<Element>();
let removeListeners: (() => void) | null = null;

function top(): OpenLayer | undefined {
  return stack[stack.length - 1];
}

function applyInert(): void {
  const current = top();
  for (const child of [...document.body.children]) {
    const shouldBeInert = current !== undefined && child !== current.root && !child.hasAttribute('data-modal-exempt');
    if (shouldBeInert && !child.hasAttribute('inert')) {
      child.setAttribute('inert', '');
      madeInert.add(child);
    } else if (!shouldBeInert && madeInert.has(child)) {
      child.removeAttribute('inert');
      madeInert.delete(child);
    }
  }
  for (const element of [...madeInert]) {
    if (!element.isConnected) madeInert.delete(element);
  }
}

/** The element a dialog starts on: the one marked data-autofocus, else its first control, else itself. */
function initialFocus(panel: HTMLElement): HTMLElement {
  const marked = panel.querySelector<HTMLElement>('[data-autofocus]');
  if (isLive(marked)) return marked;
  return tabbables(panel)[0] ?? panel;
}

function onKeyDown(event: KeyboardEvent): void {
  const layer = top();
  if (layer === undefined) return;
  if (event.key === 'Escape') {
    if (event.defaultPrevented) return;
    event.preventDefault();
    event.stopPropagation();
    layer.close();
    return;
  }
  if (event.key !== 'Tab') return;
  const stops = tabbables(layer.panel);
  const first = stops[0];
  const last = stops[stops.length - 1];
  const focused = document.activeElement;
  if (first === undefined || last === undefined) {
    event.preventDefault();
    layer.panel.focus();
  } else if (!layer.panel.contains(focused)) {
    event.preventDefault();
    (event.shiftKey ? last : first).focus();
  } else if (event.shiftKey && (focused === first || focused === layer.panel)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && focused === last) {
    event.preventDefault();
    first.focus();
  }
}

function onFocusIn(event: FocusEvent): void {
  const layer = top();
  if (layer === undefined || !(event.target instanceof Node)) return;
  if (!layer.root.contains(event.target)) initialFocus(layer.panel).focus();
}

function listen(): void {
  if (removeListeners !== null) return;
  // Bubbling, not capture: a control that used Escape itself (preventDefault) keeps it.
  document.addEventListener('keydown', onKeyDown);
  document.addEventListener('focusin', onFocusIn);
  removeListeners = () => {
    document.removeEventListener('keydown', onKeyDown);
    document.removeEventListener('focusin', onFocusIn);
  };
}

/**
 * Opens `layer` on top of the others: the page beneath goes inert and focus moves in.
 * Returns what closes it (idempotent), which gives focus back.
 */
export function openModal(layer: ModalLayer): () => void {
  const focused = document.activeElement;
  const opener = focused instanceof HTMLElement && focused !== document.body ? focused : null;
  const entry: OpenLayer = { ...layer, opener };
  stack.push(entry);
  applyInert();
  listen();
  initialFocus(layer.panel).focus();
  let closed = false;
  return () => {
    if (closed) return;
    closed = true;
    const index = stack.indexOf(entry);
    const wasTop = index === stack.length - 1;
    if (index !== -1) stack.splice(index, 1);
    applyInert();
    if (stack.length === 0) {
      removeListeners?.();
      removeListeners = null;
    }
    // A dialog closed beneath another leaves focus where it is, in the top one.
    if (!wasTop) return;
    const beneath = top();
    focusFirstLive([entry.opener, beneath === undefined ? null : initialFocus(beneath.panel)]);
  };
}
