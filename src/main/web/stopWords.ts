/**
 * The last words of `serve`'s stop (serveCommand.ts). What the stop may truthfully say (issue 34 item 8): "Nothing was lost" only once the record's
 * audit head was written and anchored in the keychain (or key file) by the close; otherwise what
 * is at risk, in a sentence.
 */
export function stopAtRisk(audit: { anchorProblem: string | null } | null): string | null {
  if (audit === null) {
    return "The officer's record did not open in this run (see the lines above): nothing of it was written, and nothing of it can be vouched for.";
  }
  if (audit.anchorProblem !== null) {
    return (
      `${audit.anchorProblem} The reviews of this run are written, but the audit log's last entries are not anchored: ` +
      'a deletion of them would not be noticed until the next start anchors the head again.'
    );
  }
  return null;
}
