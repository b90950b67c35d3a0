/** Keyboard helpers: shortcuts never fire while the user types in a field or works a control. */

export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(type);
}

/**
 * Controls that answer Enter or Space themselves: a screen-wide shortcut must leave these
 * keys to them (a list that opened its row on Enter swallowed Export CSV and every link).
 */
const INTERACTIVE = [
  'a[href]',
  'button',
  'input',
  'select',
  'textarea',
  'summary',
  '[contenteditable]:not([contenteditable="false"])',
  ...[
    'button',
    'link',
    'tab',
    'menuitem',
    'option',
    'checkbox',
    'radio',
    'switch',
    'combobox',
    'slider',
    'spinbutton',
    'textbox',
    'searchbox',
    'grid',
    'listbox',
    'tree',
  ].map((role) => `[role="${role}"]`),
].join(',');

function isInteractiveTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  return target.closest(INTERACTIVE) !== null;
}

/**
 * Where a screen's list may take j/k/Enter from outside its grid: focus nowhere (<body>), or on
 * something inside the screen (#screen: its heading, a drawer's text, a JSON view) that does
 * not answer keys itself. Never the sidebar, the top bar, a dialog or a toast.
 */
export function isScreenKeyTarget(target: EventTarget | null): boolean {
  if (target === document.body || target === document.documentElement) return true;
  if (!(target instanceof Element) || isInteractiveTarget(target)) return false;
  return target.closest('#screen') !== null;
}

/** True while a modal dialog (the palette, a confirmation) is open: the page beneath is out of play. */
export function isModalOpen(): boolean {
  return document.querySelector('[role="dialog"][aria-modal="true"], [role="alertdialog"][aria-modal="true"]') !== null;
}

/** "Ctrl+K" on Linux and Windows, "⌘K" on macOS. */
export function isMac(): boolean {
  return /Mac|iPhone|iPad/.test(navigator.userAgent);
}

export function shortcutLabel(key: string): string {
  return isMac() ? `\u2318${key.toUpperCase()}` : `Ctrl+${key.toUpperCase()}`;
}

/**
 * True between the G of a "G then a letter" chord and the letter: a list's own letter keys
 * (c clear on a review list) must leave that letter to the chord (G C goes to Card art).
 */
let chordPending = false;

export function setChordPending(pending: boolean): void {
  chordPending = pending;
}

export function isChordPending(): boolean {
  return chordPending;
}
