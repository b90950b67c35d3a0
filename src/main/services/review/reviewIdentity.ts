/**
 * The identities a review and a step of its history are sealed under (sealing.ts: the row's
 * identity is the seal's associated data, so a body moved to another row does not open). Shared
 * by the reviews table and the record's move out of the cache (record/recordReseal.ts).
 */
export function reviewIdentity(profileId: string, kind: string, ref: string): string {
  return `review\u0000${profileId}\u0000${kind}\u0000${ref}`;
}

export function stepIdentity(profileId: string, kind: string, ref: string, version: number): string {
  return `review_history\u0000${profileId}\u0000${kind}\u0000${ref}\u0000${String(version)}`;
}
