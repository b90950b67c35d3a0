/**
 * A screen state the e2e suite stops at: its picture under test-results/screens/ (looked at by
 * a person, in light and dark) and the accessibility gate over it. Every spec shoots through
 * this, so every state it pictures is also checked by axe.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expectAccessible } from './a11y.ts';

export const SCREENS_FOLDER = join(process.cwd(), 'test-results', 'screens');

export async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENS_FOLDER, { recursive: true });
  // Let spinners and toasts settle so the picture shows the screen, not its transition.
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SCREENS_FOLDER, `${name}.png`) });
  await expectAccessible(page, name);
}
