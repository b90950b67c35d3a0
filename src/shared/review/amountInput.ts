/**
 * An amount typed by a person ("1000", "1,250.5", "-300") as whole cents of either sign: what
 * the queue's amount filters compare with a transaction's absolute amount. Null when the text
 * is not an amount (the caller says so in its own words).
 */
export function centsOfTyped(text: string): number | null {
  const match = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text.trim().replaceAll(',', '').replace(/^[-+]/, ''));
  if (match === null) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
