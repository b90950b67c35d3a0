/**
 * Listener → Trigger: make the bank send an event (the fields each event uses, each optional:
 * main chooses sensible defaults), see the object and the events it caused, and run a
 * scenario — shipped or from a file — with each step's outcome shown as it happens.
 */
import { useEffect, useRef, type ChangeEvent } from 'react';
import {
  catalogEntry,
  TRIGGERABLE_EVENTS,
  type TriggerableEvent,
} from '../../../../shared/eventCatalog/eventCatalog.ts';
import type { ScenarioStepOutcome } from '../../../../shared/eventCatalog/scenario.ts';
import {
  TRIGGER_FIELDS,
  TRIGGER_STATUS_CHOICES,
  type TriggerParameters,
} from '../../../../shared/eventCatalog/trigger.ts';
import { Badge } from '../../components/Badge.tsx';
import { Button } from '../../components/Button.tsx';
import { SelectField, TextField } from '../../components/Field.tsx';
import { Panel } from '../../components/Page.tsx';
import { ScrollBlock } from '../../components/ScrollBlock.tsx';
import { InlineError, StateMessage } from '../../components/States.tsx';
import { fieldNameOf } from '../../lib/errors.ts';
import { useActiveProfileId } from '../../stores/profiles.ts';
import { toast } from '../../stores/toasts.ts';
import {
  reachErrorSentence,
  reachKey,
  reachSentence,
  useNotificationReach,
  type ReachState,
} from './notificationReach.ts';
import { installTriggerEvents, useTriggerStore, type ScenarioRun } from './triggerStore.ts';
import './trigger.css';

type Parameter = keyof TriggerParameters;

/** What leaving the status empty does, for the events that move an object (their choices are shared). */
const STATUS_NONE: Partial<Record<TriggerableEvent, string>> = {
  'ach.update': 'Next step',
  'account_application.update': 'Next step toward approval',
  'webhook.update': 'Into error, then back',
};

const LABELS: Record<Exclude<Parameter, 'status'>, { label: string; placeholder: string }> = {
  accountId: { label: 'Account', placeholder: 'acct_… (default: the first account)' },
  achId: { label: 'ACH', placeholder: 'ach_… (default: a new ACH)' },
  applicationId: { label: 'Account application', placeholder: 'aact_… (default: a new application)' },
  webhookId: { label: 'Webhook', placeholder: 'wh_… (default: one not subscribed to webhook.update)' },
  amount: { label: 'Amount', placeholder: '25.00' },
};

export function TriggerPanel() {
  const profileId = useActiveProfileId();
  const store = useTriggerStore();
  const { loadScenarios, showProfile } = store;
  useEffect(() => {
    void loadScenarios();
    return installTriggerEvents();
  }, [loadScenarios]);
  useEffect(() => {
    showProfile(profileId);
  }, [profileId, showProfile]);
  const entry = catalogEntry(store.event);
  const statusOptions = TRIGGER_STATUS_CHOICES[store.event];
  const statusNone = STATUS_NONE[store.event];
  const errorField = store.error === null ? null : fieldNameOf(store.error);

  return (
    <div className="columns trigger-columns">
      <div className="stack">
        <Panel title="Trigger an event">
          <form
            className="form"
            aria-label="Trigger an event"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              if (profileId !== null) void store.trigger(profileId);
            }}
          >
            {store.error === null || errorField !== null ? null : <InlineError error={store.error} />}
            <SelectField
              label="Event"
              value={store.event}
              onChange={(value) => {
                store.setEvent(value as TriggerableEvent);
              }}
              options={TRIGGERABLE_EVENTS}
              hint={entry?.trigger ?? undefined}
            />
            {TRIGGER_FIELDS[store.event].map((name) =>
              name === 'status' ? (
                statusOptions === undefined ? null : (
                  <SelectField
                    key={name}
                    label="Move to"
                    value={store.parameters.status}
                    onChange={(value) => {
                      store.setParameter('status', value);
                    }}
                    placeholder={statusNone ?? 'Next step'}
                    options={statusOptions}
                    error={errorField === 'status' ? store.error?.message : undefined}
                  />
                )
              ) : (
                <TextField
                  key={name}
                  label={LABELS[name].label}
                  optional
                  value={store.parameters[name]}
                  onChange={(value) => {
                    store.setParameter(name, value);
                  }}
                  placeholder={LABELS[name].placeholder}
                  autoComplete="off"
                  spellCheck={false}
                  error={errorField === name ? store.error?.message : undefined}
                />
              ),
            )}
            <div className="form-actions">
              <Button
                type="submit"
                variant="primary"
                icon="play"
                busy={store.busy}
                disabled={profileId === null}
                title={profileId === null ? 'Choose a profile first' : undefined}
              >
                Trigger
              </Button>
            </div>
          </form>
        </Panel>
        <ScenariosPanel profileId={profileId} />
      </div>
      <div className="stack">
        {store.run === null ? null : <ScenarioRunPanel run={store.run} onStop={() => void store.cancelScenario()} />}
        <TriggerResultPanel />
      </div>
    </div>
  );
}

function TriggerResultPanel() {
  const result = useTriggerStore((state) => state.result);
  const triggeredAt = useTriggerStore((state) => state.triggeredAt);
  const profileId = useTriggerStore((state) => state.profileId);
  const reach = useNotificationReach(profileId, triggeredAt, result?.caused ?? []);
  if (result === null) {
    return (
      <Panel title="Result">
        <StateMessage icon="listener" title="Nothing triggered yet">
          Only webhooks subscribed to an event receive it: register the listener for the events you trigger (Register
          with bank, above), and watch them arrive under Requests.
        </StateMessage>
      </Panel>
    );
  }
  return (
    <Panel title={`Triggered ${result.event}: ${result.objectId}`}>
      <h3 className="trigger-subtitle">Events caused</h3>
      <CausedList caused={result.caused} label="Events caused" reach={reach} />
      {reach.error === null ? null : <p role="alert">{reachErrorSentence(reach.error)}</p>}
      <h3 className="trigger-subtitle">Requests made</h3>
      <ul className="trigger-calls">
        {result.calls.map((call, index) => (
          <li key={index}>
            <span className="code-block">{call.request}</span> <span className="muted">→ {call.outcome}</span>
          </li>
        ))}
      </ul>
      <h3 className="trigger-subtitle">The object now</h3>
      <ScrollBlock className="json-view trigger-object" label="The object now">
        {JSON.stringify(result.object, null, 2)}
      </ScrollBlock>
    </Panel>
  );
}

const REACH_TONES = {
  reached: 'positive',
  not_yet: 'neutral',
  not_to_listener: 'warning',
  no_webhook: 'warning',
} as const;

function CausedList({
  caused,
  label,
  reach,
}: {
  caused: ScenarioStepOutcome['caused'];
  label: string;
  /** Whether each reached the listener (the trigger's result; a scenario's steps do not say). */
  reach?: ReachState;
}) {
  if (caused.length === 0) return <p className="muted">No event.</p>;
  return (
    <ul className="trigger-caused" aria-label={label}>
      {caused.map((notification, index) => {
        const where = reach?.byNotification.get(reachKey(notification.event, notification.id));
        return (
          <li key={index}>
            <Badge tone="accent">{notification.event}</Badge>
            <span className="code-block">{notification.id}</span>
            <span className="muted trigger-url">{notification.url}</span>
            {reach === undefined ? null : where === undefined ? (
              <span className="faint">checking the listener…</span>
            ) : (
              <span className="trigger-reach" data-reach={where.state}>
                <Badge
                  tone={where.state === 'reached' && where.verdict !== 'ok' ? 'warning' : REACH_TONES[where.state]}
                >
                  {reachSentence(where)}
                </Badge>
                {where.state === 'no_webhook' || where.state === 'not_to_listener' ? (
                  <span className="muted"> Register with bank (above) for {notification.event}.</span>
                ) : where.state === 'not_yet' && !reach.watching ? (
                  <span className="muted"> Still not here: see Reconciliation.</span>
                ) : null}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function ScenariosPanel({ profileId }: { profileId: string | null }) {
  const store = useTriggerStore();
  const fileInput = useRef<HTMLInputElement>(null);
  const running = store.run?.state === 'running';

  const openFile = async (event: ChangeEvent<HTMLInputElement>): Promise<void> => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file === undefined || profileId === null) return;
    const text = await file.text();
    await store.runScenario(profileId, { kind: 'file', name: file.name, text }, file.name, 1);
  };

  return (
    <Panel
      title="Scenarios"
      actions={
        <>
          <input
            ref={fileInput}
            type="file"
            accept=".json,application/json"
            className="visually-hidden"
            tabIndex={-1}
            aria-hidden="true"
            onChange={(event) => void openFile(event)}
          />
          <Button
            icon="upload"
            disabled={profileId === null || running}
            onClick={() => fileInput.current?.click()}
            title="A scenario file: see docs/scenarios.md"
          >
            Run a file…
          </Button>
        </>
      }
    >
      {store.scenariosError === null ? null : <InlineError error={store.scenariosError} />}
      {store.runError === null ? null : <InlineError error={store.runError} />}
      <ul className="trigger-scenarios" aria-label="Shipped scenarios">
        {store.scenarios.map((scenario) => (
          <li key={scenario.id}>
            <div className="grow">
              <div className="trigger-scenario-name">{scenario.name}</div>
              <div className="field-hint">{scenario.description}</div>
            </div>
            <Button
              icon="play"
              disabled={profileId === null || running}
              aria-label={`Run ${scenario.name}`}
              onClick={() => {
                if (profileId === null) return;
                void store.runScenario(profileId, { kind: 'shipped', id: scenario.id }, scenario.name, scenario.steps);
              }}
            >
              Run
            </Button>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

const STATE_TONES = { running: 'info', ok: 'positive', failed: 'negative' } as const;

function ScenarioRunPanel({ run, onStop }: { run: ScenarioRun; onStop: () => void }) {
  const done = run.steps.filter((step) => step.state !== 'running').length;
  const summary =
    run.state === 'running'
      ? `Running: ${String(done)} of ${String(run.total)} steps done`
      : run.state === 'completed'
        ? `Completed: ${String(run.total)} steps`
        : run.state === 'cancelled'
          ? 'Stopped'
          : 'Failed';
  return (
    <Panel
      title={run.name}
      result
      actions={
        run.state === 'running' ? (
          <Button
            icon="stop"
            onClick={() => {
              onStop();
              toast('info', 'Stopping the scenario', 'It stops after the request in progress.');
            }}
          >
            Stop
          </Button>
        ) : (
          <Badge tone={run.state === 'completed' ? 'positive' : 'negative'}>{run.state}</Badge>
        )
      }
    >
      <p className="muted" role="status">
        {summary}
      </p>
      <ol className="trigger-steps" aria-label="Scenario steps" aria-live="polite">
        {run.steps.map((step) => (
          <li key={step.index} className={`trigger-step is-${step.state}`}>
            <div className="row">
              <Badge tone={STATE_TONES[step.state]}>{step.state}</Badge>
              <strong>
                {step.index + 1}. {step.title}
              </strong>
            </div>
            {step.state === 'running' ? null : <div className="muted trigger-detail">{step.detail}</div>}
            {step.caused.length === 0 ? null : (
              <CausedList caused={step.caused} label={`Events of step ${String(step.index + 1)}`} />
            )}
          </li>
        ))}
      </ol>
    </Panel>
  );
}
