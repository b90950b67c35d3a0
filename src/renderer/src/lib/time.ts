/** Times for people: "as of 3 min ago", "2024-01-31 12:00:05 UTC". */

/** "just now", "42 s ago", "3 min ago", "5 h ago", "2 d ago" (or "never" when null). */
export function ageOf(iso: string | null, now: number = Date.now()): string {
  if (iso === null) return 'never';
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} d ago`;
}

/** `2024-01-31T12:00:05Z` → `2024-01-31 12:00:05 UTC`; other strings unchanged. */
export function formatTimestamp(iso: string | null | undefined): string {
  if (iso === null || iso === undefined || iso === '') return '—';
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(\.\d+)?Z$/.exec(iso);
  if (match === null) return iso;
  return `${match[1] ?? ''} ${match[2] ?? ''} UTC`;
}

/** Seconds as "12 s", "3 min 4 s", "1 h 2 min"; null as "—". */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole} s`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes} min ${whole % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A whole number with thousands separators (counts, rates). */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** Bytes as "12 KB", "3.4 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit] ?? 'TB'}`;
}
