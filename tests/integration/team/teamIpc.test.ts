/**
 * The `team` domain of the IPC contract through the real router and the app's services (as the
 * window calls it): solo until joined, then join with an invite, act, queues, history with the
 * note opened, verify; bad input refused by the contract before any handler runs.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../../src/main/ipc/routerCore.ts';
import type { RunningServices } from '../../../src/main/app/services.ts';
import type { LedgerdeskApi } from '../../../src/shared/ipc/bridge.ts';
import { startTestServices, windowApi } from '../../support/testServices.ts';
import { createTestDatabase, initTeam, type Laptop, laptopOf, uniqueLogin } from '../../support/team/teamDatabase.ts';

const OWN_WINDOW = 1;
let services: RunningServices;
let api: LedgerdeskApi;
let bob: Laptop;
let invite: string;
const names = { alice: uniqueLogin('alice'), bob: uniqueLogin('bob') };

beforeAll(async () => {
  const db = await createTestDatabase();
  // Bob founds the team and invites alice as a second lead: the window joins as alice.
  const report = await initTeam(db, 'ipc-team', [names.bob]);
  bob = await laptopOf(report, names.bob);
  invite = (await bob.session.invite(names.alice, 'lead', report.outFolder)).file;
  services = await startTestServices(mkdtempSync(join(tmpdir(), 'ledgerdesk-team-ipc-')));
  const router = createRouter({
    handlers: services.handlers,
    senderPolicy: { isOwnWindow: (id) => id === OWN_WINDOW, allowedOrigins: ['app://ledgerdesk'] },
    knownSecrets: () => services.knownSecrets(),
  });
  api = windowApi(router, OWN_WINDOW);
});

afterAll(async () => {
  await services.stop();
  await bob.session.close();
});

describe('team over IPC', () => {
  it('is solo until joined; joins, acts, reads its queues and verifies', async () => {
    expect(await api.team.status({})).toMatchObject({ joined: false, workspace: null });
    await expect(api.team.queues({})).rejects.toMatchObject({ code: 'not_available' });
    // A profile this laptop does not have is refused by name, and nothing is joined.
    await expect(api.team.join({ inviteFile: invite, profileId: 'prof_not_here' })).rejects.toMatchObject({
      message: expect.stringContaining('prof_not_here') as unknown,
    });
    expect(await api.team.status({})).toMatchObject({ joined: false });
    // The window joins in the profile it is showing: the workspace maps to it.
    const { activeProfileId } = await api.profiles.list();
    const joined = await api.team.join({ inviteFile: invite, profileId: activeProfileId ?? undefined });
    expect(joined).toMatchObject({ joined: true, workspace: 'ipc-team', login: names.alice, role: 'lead' });

    await bob.session.desk.act({ kind: 'application', ref: 'app_7', action: 'propose', disposition: 'escalated' });
    await bob.session.synchronise();
    await api.team.sync({});
    const proposed = await api.team.act({
      kind: 'application',
      ref: 'app_7',
      action: 'propose',
      disposition: 'closed',
      note: 'bank confirmed the applicant',
    });
    expect(proposed).toMatchObject({ state: 'ok', detail: null });
    await bob.session.synchronise();
    expect(bob.session.desk.queues().awaitingMyApproval.map((review) => review.ref)).toEqual(['app_7']);

    const self = await api.team.act({ kind: 'application', ref: 'app_7', action: 'approve' });
    expect(self).toMatchObject({
      state: 'refused',
      detail: 'four-eyes: the officer who proposed a disposition cannot approve it',
    });
    const queues = await api.team.queues({});
    expect(queues.conflicts).toMatchObject([{ ref: 'app_7', action: 'approve', state: 'refused' }]);
    expect(await api.team.acknowledge({ eventId: queues.conflicts[0]?.eventId ?? '' })).toEqual({ acknowledged: true });

    const history = await api.team.history({ kind: 'application', ref: 'app_7' });
    expect(history.events.map((event) => [event.officer, event.action, event.result, event.note])).toEqual([
      [names.bob, 'propose', 'ok', null],
      [names.alice, 'propose', 'ok', 'bank confirmed the applicant'],
      [names.alice, 'approve', 'refused', null],
    ]);
    expect(await api.team.verify({})).toMatchObject({ ok: true, firstBad: null });
    const members = await api.team.members({});
    expect(members.rows.map((member) => [member.login, member.notice, member.countsAs])).toEqual([
      [names.alice, 'self', names.bob],
      [names.bob, 'new', names.bob],
    ]);
    expect(await api.team.status({})).toMatchObject({ newMembers: 1, membershipSigned: true });
    // The window acknowledges bob after comparing his fingerprint: a signed confirmation.
    const fingerprint = members.rows[1]?.signingKey ?? '';
    await expect(api.team.acknowledgeMember({ login: names.bob, fingerprint: 'abcd' })).rejects.toMatchObject({
      message: expect.stringContaining(`That is not ${names.bob}'s fingerprint`) as unknown,
    });
    expect(await api.team.acknowledgeMember({ login: names.bob, fingerprint })).toEqual({
      countsAs: names.bob,
      confirmed: true,
    });
    expect((await api.team.members({})).rows[1]).toMatchObject({ login: names.bob, notice: 'acknowledged' });
    expect(await api.team.status({})).toMatchObject({ newMembers: 0 });
  });

  it("clearing the profile's cache drops the team mirror only; the next sync restores and verifies it", async () => {
    const { activeProfileId } = await api.profiles.list();
    expect(activeProfileId).not.toBeNull();
    // The window pushes an action at once when the server answers.
    expect(await api.team.act({ kind: 'application', ref: 'app_8', action: 'claim' })).toMatchObject({ state: 'ok' });
    const before = await api.team.status({});
    expect(before.head?.seq).toBeGreaterThan(0);
    expect(await api.cache.clear({ profileId: activeProfileId ?? '' })).toEqual({ cleared: true });
    const cleared = await api.team.status({});
    expect(cleared).toMatchObject({ joined: true, workspace: 'ipc-team', head: { seq: 0 } });
    expect((await api.team.queues({})).assignedToMe).toEqual([]);
    const synced = await api.team.sync({});
    expect(synced).toMatchObject({ problem: null });
    expect(synced.pulled).toBe(before.head?.seq);
    expect(synced.status.head).toEqual(before.head);
    expect((await api.team.queues({})).assignedToMe.map((review) => review.ref)).toEqual(['app_8']);
    expect((await api.team.history({ kind: 'application', ref: 'app_7' })).events).toHaveLength(3);
    // What this officer acknowledged is its own, not the mirror's: it survives the cleared cache.
    expect((await api.team.members({})).rows[1]).toMatchObject({ login: names.bob, notice: 'acknowledged' });
    expect(await api.team.verify({})).toMatchObject({ ok: true, firstBad: null });
  });

  it('refuses bad input before a handler sees it', async () => {
    await expect(api.team.act({ kind: 'application', ref: '', action: 'claim' })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(
      api.team.act({ kind: 'application', ref: 'x', action: 'propose', disposition: 'cleared', extra: true } as never),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(api.team.act({ kind: 'application', ref: 'x', action: 'propose' })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(api.team.acknowledge({ eventId: 'not-a-uuid' })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(api.team.queues({ limit: 100_000 })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(api.team.setPolicy({ rules: ['flagged>unreviewed'] })).rejects.toMatchObject({
      code: 'invalid_input',
    });
  });

  it('reads and (as a lead) changes the four-eyes policy; a weaker one waits; recorded in the audit log', async () => {
    const defaults = ['escalated>cleared', 'escalated>closed', 'flagged>cleared'];
    expect(await api.team.policy({})).toEqual({ workspace: 'ipc-team', rules: defaults, pending: null, signed: true });
    const stricter = await api.team.setPolicy({ rules: [...defaults, 'unreviewed>cleared'] });
    expect(stricter).toMatchObject({ workspace: 'ipc-team', outcome: 'in-force', pending: null });
    const weaker = await api.team.setPolicy({ rules: ['flagged>cleared'] });
    expect(weaker).toMatchObject({ outcome: 'pending', rules: [...defaults, 'unreviewed>cleared'] });
    expect((await api.team.policy({})).pending).toMatchObject({ rules: ['flagged>cleared'], by: names.alice });
    // The proposer cannot approve it; a lead withdraws it.
    await expect(api.team.decidePolicy({ decision: 'approve' })).rejects.toMatchObject({
      message: expect.stringContaining('a second lead approves it') as unknown,
    });
    expect(await api.team.decidePolicy({ decision: 'reject' })).toMatchObject({ pending: null });
    const entries = await api.audit.list({ action: 'team.policy' });
    expect(entries.rows.map((entry) => [entry.action, entry.target, entry.result])).toEqual([
      ['team.policy', 'ipc-team', 'ok'],
      ['team.policy', 'ipc-team', 'ok'],
    ]);
  });
});
