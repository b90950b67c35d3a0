import { describe, expect, it } from 'vitest';
import { appMenuTemplate } from '../../../src/main/electron/appMenu.ts';
import { devToolsAllowed } from '../../../src/main/electron/devTools.ts';

/** Every role in a menu template, submenus included. */
function rolesOf(items: ReturnType<typeof appMenuTemplate>): string[] {
  return items.flatMap((item) => [
    ...(item.role === undefined ? [] : [item.role]),
    ...(Array.isArray(item.submenu) ? rolesOf(item.submenu) : []),
  ]);
}

describe('DevTools in the packaged app (review L1)', () => {
  it('are off when packaged unless started with --devtools, and on when unpackaged', () => {
    expect(devToolsAllowed(true, ['/opt/Ledgerdesk/ledgerdesk'])).toBe(false);
    expect(devToolsAllowed(true, ['/opt/Ledgerdesk/ledgerdesk', '--devtools'])).toBe(true);
    expect(devToolsAllowed(true, ['/opt/Ledgerdesk/ledgerdesk', '--devtools=1', '--dev-tools'])).toBe(false);
    expect(devToolsAllowed(false, ['electron', '.'])).toBe(true);
  });

  it('leave the menu without Toggle Developer Tools when off', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      expect(rolesOf(appMenuTemplate(platform, false))).not.toContain('toggleDevTools');
      expect(rolesOf(appMenuTemplate(platform, true))).toContain('toggleDevTools');
      expect(rolesOf(appMenuTemplate(platform, false))).toEqual(
        expect.arrayContaining(['fileMenu', 'editMenu', 'windowMenu', 'reload']),
      );
    }
    expect(rolesOf(appMenuTemplate('darwin', false))).toContain('appMenu');
    expect(rolesOf(appMenuTemplate('linux', false))).not.toContain('appMenu');
  });
});
