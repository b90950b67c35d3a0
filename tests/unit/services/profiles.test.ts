import { describe, expect, it } from 'vitest';
import {
  describeProfile,
  EMBEDDED_SANDBOX_PROFILE_ID,
  profileAttention,
} from '../../../src/main/services/profiles/profile.ts';
import { InMemoryProfileStorage } from '../../../src/main/services/profiles/profileStorage.ts';
import {
  ProductionWriteNotConfirmed,
  ProfileNotFound,
  ProfileRefused,
  Profiles,
  requireWriteConfirmation,
} from '../../../src/main/services/profiles/profiles.ts';
import { SchemaViolation } from '../../../src/shared/bank/index.ts';
import { profileCreateInput } from '../../../src/shared/ipc/domains/profiles.ts';
import { PROFILE_NAME_MAX, baseUrlProblem, isLoopbackHost } from '../../../src/shared/profiles/profileFields.ts';

function profiles(): Profiles {
  return new Profiles(new InMemoryProfileStorage(), () => new Date('2026-01-02T03:04:05Z'));
}

describe('Profiles', () => {
  it('creates the embedded sandbox profile on first use, needing no input', () => {
    const list = profiles().list();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      id: EMBEDDED_SANDBOX_PROFILE_ID,
      kind: 'embedded-sandbox',
      production: false,
      baseUrl: null,
    });
  });

  it('adds remote Basic and Bearer profiles without any secret field', () => {
    const all = profiles();
    const basic = all.addRemote({
      name: 'Staging',
      baseUrl: 'https://sandbox.bank.example/',
      authScheme: 'basic',
      keyId: 'key_1',
    });
    const bearer = all.addRemote({
      name: 'Prod',
      baseUrl: 'https://api.bank.example',
      authScheme: 'bearer',
      production: true,
    });
    expect(basic.baseUrl).toBe('https://sandbox.bank.example');
    expect(bearer).toMatchObject({ authScheme: 'bearer', keyId: null, production: true });
    expect(Object.keys(basic).sort()).toEqual(
      ['authScheme', 'baseUrl', 'createdAt', 'id', 'keyId', 'kind', 'name', 'production', 'updatedAt'].sort(),
    );
    expect(all.find('staging').id).toBe(basic.id);
    expect(all.list().map((entry) => entry.name)).toEqual(['Local sandbox', 'Staging', 'Prod']);
  });

  it('refuses bad input with the field named', () => {
    const all = profiles();
    expect(() => all.addRemote({ name: 'X', baseUrl: 'ftp://bank', authScheme: 'basic', keyId: 'k' })).toThrow(
      /baseUrl: must be an absolute http/,
    );
    expect(() => all.addRemote({ name: 'X', baseUrl: 'https://bank', authScheme: 'basic' })).toThrow(
      /keyId: is required when authScheme is basic/,
    );
    expect(() => all.addRemote({ name: '', baseUrl: 'https://bank', authScheme: 'bearer' })).toThrow(SchemaViolation);
    all.addRemote({ name: 'X', baseUrl: 'https://bank', authScheme: 'bearer' });
    expect(() => all.addRemote({ name: 'x', baseUrl: 'https://bank', authScheme: 'bearer' })).toThrow(ProfileRefused);
  });

  it('takes every name the IPC contract takes: one shared rule (parentheses, ampersands, any script)', () => {
    const all = profiles();
    for (const name of ['Acme (staging)', 'R&D – Sandbox', 'Zürich Bank #2', '  Trimmed  ']) {
      const added = all.addRemote({ name, baseUrl: 'https://bank.example', authScheme: 'bearer' });
      expect(added.name).toBe(name.trim());
      expect(
        profileCreateInput.safeParse({ name, baseUrl: 'https://bank.example', authScheme: 'bearer' }).success,
      ).toBe(true);
    }
    expect(all.update('Acme (staging)', { name: 'Acme (prod)' }).name).toBe('Acme (prod)');
    for (const name of ['(leading punctuation)', 'two\nlines', 'x'.repeat(PROFILE_NAME_MAX + 1), '   ']) {
      expect(() => all.addRemote({ name, baseUrl: 'https://bank.example', authScheme: 'bearer' })).toThrow(
        SchemaViolation,
      );
      expect(
        profileCreateInput.safeParse({ name, baseUrl: 'https://bank.example', authScheme: 'bearer' }).success,
      ).toBe(false);
    }
  });

  it('names the field of a refused write, for the form to show it there', () => {
    const all = profiles();
    const refusal = (write: () => unknown): unknown => {
      try {
        write();
      } catch (error) {
        return error;
      }
      throw new Error('the write was not refused');
    };
    expect(refusal(() => all.addRemote({ name: '(x)', baseUrl: 'https://bank', authScheme: 'bearer' }))).toMatchObject({
      name: 'SchemaViolation',
      field: 'name',
    });
    expect(
      refusal(() => all.addRemote({ name: 'X', baseUrl: 'https://bank/?q=1', authScheme: 'bearer' })),
    ).toMatchObject({ field: 'baseUrl' });
    all.addRemote({ name: 'Taken', baseUrl: 'https://bank', authScheme: 'bearer' });
    expect(
      refusal(() => all.addRemote({ name: 'taken', baseUrl: 'https://bank', authScheme: 'bearer' })),
    ).toMatchObject({
      name: 'ProfileRefused',
      field: 'name',
    });
  });

  it('updates and removes remote profiles, never the embedded sandbox', () => {
    const all = profiles();
    const added = all.addRemote({ name: 'Staging', baseUrl: 'https://a.example', authScheme: 'basic', keyId: 'key_1' });
    expect(all.update('Staging', { baseUrl: 'https://b.example', production: true })).toMatchObject({
      baseUrl: 'https://b.example',
      production: true,
    });
    expect(() => all.update(EMBEDDED_SANDBOX_PROFILE_ID, { baseUrl: 'https://c.example' })).toThrow(ProfileRefused);
    expect(() => all.remove(EMBEDDED_SANDBOX_PROFILE_ID)).toThrow(/cannot be removed/);
    expect(all.remove(added.id).name).toBe('Staging');
    expect(() => all.find('Staging')).toThrow(ProfileNotFound);
  });

  it('requires an explicit confirmation for every write against a production profile', () => {
    const all = profiles();
    const production = all.addRemote({
      name: 'Prod',
      baseUrl: 'https://api.example',
      authScheme: 'bearer',
      production: true,
    });
    const staging = all.addRemote({ name: 'Stage', baseUrl: 'https://s.example', authScheme: 'bearer' });
    expect(() => {
      requireWriteConfirmation(production, 'document.create', undefined);
    }).toThrow(ProductionWriteNotConfirmed);
    expect(() => {
      requireWriteConfirmation(production, 'document.create', false);
    }).toThrow(/confirm "document.create"/);
    expect(() => {
      requireWriteConfirmation(production, 'document.create', true);
    }).not.toThrow();
    expect(() => {
      requireWriteConfirmation(staging, 'document.create', undefined);
    }).not.toThrow();
  });

  it('says clearly when the stored profiles are damaged', () => {
    const storage = new InMemoryProfileStorage();
    storage.set('profiles', [{ id: 'x', name: 'Broken' }]);
    expect(() => new Profiles(storage).list()).toThrow(/stored profiles are damaged \(\[0\]\.kind/);
  });

  it('needs https for a remote bank: plain http only to loopback', () => {
    for (const fine of [
      'https://bank.example',
      'https://bank.example:8443/v1',
      'http://127.0.0.1:4010',
      'http://127.9.8.7',
      'http://localhost:3000/api',
      'http://LOCALHOST',
      'http://[::1]:8080',
      'http://127.1:9000',
    ]) {
      expect(baseUrlProblem(fine), fine).toBeNull();
    }
    for (const [refused, problem] of [
      ['http://bank.example', /must use https:\/\/ for a remote bank/],
      ['http://10.0.0.5:8080', /must use https/],
      ['http://[::2]', /must use https/],
      ['http://localhost.evil.example', /must use https/],
      ['http://127.0.0.1.nip.io', /must use https/],
      ['https://user:pass@bank.example', /must not contain a user name or password/],
      ['https://user@bank.example', /must not contain a user name or password/],
      ['http://key:secret@127.0.0.1:4010', /must not contain a user name or password/],
      ['https://bank.example/?x=1', /query/],
      ['ftp://bank.example', /absolute https/],
      ['bank.example', /absolute https/],
    ] as const) {
      expect(baseUrlProblem(refused), refused).toMatch(problem);
    }
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
    const all = profiles();
    expect(() => all.addRemote({ name: 'Clear', baseUrl: 'http://bank.example', authScheme: 'bearer' })).toThrow(
      /baseUrl: must use https:\/\/ for a remote bank/,
    );
    const added = all.addRemote({ name: 'Ok', baseUrl: 'https://bank.example', authScheme: 'bearer' });
    expect(() => all.update(added.id, { baseUrl: 'https://me:pw@bank.example' })).toThrow(/user name or password/);
    expect(all.find(added.id).baseUrl).toBe('https://bank.example');
  });

  it('opens profiles saved under the older rule as needing attention, untouched', () => {
    const storage = new InMemoryProfileStorage();
    const saved = (name: string, baseUrl: string) => ({
      id: `prof_${name}`,
      name,
      kind: 'remote',
      baseUrl,
      authScheme: 'bearer',
      keyId: null,
      production: false,
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
    });
    storage.set('profiles', [
      saved('Clear', 'http://bank.example'),
      saved('Userinfo', 'https://key:secret@bank.example'),
      saved('Fine', 'https://bank.example'),
    ]);
    const all = new Profiles(storage);
    const byName = (name: string) => all.find(name);
    expect(profileAttention(byName('Clear'))).toMatch(/Profile Clear needs attention: its base URL must use https/);
    expect(profileAttention(byName('Userinfo'))).toMatch(/user name or password/);
    expect(profileAttention(byName('Userinfo'))).not.toContain('secret@');
    expect(profileAttention(byName('Fine'))).toBeNull();
    expect(profileAttention(byName('Local sandbox'))).toBeNull();
    // Not silently fixed: the saved address is still what it was.
    expect(byName('Clear').baseUrl).toBe('http://bank.example');
    const fixed = all.update('Clear', { baseUrl: 'https://bank.example' });
    expect(profileAttention(fixed)).toBeNull();
  });

  it('lets only the embedded sandbox answer lean (development), and says so when described', () => {
    const all = profiles();
    const lean = all.update(EMBEDDED_SANDBOX_PROFILE_ID, { lean: true });
    expect(lean.lean).toBe(true);
    expect(describeProfile(lean)).toBe("Local sandbox (embedded sandbox, lean: the real service's shapes)");
    expect(all.update(EMBEDDED_SANDBOX_PROFILE_ID, { lean: false }).lean).toBe(false);
    const remote = all.addRemote({
      name: 'Staging',
      baseUrl: 'https://sandbox.bank.example',
      authScheme: 'basic',
      keyId: 'key_1',
    });
    expect(() => all.update(remote.id, { lean: true })).toThrow(ProfileRefused);
  });

  it('records and clears why a secret was dropped', () => {
    const all = profiles();
    const added = all.addRemote({ name: 'Ok', baseUrl: 'https://bank.example', authScheme: 'bearer' });
    expect(all.setSecretDropped(added.id, 'its address moved').secretDropped).toBe('its address moved');
    expect(all.find(added.id).secretDropped).toBe('its address moved');
    expect('secretDropped' in all.setSecretDropped(added.id, null)).toBe(false);
  });
});
