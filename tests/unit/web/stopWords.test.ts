/**
 * Issue 34 item 8: the stop says "Nothing was lost" (stopAtRisk null) only when the record opened
 * and its audit head was anchored by the close; otherwise a sentence says what is at risk.
 */
import { describe, expect, it } from 'vitest';
import { stopAtRisk } from '../../../src/main/web/stopWords.ts';

describe("serve's last words", () => {
  it('claims nothing was lost only once the head is anchored', () => {
    expect(stopAtRisk({ anchorProblem: null })).toBeNull();
  });

  it('says what is at risk when the head could not be anchored, with why', () => {
    const words = stopAtRisk({ anchorProblem: "The audit log's head could not be written to the keychain: locked." });
    expect(words).toBe(
      "The audit log's head could not be written to the keychain: locked. The reviews of this run are written, but the audit " +
        "log's last entries are not anchored: a deletion of them would not be noticed until the next start anchors the head again.",
    );
  });

  it('says nothing of the record can be vouched for when it never opened', () => {
    expect(stopAtRisk(null)).toMatch(/^The officer's record did not open in this run/);
  });
});
