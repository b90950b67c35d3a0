/**
 * An account application's row in the applications grid, found by its id. The row leads with
 * who applied (issue 38: names first); the id stays in the applicant cell's tooltip
 * ("Application aact_…") and in the optional "Application id" column, so a test that knows
 * only the id finds the row by that tooltip, not by the row's text.
 */
import type { Locator } from '@playwright/test';

export function applicationRow(grid: Locator, applicationId: string): Locator {
  return grid.locator('.vtable-row', { has: grid.page().locator(`[title="Application ${applicationId}"]`) });
}
