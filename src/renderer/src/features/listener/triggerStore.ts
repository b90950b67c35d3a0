/**
 * The Trigger tab: which event to cause and on what, the last result, the shipped scenarios,
 * and the scenario running now with each step's outcome as main pushes it. A remote profile
 * is asked about once per call (main answers `confirmation_required` until the user says yes).
 */
import { create } from 'zustand';
import type { TriggerableEvent } from '../../../../shared/eventCatalog/eventCatalog.ts';
import type { ScenarioStepOutcome } from '../../../../shared/eventCatalog/scenario.ts';
import { TRIGGER_FIELDS, type TriggerParameters, type TriggerResult } from '../../../../shared/eventCatalog/trigger.ts';
import type { ApiInput, ShippedScenarioSummary } from '../../../../shared/ipc/index.ts';
import { api } from '../../lib/api.ts';
import { sentenceOf, uiErrorOf, type UiError } from '../../lib/errors.ts';
import { useConfirmStore } from '../../stores/confirm.ts';
import { toast } from '../../stores/toasts.ts';

type ScenarioSource = ApiInput<'trigger', 'runScenario'>['source'];

export interface ScenarioRun {
  runId: string;
  name: string;
  total: number;
  steps: ScenarioStepOutcome[];
  state: 'running' | 'completed' | 'failed' | 'cancelled';
}

interface TriggerState {
  /** The profile the result, error and finished run below belong to. */
  profileId: string | null;
  event: TriggerableEvent;
  parameters: Record<keyof TriggerParameters, string>;
  busy: boolean;
  result: TriggerResult | null;
  /** When the shown result's trigger was sent: its notifications are looked for from then on. */
  triggeredAt: string | null;
  error: UiError | null;
  scenarios: ShippedScenarioSummary[];
  scenariosError: UiError | null;
  run: ScenarioRun | null;
  runError: UiError | null;
  /** The active profile changed: what was triggered at the other bank is not shown as this one's. */
  showProfile: (profileId: string | null) => void;
  setEvent: (event: TriggerableEvent) => void;
  setParameter: (name: keyof TriggerParameters, value: string) => void;
  loadScenarios: () => Promise<void>;
  trigger: (profileId: string) => Promise<void>;
  runScenario: (profileId: string, source: ScenarioSource, name: string, total: number) => Promise<void>;
  cancelScenario: () => Promise<void>;
  stepArrived: (outcome: ScenarioStepOutcome) => void;
}

const NO_PARAMETERS: Record<keyof TriggerParameters, string> = {
  accountId: '',
  applicationId: '',
  webhookId: '',
  achId: '',
  status: '',
  amount: '',
};

/** Calls once; when main asks for a remote confirmation and the user gives it, calls again with it. */
async function withRemoteConfirmation<Result>(
  call: (confirmRemote: boolean | undefined) => Promise<Result>,
): Promise<Result | null> {
  try {
    return await call(undefined);
  } catch (reason) {
    const error = uiErrorOf(reason);
    if (error.code !== 'confirmation_required' || error.field !== 'confirmRemote') throw reason;
    const yes = await useConfirmStore.getState().ask({
      title: 'Trigger at a remote bank?',
      body: error.message,
      confirmLabel: 'Yes, trigger there',
      tone: 'danger',
      production: false,
    });
    return yes ? call(true) : null;
  }
}

export const useTriggerStore = create<TriggerState>((set, get) => ({
  profileId: null,
  event: 'ach.create',
  parameters: NO_PARAMETERS,
  busy: false,
  result: null,
  triggeredAt: null,
  error: null,
  scenarios: [],
  scenariosError: null,
  run: null,
  runError: null,
  showProfile(profileId) {
    const { run } = get();
    if (profileId === get().profileId) return;
    // A scenario still running keeps its steps on screen (its pushes name its own run).
    set({ profileId, result: null, error: null, runError: null, ...(run?.state === 'running' ? {} : { run: null }) });
  },
  setEvent(event) {
    set({ event, error: null });
  },
  setParameter(name, value) {
    set({ parameters: { ...get().parameters, [name]: value }, error: null });
  },
  async loadScenarios() {
    try {
      set({ scenarios: await api().trigger.scenarios({}), scenariosError: null });
    } catch (reason) {
      set({ scenariosError: uiErrorOf(reason) });
    }
  },
  async trigger(profileId) {
    const { event, parameters } = get();
    // Only what this event reads: a field filled in for another event stays in the form, unsent.
    const given = Object.fromEntries(
      TRIGGER_FIELDS[event].map((name) => [name, parameters[name].trim()]).filter(([, value]) => value !== ''),
    ) as Partial<Record<keyof TriggerParameters, string>>;
    set({ busy: true, error: null });
    const triggeredAt = new Date().toISOString();
    try {
      const result = await withRemoteConfirmation((confirmRemote) =>
        api().trigger.run({
          profileId,
          request: { event, ...given },
          ...(confirmRemote === undefined ? {} : { confirmRemote }),
        }),
      );
      if (result !== null) {
        // Shown only while its profile is the active one (the user may have switched meanwhile).
        if (get().profileId === profileId) set({ result, triggeredAt });
        toast(
          'success',
          `Triggered ${result.event}`,
          `${String(result.caused.length)} event(s) caused on ${result.objectId}`,
        );
      }
    } catch (reason) {
      if (get().profileId === profileId) set({ error: uiErrorOf(reason) });
    } finally {
      set({ busy: false });
    }
  },
  async runScenario(profileId, source, name, total) {
    const runId = crypto.randomUUID();
    set({ run: { runId, name, total, steps: [], state: 'running' }, runError: null });
    try {
      const result = await withRemoteConfirmation((confirmRemote) =>
        api().trigger.runScenario({
          profileId,
          runId,
          source,
          ...(confirmRemote === undefined ? {} : { confirmRemote }),
        }),
      );
      const current = get().run;
      if (result === null) {
        set({ run: null });
        return;
      }
      if (current?.runId === runId) {
        // The answer holds every step: it settles any push that went missing.
        set({ run: { ...current, name: result.name, steps: result.steps, state: result.state } });
      }
      if (result.state === 'failed')
        toast('error', `Scenario failed: ${result.name}`, result.steps.at(-1)?.detail ?? '');
    } catch (reason) {
      const error = uiErrorOf(reason);
      set({ runError: error, run: null });
      toast('error', 'Could not run the scenario', sentenceOf(error));
    }
  },
  async cancelScenario() {
    const run = get().run;
    if (run?.state !== 'running') return;
    await api().trigger.cancelScenario({ runId: run.runId });
  },
  stepArrived(outcome) {
    const run = get().run;
    if (run?.runId !== outcome.runId) return;
    const steps = [...run.steps];
    steps[outcome.index] = outcome;
    set({ run: { ...run, total: outcome.total, steps } });
  },
}));

/** Scenario steps pushed by main; returns the unsubscribe. */
export function installTriggerEvents(): () => void {
  try {
    return api().trigger.onStep((outcome) => {
      useTriggerStore.getState().stepArrived(outcome);
    });
  } catch {
    return () => undefined;
  }
}
