/** Settings are validated at the edge, merged over defaults, and survive a reopen; the data folder per platform. */
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LISTENER_SETTINGS,
  ListenerSettingsRow,
  patchSettings,
} from '../../../src/main/services/listener/listenerSettings.ts';
import { appDataFolder } from '../../../src/main/cli/common/appDataFolder.ts';
import { migrateListenerTables } from '../../../src/main/services/listener/migrations.ts';

describe('listener settings', () => {
  it('merges a partial retention patch and refuses what is out of range', () => {
    const patched = patchSettings(DEFAULT_LISTENER_SETTINGS, { retention: { maxRequests: 10 }, maxBodyBytes: 2048 });
    expect(patched.retention).toEqual({ ...DEFAULT_LISTENER_SETTINGS.retention, maxRequests: 10 });
    expect(patched.maxBodyBytes).toBe(2048);
    for (const bad of [
      { maxBodyBytes: 0 },
      { port: 70_000 },
      { forwardTo: 'ftp://example.com' },
      { forwardTo: 'not a url' },
      { retention: { maxBytes: 10 } },
      { unknown: true },
    ]) {
      expect(() => patchSettings(DEFAULT_LISTENER_SETTINGS, bad), JSON.stringify(bad)).toThrow();
    }
  });

  it('saves settings and rules per listener, and loads defaults for a new one', () => {
    const database = new DatabaseSync(':memory:');
    migrateListenerTables(database);
    const row = new ListenerSettingsRow(database, 'a');
    const settings = patchSettings(DEFAULT_LISTENER_SETTINGS, { port: 5000, forwardTo: 'http://localhost:3000/x' });
    row.save(settings, [{ id: 'r', action: { kind: 'drop' } }]);
    expect(new ListenerSettingsRow(database, 'a').load()).toEqual({
      settings,
      rules: [{ id: 'r', action: { kind: 'drop' } }],
    });
    expect(new ListenerSettingsRow(database, 'b').load()).toEqual({ settings: DEFAULT_LISTENER_SETTINGS, rules: [] });
    // Nothing secret is ever part of them.
    expect(JSON.stringify(database.prepare('SELECT * FROM listener_settings').all())).not.toMatch(/secret/i);
  });
});

describe('appDataFolder', () => {
  it('is where Electron keeps the app’s user data', () => {
    expect(appDataFolder('linux', {}, '/home/u')).toBe('/home/u/.config/Ledgerdesk');
    expect(appDataFolder('linux', { XDG_CONFIG_HOME: '/x' }, '/home/u')).toBe('/x/Ledgerdesk');
    expect(appDataFolder('darwin', {}, '/Users/u')).toBe('/Users/u/Library/Application Support/Ledgerdesk');
    expect(appDataFolder('win32', { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'C:\\Users\\u')).toMatch(
      /Roaming.Ledgerdesk$/,
    );
  });
});
