/**
 * A score's parts in words, for the officer (the command line and Settings → Screening say the
 * same): the names compared, each token pair with its similarity, what was left unpaired, the
 * names compared written as one word, and each adjustment with its change.
 */
import type { ScoreExplanation } from './scoring.ts';

export function explanationWords(explanation: ScoreExplanation): string[] {
  const { name } = explanation;
  const pairs = name.pairs.map(
    (pair) =>
      `${pair.query} ~ ${pair.listed} ${pair.similarity.toFixed(2)}${pair.by === 'skeleton' ? ' (same sound)' : ''}`,
  );
  const words = [`"${name.queryName}" against "${name.listedName}" (${name.listedType}): ${pairs.join(', ')}`];
  if (name.unpaired.length > 0)
    words.push(
      `unpaired: ${name.unpaired.map((token) => `${token.token} (${token.side === 'query' ? 'applicant' : 'list'})`).join(', ')}`,
    );
  if (name.joinedSimilarity !== null) words.push(`written as one word: ${name.joinedSimilarity.toFixed(2)}`);
  for (const adjustment of explanation.adjustments) {
    const sign = adjustment.change >= 0 ? '+' : '−';
    words.push(`${adjustment.reason}: ${sign}${Math.abs(adjustment.change).toFixed(2)}`);
  }
  return words;
}
