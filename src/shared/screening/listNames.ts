/**
 * How a list and its version read to an officer ("OFAC SDN of 2025-03-14"), the same on the
 * command line and in Settings → Screening.
 */
import type { ListSource } from './listEntry.ts';

const SOURCE_NAMES: Readonly<Record<ListSource, string>> = {
  'ofac-sdn': 'OFAC SDN',
  'ofac-consolidated': 'OFAC Consolidated',
  opensanctions: 'OpenSanctions',
};

export function listSourceName(source: ListSource): string {
  return SOURCE_NAMES[source];
}

/** "OFAC SDN of 2025-03-14", or "… of an unknown date" (a CSV set imported without --published). */
export function listVersionName(version: { source: ListSource; publishedAt: string | null }): string {
  return `${listSourceName(version.source)} of ${version.publishedAt ?? 'an unknown date'}`;
}

/** The first twelve hex digits of a digest, as the officer compares it with OFAC's published one. */
export function shortDigest(digest: string): string {
  return `${digest.slice(0, 12)}…`;
}
