/**
 * The organization's Smart Webhook Retries setting (spec §6.7), persisted with the data.
 * On: a non-200/202 answer is retried like a missing one. Off (or pending approval): only a
 * missing or invalid answer is retried; an HTTP error status ends the event.
 */
import type { OrganizationSettings, OrganizationSettingsUpdate } from '../shared/bank/index.ts';
import { readMeta, writeMeta, type Database } from './store/database.ts';
import { SANDBOX_ORGANIZATION_ID } from './bankIdentity.ts';
import { RequestProblem } from './requestProblem.ts';

const META_NAME = 'organization';

export interface OrganizationSettingsStore {
  read(): OrganizationSettings;
  update(update: OrganizationSettingsUpdate): OrganizationSettings;
  /** The bank answers a fintech's pending request. */
  decide(approved: boolean): OrganizationSettings;
  smartRetriesOn(): boolean;
}

export function createOrganizationSettings(
  database: Database,
  smartRetriesAtStart: boolean | undefined,
): OrganizationSettingsStore {
  let settings: OrganizationSettings = {
    organization_id: SANDBOX_ORGANIZATION_ID,
    organization_type: 'bank',
    smart_retries: 'on',
  };
  const stored = readMeta(database, META_NAME);
  if (stored !== undefined) settings = JSON.parse(stored) as OrganizationSettings;
  // The command line (or the embedding app) decides when it says something; else the data does.
  if (smartRetriesAtStart !== undefined) settings = { ...settings, smart_retries: smartRetriesAtStart ? 'on' : 'off' };
  const save = () => {
    writeMeta(database, META_NAME, JSON.stringify(settings));
  };
  save();

  return {
    read: () => ({ ...settings }),
    update(update) {
      const next = { ...settings, organization_type: update.organization_type ?? settings.organization_type };
      if (update.smart_retries === false) next.smart_retries = 'off';
      if (update.smart_retries === true && next.smart_retries !== 'on') {
        next.smart_retries = next.organization_type === 'bank' ? 'on' : 'pending_approval';
      }
      settings = next;
      save();
      return { ...settings };
    },
    decide(approved) {
      if (settings.smart_retries !== 'pending_approval') {
        throw new RequestProblem(
          409,
          `There is no pending Smart Webhook Retries request to decide: the setting is ${settings.smart_retries}.`,
        );
      }
      settings = { ...settings, smart_retries: approved ? 'on' : 'off' };
      save();
      return { ...settings };
    },
    smartRetriesOn: () => settings.smart_retries === 'on',
  };
}
