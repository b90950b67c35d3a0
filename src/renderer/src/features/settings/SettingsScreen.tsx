/**
 * Settings: profiles (add, edit, delete, test, credential status with keychain diagnostics),
 * the offline cache, the listener's defaults, the audit log, and the theme.
 */
import { useEffect, useState } from 'react';
import type { AuditEntry, Profile } from '../../../../shared/ipc/index.ts';
import { Badge, StatusBadge } from '../../components/Badge.tsx';
import { Button } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { Properties } from '../../components/Drawer.tsx';
import { timeColumn } from '../../components/list/columns.tsx';
import { ListScreen, type ListDefinition } from '../../components/list/ListScreen.tsx';
import { TabPanel, Tabs } from '../../components/Tabs.tsx';
import { Page, PageHeader, Panel } from '../../components/Page.tsx';
import { ErrorState, LoadingState } from '../../components/States.tsx';
import { type Column } from '../../components/VirtualTable.tsx';
import { api } from '../../lib/api.ts';
import { formatBytes } from '../../lib/time.ts';
import { useProfilesStore } from '../../stores/profiles.ts';
import { confirmProfileChange } from './profileChangeConfirm.ts';
import { toast } from '../../stores/toasts.ts';
import { ListenerSetup } from '../listener/ListenerSetup.tsx';
import { useListenerStore } from '../listener/store.ts';
import { ReviewSettings } from '../review/ReviewSettings.tsx';
import { TeamSettings } from '../team/TeamSettings.tsx';
import { ExportUnmaskingPanel } from '../applicants/ExportUnmaskingPanel.tsx';
import { ThemeChoice } from './ThemeChoice.tsx';
import { AuditChainPanel } from './AuditChainPanel.tsx';
import { BankCompatibilityPanel } from './BankCompatibilityPanel.tsx';
import { ProfileForm } from './ProfileForm.tsx';
import { ProfileNetworkForm } from './ProfileNetworkForm.tsx';
import { SandboxBankPanel } from './SandboxBankPanel.tsx';
import { RecordPanel } from './RecordPanel.tsx';
import { ScreeningPanel } from './ScreeningPanel.tsx';
import { installCredentialEvents, useSettingsStore, type SettingsTab } from './store.ts';

/** A sentence under a cell (why a profile waits, why a test failed): wrapped, so the table keeps its width. */
const WRAPPED_NOTE = { whiteSpace: 'normal', maxWidth: 260 } as const;

const TABS: { id: SettingsTab; label: string }[] = [
  { id: 'profiles', label: 'Profiles' },
  { id: 'cache', label: 'Cache' },
  { id: 'record', label: 'Record' },
  { id: 'screening', label: 'Screening' },
  { id: 'listener', label: 'Listener defaults' },
  { id: 'audit', label: 'Audit log' },
  { id: 'review', label: 'Review' },
  { id: 'team', label: 'Team' },
  { id: 'appearance', label: 'Appearance' },
];

export function SettingsScreen() {
  const tab = useSettingsStore((state) => state.tab);
  const setTab = useSettingsStore((state) => state.setTab);
  useEffect(() => installCredentialEvents(), []);
  return (
    <Page>
      <PageHeader
        title="Settings"
        description="Profiles and their credentials, the offline cache, the listener and the audit log."
      />
      <Tabs label="Settings" idPrefix="settings" tabs={TABS} selected={tab} onSelect={setTab} />
      <TabPanel idPrefix="settings" tab={tab}>
        {tab === 'profiles' ? <ProfilesTab /> : null}
        {tab === 'cache' ? <CacheTab /> : null}
        {tab === 'record' ? (
          <div className="page-scroll">
            <RecordPanel />
          </div>
        ) : null}
        {tab === 'screening' ? (
          <div className="page-scroll">
            <ScreeningPanel />
          </div>
        ) : null}
        {tab === 'listener' ? <ListenerDefaultsTab /> : null}
        {tab === 'audit' ? <AuditTab /> : null}
        {tab === 'review' ? <ReviewSettings /> : null}
        {tab === 'team' ? <TeamSettings /> : null}
        {tab === 'appearance' ? <AppearanceTab /> : null}
      </TabPanel>
    </Page>
  );
}

function ProfilesTab() {
  const profiles = useProfilesStore((state) => state.profiles);
  const activeProfileId = useProfilesStore((state) => state.activeProfileId);
  const reloadProfiles = useProfilesStore((state) => state.load);
  const store = useSettingsStore();
  const { loadCredentials } = store;
  const [editing, setEditing] = useState<Profile | 'new' | null>(null);
  useEffect(() => {
    void loadCredentials();
  }, [loadCredentials, profiles]);

  const save = async (
    values: { name: string; baseUrl: string; authScheme: 'basic' | 'bearer'; keyId?: string; production: boolean },
    secret: string | null,
  ): Promise<void> => {
    let confirmations = {};
    if (editing !== 'new' && editing !== null) {
      const confirmed = await confirmProfileChange(editing, values, secret !== null);
      // Cancelled: nothing is sent, and the form stays open as the user left it.
      if (confirmed === null) return;
      confirmations = confirmed;
    }
    const saved =
      editing === 'new' || editing === null
        ? await api().profiles.create(values)
        : await api().profiles.update({
            id: editing.id,
            name: values.name,
            baseUrl: values.baseUrl,
            authScheme: values.authScheme,
            keyId: values.keyId ?? null,
            production: values.production,
            ...confirmations,
          });
    if (secret !== null) await store.setSecret(saved.id, secret);
    toast('success', editing === 'new' ? 'Profile added' : 'Profile saved', saved.name);
    setEditing(null);
    await reloadProfiles();
  };

  const activeProfile = profiles.find((entry) => entry.id === activeProfileId);
  return (
    <div className="page-scroll stack">
      <KeychainPanel />
      <Panel
        title="Profiles"
        className="panel-flush"
        actions={
          <Button
            size="sm"
            variant="primary"
            icon="plus"
            onClick={() => {
              setEditing('new');
            }}
          >
            Add profile
          </Button>
        }
      >
        <table className="table" aria-label="Profiles">
          <thead>
            <tr>
              <th>Name</th>
              <th>Base URL</th>
              <th>Auth</th>
              <th>Secret</th>
              <th>Connection</th>
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {profiles.map((profile) => {
              const credential = store.credentials[profile.id];
              const test = store.tests[profile.id];
              return (
                <tr
                  key={profile.id}
                  data-profile-id={profile.id}
                  className={profile.id === activeProfileId ? 'is-selected' : undefined}
                >
                  <td>
                    <div className="row" style={{ gap: 6 }}>
                      <strong>{profile.name}</strong>
                      {profile.production ? <Badge tone="negative">Production</Badge> : null}
                      {profile.kind === 'embedded' ? <Badge tone="accent">embedded sandbox</Badge> : null}
                      {profile.id === activeProfileId ? <Badge tone="neutral">active</Badge> : null}
                      {profile.attention === null ? null : (
                        <Badge
                          tone={profile.attention.kind === 'needs-attention' ? 'negative' : 'warning'}
                          title={profile.attention.message}
                        >
                          {profile.attention.kind === 'needs-attention' ? 'needs attention' : 'needs its secret again'}
                        </Badge>
                      )}
                    </div>
                    {profile.attention === null ? null : (
                      <div className="field-hint" style={WRAPPED_NOTE}>
                        {profile.attention.kind === 'needs-attention'
                          ? 'Its address must use https://: edit it, or remove the profile. Nothing is sent meanwhile.'
                          : 'Its address moved: edit it to enter the secret again. Nothing is sent meanwhile.'}
                      </div>
                    )}
                  </td>
                  <td className="mono muted truncate" style={{ maxWidth: 260 }}>
                    {profile.baseUrl}
                  </td>
                  <td className="muted">
                    {profile.authScheme === 'basic' ? `Basic · ${profile.keyId ?? '—'}` : 'Bearer'}
                  </td>
                  <td>
                    {credential === undefined ? (
                      <span className="faint">—</span>
                    ) : credential.state === 'needs-reentry' ? (
                      <Badge tone="warning" title={credential.message ?? undefined}>
                        needs it again
                      </Badge>
                    ) : (
                      <StatusBadge status={credential.state} title={credential.message ?? undefined} />
                    )}
                  </td>
                  <td>
                    {test === undefined ? (
                      <span className="faint">not tested</span>
                    ) : test === 'running' ? (
                      <span className="spinner" aria-label="Testing" />
                    ) : (
                      <span title={test.message}>
                        <Badge tone={test.ok ? 'positive' : 'negative'}>
                          {test.ok ? `ok · ${test.latencyMs?.toFixed(0) ?? '?'} ms` : 'failed'}
                        </Badge>
                        {test.ok ? null : (
                          <div className="field-error" style={WRAPPED_NOTE}>
                            {test.message}
                          </div>
                        )}
                      </span>
                    )}
                  </td>
                  <td>
                    <div className="table-actions">
                      <Button size="sm" onClick={() => void store.testConnection(profile.id)}>
                        Test
                      </Button>
                      <Button
                        size="sm"
                        onClick={() => {
                          setEditing(profile);
                        }}
                      >
                        Edit
                      </Button>
                      {credential?.state === 'set' && profile.kind !== 'embedded' ? (
                        <Button size="sm" variant="ghost" onClick={() => void store.deleteSecret(profile.id)}>
                          Forget secret
                        </Button>
                      ) : null}
                      {profile.kind === 'embedded' ? null : (
                        <Button
                          size="sm"
                          variant="ghost"
                          icon="trash"
                          aria-label={`Delete profile ${profile.name}`}
                          onClick={() => void store.removeProfile(profile.id, profile.name)}
                        />
                      )}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </Panel>
      <BankCompatibilityPanel />
      <SandboxBankPanel />
      {editing === null ? null : (
        <Dialog
          title={editing === 'new' ? 'Add profile' : `Edit ${editing.name}`}
          onClose={() => {
            setEditing(null);
          }}
        >
          <ProfileForm
            profile={editing === 'new' ? undefined : editing}
            onSubmit={save}
            onCancel={() => {
              setEditing(null);
            }}
          />
          {editing === 'new' || editing.kind === 'embedded' ? null : (
            <ProfileNetworkForm
              profile={editing}
              onSave={async (input) => {
                const saved = await api().profiles.setNetwork(input);
                toast('success', 'Network saved', saved.network?.summary ?? saved.name);
                setEditing(saved);
                await reloadProfiles();
              }}
            />
          )}
        </Dialog>
      )}
      {activeProfile === undefined ? null : (
        <ExportUnmaskingPanel profileId={activeProfile.id} profileName={activeProfile.name} />
      )}
    </div>
  );
}

function KeychainPanel() {
  const keychain = useSettingsStore((state) => state.keychain);
  const error = useSettingsStore((state) => state.keychainError);
  if (error !== null) return <ErrorState what="Keychain diagnostics" error={error} />;
  if (keychain === null) return null;
  return (
    <div className={`notice ${keychain.available ? 'notice-info' : 'notice-negative'}`} role="status">
      <Badge tone={keychain.available ? 'positive' : 'negative'}>
        {keychain.available ? 'keychain ready' : 'keychain unavailable'}
      </Badge>
      <span>
        <strong>{keychain.backend}</strong>
        {keychain.problem === null ? ' holds every secret; none is ever shown here.' : ` — ${keychain.problem}`}
        {keychain.remedy === null ? null : <span className="muted"> {keychain.remedy}</span>}
      </span>
    </div>
  );
}

function CacheTab() {
  const { cache, cacheError, loadCache, clearCache } = useSettingsStore();
  useEffect(() => {
    void loadCache();
  }, [loadCache]);
  return (
    <div className="page-scroll">
      <Panel
        title="Offline cache"
        actions={
          <Button size="sm" variant="danger" onClick={() => void clearCache()}>
            Clear cache
          </Button>
        }
      >
        {cacheError !== null ? (
          <ErrorState what="Cache information" error={cacheError} onRetry={() => void loadCache()} />
        ) : cache === null ? (
          <LoadingState />
        ) : (
          <Properties
            items={[
              ['Size on disk', formatBytes(cache.sizeBytes)],
              [
                'Encryption',
                cache.encrypted ? (
                  <Badge key="e" tone="positive">
                    AES-256-GCM, key in the keychain
                  </Badge>
                ) : (
                  <Badge key="e" tone="negative">
                    not encrypted
                  </Badge>
                ),
              ],
              ['Status', cache.message],
            ]}
          />
        )}
      </Panel>
    </div>
  );
}

function ListenerDefaultsTab() {
  const config = useListenerStore((state) => state.config);
  const load = useListenerStore((state) => state.load);
  const configure = useListenerStore((state) => state.configure);
  const error = useListenerStore((state) => state.statusError);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <div className="page-scroll">
      {error !== null && config === null ? (
        <ErrorState what="The listener" error={error} />
      ) : config === null ? (
        <LoadingState />
      ) : (
        <ListenerSetup config={config} onSave={configure} />
      )}
    </div>
  );
}

const AUDIT_COLUMNS: readonly Column<AuditEntry>[] = [
  timeColumn('at', 'Time', (row) => row.at),
  {
    key: 'result',
    header: 'Result',
    width: '80px',
    render: (row) => <Badge tone={row.result === 'ok' ? 'positive' : 'negative'}>{row.result}</Badge>,
  },
  {
    // Who acted, as the entry records it (issue 38): the officer's name and login; the full actor
    // line (program and instance) in the tooltip. Entries from before actors were recorded say so.
    key: 'who',
    header: 'Who',
    width: 'minmax(120px, 200px)',
    render: (row) =>
      row.who === null || row.who === undefined ? (
        <span className="muted" title="Written before the log recorded who acted">
          not recorded
        </span>
      ) : (
        <span title={row.actor ?? undefined}>{row.who}</span>
      ),
  },
  {
    key: 'action',
    header: 'Action',
    width: '170px',
    rowHeader: true,
    render: (row) => <span className="mono">{row.action}</span>,
  },
  {
    key: 'target',
    header: 'Target',
    width: 'minmax(140px, 1fr)',
    render: (row) => <span className="mono">{row.target ?? '—'}</span>,
  },
  {
    key: 'profile',
    header: 'Profile',
    width: '160px',
    priority: 3,
    render: (row) => <span className="muted">{row.profileName ?? row.profileId ?? '—'}</span>,
  },
  {
    key: 'message',
    header: 'Message',
    width: 'minmax(140px, 1fr)',
    priority: 2,
    render: (row) => <span className="muted">{row.message ?? ''}</span>,
  },
];

const AUDIT_LOG = {
  label: 'Audit log',
  columns: AUDIT_COLUMNS,
  fromBank: false,
  searchBox: { label: 'Search the audit log', placeholder: 'Search actions, targets, logins' },
  emptyTitle: 'No writes yet',
  emptyBody: 'Every change you make to a bank is recorded here.',
} satisfies ListDefinition<AuditEntry>;

function AuditTab() {
  const { audit, loadAudit, exportAudit, auditSearch } = useSettingsStore();
  useEffect(() => {
    loadAudit();
  }, [loadAudit]);
  if (audit === null) return null;
  return (
    <>
      <AuditChainPanel />
      <ListScreen
        {...AUDIT_LOG}
        source={audit}
        filters={
          <Button size="sm" icon="download" onClick={() => void exportAudit()}>
            Export CSV
          </Button>
        }
        search={auditSearch}
        onSearch={loadAudit}
      />
    </>
  );
}

function AppearanceTab() {
  return (
    <div className="page-scroll">
      <Panel title="Theme">
        <ThemeChoice />
      </Panel>
    </div>
  );
}
