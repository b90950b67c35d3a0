/** Keyboard helpers: shortcuts never fire while the user types in a field. */

export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(type);
}

/** "Ctrl+K" on Linux and Windows, "⌘K" on macOS. */
export function isMac(): boolean {
  return /Mac|iPhone|iPad/.test(navigator.userAgent);
}

export function shortcutLabel(key: string): string {
  return isMac() ? `\u2318${key.toUpperCase()}` : `Ctrl+${key.toUpperCase()}`;
}
