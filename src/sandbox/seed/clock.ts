/**
 * Timestamps in the forms of spec §2.1, from a clock counted in microseconds since the epoch.
 * The seed formats millions of them, so the calendar date is computed once per day (cached)
 * and the time of day by arithmetic, instead of a Date and toISOString per call.
 */
const MICROS_PER_DAY = 86_400_000_000;

const datesByDay = new Map<number, string>();
const DATES_KEPT = 4096;

function calendarDateOfDay(day: number): string {
  let date = datesByDay.get(day);
  if (date === undefined) {
    if (datesByDay.size >= DATES_KEPT) datesByDay.clear();
    date = new Date(day * 86_400_000).toISOString().slice(0, 10);
    datesByDay.set(day, date);
  }
  return date;
}

function two(value: number): string {
  return value < 10 ? `0${String(value)}` : String(value);
}

/** `YYYY-MM-DDThh:mm:ss` of an instant, UTC. */
function secondsOf(micros: number): string {
  const day = Math.floor(micros / MICROS_PER_DAY);
  const secondOfDay = Math.floor((micros - day * MICROS_PER_DAY) / 1_000_000);
  const hours = Math.floor(secondOfDay / 3600);
  const minutes = Math.floor((secondOfDay % 3600) / 60);
  return `${calendarDateOfDay(day)}T${two(hours)}:${two(minutes)}:${two(secondOfDay % 60)}`;
}

/** `YYYY-MM-DDThh:mm:ssZ` */
export function secondsTimestampOf(micros: number): string {
  return `${secondsOf(micros)}Z`;
}

/** `YYYY-MM-DDThh:mm:ss.SSSZ` or `...SSSSSSZ`, as the source data gives it. */
export function preciseTimestampOf(micros: number, precision: 'milliseconds' | 'microseconds'): string {
  const fraction = String(((micros % 1_000_000) + 1_000_000) % 1_000_000).padStart(6, '0');
  return `${secondsOf(micros)}.${precision === 'milliseconds' ? fraction.slice(0, 3) : fraction}Z`;
}

/** The calendar date of an instant seen at a fixed UTC offset (hours). */
export function dateAt(micros: number, offsetHours: number): string {
  return calendarDateOfDay(Math.floor((micros + offsetHours * 3_600_000_000) / MICROS_PER_DAY));
}

export function microsOf(date: Date): number {
  return date.getTime() * 1000;
}

/** Microseconds at 00:00 UTC of a YYYY-MM-DD date. */
export function microsOfDate(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) * 1000;
}
