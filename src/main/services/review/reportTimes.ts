/**
 * Times as the review report prints them (issue 38): in the time zone of the machine that made
 * it, each with its zone ("2026-12-01 20:59:17 UTC+1"), never the bank's raw ISO stamps. A zone
 * is chosen once per report and said at its top, so every time in it reads the same way.
 */

export interface ReportClock {
  /** The IANA zone the report's times are in ("Europe/Paris", "UTC"). */
  zone: string;
  /** "2026-12-01 20:59:17 UTC+1"; a stamp that is not a time is printed as received. */
  stamp: (iso: string | null) => string;
  /** "20:59 UTC+1": the local time of a stamp (a transaction's, beside its bank date). */
  time: (iso: string | null) => string;
  /** "2026-12-01": the local date of a stamp. */
  date: (iso: string | null) => string;
}

interface Parts {
  date: string;
  time: string;
  seconds: string;
  zone: string;
}

/** The machine's own zone (the app's and the command line's), UTC when it has none. */
export function machineZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function reportClock(zone: string = machineZone()): ReportClock {
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'shortOffset',
  });
  const partsOf = (iso: string | null): Parts | null => {
    if (iso === null || iso === '') return null;
    const moment = new Date(iso);
    if (Number.isNaN(moment.getTime())) return null;
    const parts: Record<string, string> = Object.fromEntries(
      format.formatToParts(moment).map((part) => [part.type, part.value]),
    );
    // "GMT+1" as "UTC+1", and plain "GMT" as "UTC": the offset from UTC is what a reader needs.
    const offset = (parts['timeZoneName'] ?? 'GMT').replace(/^GMT/, 'UTC');
    const part = (name: string): string => parts[name] ?? '';
    return {
      date: `${part('year')}-${part('month')}-${part('day')}`,
      time: `${part('hour')}:${part('minute')}`,
      seconds: part('second'),
      zone: offset === 'UTC+0' ? 'UTC' : offset,
    };
  };
  return {
    zone,
    stamp: (iso) => {
      const parts = partsOf(iso);
      return parts === null ? (iso ?? '') : `${parts.date} ${parts.time}:${parts.seconds} ${parts.zone}`;
    },
    time: (iso) => {
      const parts = partsOf(iso);
      return parts === null ? '' : `${parts.time} ${parts.zone}`;
    },
    date: (iso) => partsOf(iso)?.date ?? '',
  };
}
