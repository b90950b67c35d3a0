/** Timestamps in the forms of spec §2.1, from a clock counted in microseconds since the epoch. */

/** `YYYY-MM-DDThh:mm:ssZ` */
export function secondsTimestampOf(micros: number): string {
  return new Date(Math.floor(micros / 1000)).toISOString().slice(0, 19) + 'Z';
}

/** `YYYY-MM-DDThh:mm:ss.SSSZ` or `...SSSSSSZ`, as the source data gives it. */
export function preciseTimestampOf(micros: number, precision: 'milliseconds' | 'microseconds'): string {
  const seconds = new Date(Math.floor(micros / 1000)).toISOString().slice(0, 19);
  const fraction = String(micros % 1_000_000).padStart(6, '0');
  return `${seconds}.${precision === 'milliseconds' ? fraction.slice(0, 3) : fraction}Z`;
}

/** The calendar date of an instant seen at a fixed UTC offset (hours). */
export function dateAt(micros: number, offsetHours: number): string {
  return new Date(Math.floor(micros / 1000) + offsetHours * 3_600_000).toISOString().slice(0, 10);
}

export function microsOf(date: Date): number {
  return date.getTime() * 1000;
}

/** Microseconds at 00:00 UTC of a YYYY-MM-DD date. */
export function microsOfDate(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) * 1000;
}
