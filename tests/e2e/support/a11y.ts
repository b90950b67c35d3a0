/**
 * The accessibility gate of the e2e suite: axe-core (pinned: axe-core and @axe-core/playwright
 * in package.json) over the whole page as it is now, with the WCAG 2.0 and 2.1 A/AA rules and
 * axe's best practices. Any critical or serious violation fails the test, named by rule, impact,
 * theme, state and the CSS path of each failing element, so the failure says what to fix.
 * Moderate and minor findings do not fail the gate (the audit found none).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import type { Result } from 'axe-core';

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] as const;

const FAILING_IMPACTS = new Set(['critical', 'serious']);

/** Elements named per rule; the rest are counted, so one token's failure stays readable. */
const NODES_NAMED = 6;

/** One line a failing rule: `color-contrast (serious, 40 elements): .toolbar-label [why]; …`. */
function describe(violation: Result): string {
  const nodes = violation.nodes.slice(0, NODES_NAMED).map((node) => {
    const target = node.target.map(String).join(' >> ');
    // axe's own one-line reason ("Element has insufficient color contrast of 3.05 …").
    const why = node.failureSummary?.split('\n').find((line) => line.trim() !== '' && !line.startsWith('Fix'));
    return why === undefined ? target : `${target} [${why.trim()}]`;
  });
  const more = violation.nodes.length - nodes.length;
  return `${violation.id} (${violation.impact ?? 'unknown'}, ${String(violation.nodes.length)} elements): ${nodes.join('; ')}${more > 0 ? `; and ${String(more)} more` : ''}`;
}

/** The critical and serious axe violations of the page as readable lines (empty when none). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags([...AXE_TAGS]).analyze();
  return results.violations.filter((violation) => FAILING_IMPACTS.has(violation.impact ?? '')).map(describe);
}

/**
 * Fails the test on any critical or serious violation in the page's current state. `state`
 * names what is on screen ("Pending transactions — drawer open"); the theme is read from the
 * page, so the message says which of the two failed.
 */
export async function expectAccessible(page: Page, state: string): Promise<void> {
  const theme = (await page.locator('html').getAttribute('data-theme')) ?? 'unset';
  const problems = await seriousViolations(page);
  expect(problems, `axe: critical or serious violations in "${state}" (${theme} theme)`).toEqual([]);
}
