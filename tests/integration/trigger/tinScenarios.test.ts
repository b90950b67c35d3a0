/**
 * Issue 37, item 3: scenarios for a real Treasury Prime sandbox, which decides an account
 * application by the first digit of its applicants' TINs (docs.treasuryprime.com, "Account
 * Application Testing"). Run here against the sandbox bank, which decides the same way, as a
 * remote sandbox profile: the shipped tin-* scenarios end in their outcome, a business
 * application too, and TINs that disagree leave it submitted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHIPPED_SCENARIOS } from '../../../src/main/services/trigger/scenarioFiles.ts';
import { outcomeOfTins, tinFor, TIN_OUTCOMES } from '../../../src/shared/bank/sandboxTinOutcomes.ts';
import { servicesOn, startBank, type RunningSandbox, type ServicesOnBank } from '../services/support/sandboxBank.ts';
import { makeTempFolder } from '../services/support/tempFolder.ts';

let sandbox: RunningSandbox;
let bank: ServicesOnBank;
let temp: { folder: string; remove: () => void };

beforeAll(async () => {
  sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 1 });
  temp = makeTempFolder();
  bank = await servicesOn(sandbox, temp.folder);
});

afterAll(async () => {
  await bank.services.close();
  await sandbox.close();
  temp.remove();
});

async function applicationOf(id: string): Promise<Record<string, unknown>> {
  return await bank.services.clients.clientFor(bank.profile.id).getAccountApplication(id);
}

describe('the TIN rule', () => {
  it('reads the first digit of every TIN, all the same', () => {
    for (const outcome of TIN_OUTCOMES) {
      expect(outcomeOfTins([tinFor(outcome, 'person'), tinFor(outcome, 'business')])).toBe(outcome);
    }
    expect(tinFor('approved', 'person')).toMatch(/^1\d{2}-\d{2}-\d{4}$/);
    expect(tinFor('rejected', 'business')).toMatch(/^4\d-\d{7}$/);
    expect(outcomeOfTins(['123-45-6789', '423-45-6789'])).toBeNull();
    expect(outcomeOfTins(['923-45-6789'])).toBeNull();
    expect(outcomeOfTins([null])).toBeNull();
  });
});

describe('the shipped TIN scenarios', () => {
  it.each(SHIPPED_SCENARIOS.filter((shipped) => shipped.id.startsWith('tin-')).map((shipped) => [shipped.id, shipped]))(
    '%s ends in the outcome its TIN asks for',
    async (id, shipped) => {
      const result = await bank.services.trigger.runScenario(bank.profile.id, shipped.scenario, {
        confirmRemote: true,
      });
      expect(result.state, JSON.stringify(result.steps.at(-1))).toBe('completed');
      const applicationId = result.steps[0]?.objectId ?? '';
      const application = await applicationOf(applicationId);
      const wanted = id.replace('tin-', '').replace('-', '_');
      expect(application['status']).toBe(wanted);
      expect(application['account_id'] !== null).toBe(wanted === 'approved');
      // The step says what it sent, and never the TIN itself (only its first digit).
      const said = result.steps[0]?.detail ?? '';
      expect(said).toMatch(/POST \/apply\/person_application|person application apsn_/);
      expect(said).not.toMatch(/\d{3}-\d{2}-\d{4}/);
    },
  );
});

describe('a business application', () => {
  it('follows the business’s TIN and its people’s', async () => {
    const result = await bank.services.trigger.runScenario(
      bank.profile.id,
      {
        name: 'business, rejected',
        steps: [
          { id: 'app', action: 'submit_application', ownership: 'business', outcome: 'rejected' },
          { action: 'wait_for_application', applicationId: '{{app.objectId}}', status: 'rejected', timeoutMs: 5000 },
        ],
      },
      { confirmRemote: true },
    );
    expect(result.state, JSON.stringify(result.steps)).toBe('completed');
    const application = await applicationOf(result.steps[0]?.objectId ?? '');
    expect(application).toMatchObject({ status: 'rejected', ownership_type: 'business' });
  });

  it('waits in vain, and says so, when the bank decides otherwise', async () => {
    const result = await bank.services.trigger.runScenario(
      bank.profile.id,
      {
        name: 'asks for submitted, waits for approved',
        steps: [
          { id: 'app', action: 'submit_application', ownership: 'personal', outcome: 'submitted' },
          { action: 'wait_for_application', applicationId: '{{app.objectId}}', status: 'approved', timeoutMs: 300 },
        ],
      },
      { confirmRemote: true },
    );
    expect(result.state).toBe('failed');
    expect(result.steps.at(-1)?.detail).toMatch(/is submitted, not approved/);
  });
});
