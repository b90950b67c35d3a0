/**
 * The response-rules editor: fail on purpose by event or path. The whole list is checked
 * with the shared listenerRuleInput schema and saved at once.
 */
import { useState, type ReactNode } from 'react';
import { z } from 'zod';
import { listenerRuleInput, type ListenerRule } from '../../../../shared/ipc/index.ts';
import { Button } from '../../components/Button.tsx';
import { Select } from '../../components/Field.tsx';
import { InlineError, StateMessage } from '../../components/States.tsx';
import { fieldErrorsOf } from '../../lib/schemaForm.ts';
import { uiErrorOf, type UiError } from '../../lib/errors.ts';
import './rulesEditor.css';

const KINDS = [
  { value: 'status', label: 'Answer with status' },
  { value: 'failTimes', label: 'Fail N times, then succeed' },
  { value: 'delay', label: 'Delay, then answer' },
  { value: 'timeout', label: 'Never answer (timeout)' },
  { value: 'drop', label: 'Drop the connection' },
] as const;

export interface RuleDraft {
  id?: string;
  name: string;
  enabled: boolean;
  event: string;
  pathPrefix: string;
  kind: (typeof KINDS)[number]['value'];
  status: string;
  thenStatus: string;
  times: string;
  delayMs: string;
}

function draftOf(rule: ListenerRule): RuleDraft {
  const response = rule.response;
  return {
    id: rule.id,
    name: rule.name ?? '',
    enabled: rule.enabled,
    event: rule.match.event ?? '',
    pathPrefix: rule.match.pathPrefix ?? '',
    kind: response.kind,
    status: 'status' in response ? String(response.status) : '500',
    thenStatus: response.kind === 'failTimes' ? String(response.thenStatus) : '200',
    times: response.kind === 'failTimes' ? String(response.times) : '3',
    delayMs: response.kind === 'delay' ? String(response.delayMs) : '1000',
  };
}

const NEW_RULE: RuleDraft = {
  name: '',
  enabled: true,
  event: '',
  pathPrefix: '',
  kind: 'failTimes',
  status: '500',
  thenStatus: '200',
  times: '3',
  delayMs: '1000',
};

/** The input the contract takes for a draft (numbers from the text fields). */
function ruleInputOf(draft: RuleDraft): unknown {
  const number = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text));
  const response =
    draft.kind === 'status'
      ? { kind: 'status', status: number(draft.status) }
      : draft.kind === 'failTimes'
        ? {
            kind: 'failTimes',
            times: number(draft.times),
            status: number(draft.status),
            thenStatus: number(draft.thenStatus),
          }
        : draft.kind === 'delay'
          ? { kind: 'delay', delayMs: number(draft.delayMs), status: number(draft.status) }
          : { kind: draft.kind };
  return {
    ...(draft.id === undefined ? {} : { id: draft.id }),
    ...(draft.name.trim() === '' ? {} : { name: draft.name.trim() }),
    enabled: draft.enabled,
    match: {
      ...(draft.event.trim() === '' ? {} : { event: draft.event.trim() }),
      ...(draft.pathPrefix.trim() === '' ? {} : { pathPrefix: draft.pathPrefix.trim() }),
    },
    response,
  };
}

export function RulesEditor({
  rules,
  onSave,
}: {
  rules: readonly ListenerRule[];
  onSave: (rules: z.input<typeof listenerRuleInput>[]) => Promise<void>;
}) {
  const [drafts, setDrafts] = useState<RuleDraft[]>(rules.map(draftOf));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<UiError | null>(null);
  const [busy, setBusy] = useState(false);
  const update = (index: number, patch: Partial<RuleDraft>): void => {
    setDrafts(drafts.map((draft, at) => (at === index ? { ...draft, ...patch } : draft)));
  };

  const save = async (): Promise<void> => {
    const checked = z.array(listenerRuleInput).safeParse(drafts.map(ruleInputOf));
    if (!checked.success) {
      setErrors(fieldErrorsOf(checked.error.issues));
      return;
    }
    setErrors({});
    setServerError(null);
    setBusy(true);
    try {
      await onSave(checked.data);
    } catch (reason) {
      setServerError(uiErrorOf(reason));
    } finally {
      setBusy(false);
    }
  };
  const errorOf = (index: number, path: string): string | undefined => errors[`${index}.${path}`];

  return (
    <div className="stack">
      <p className="muted">
        Rules are tried in order; the first enabled rule whose event and path match decides the answer. “Fail N times”
        counts per notification (event and object), so each of the bank's retries is seen.
      </p>
      {serverError === null ? null : <InlineError error={serverError} />}
      {drafts.length === 0 ? <StateMessage title="No rules">Every request is answered 200.</StateMessage> : null}
      {drafts.map((draft, index) => (
        <div className="panel" key={draft.id ?? `new-${index}`} aria-label={`Rule ${index + 1}`} role="group">
          <div className="panel-body rule-grid">
            <label className="checkbox rule-field">
              <span className="rule-field-label">Enabled</span>
              <input
                type="checkbox"
                checked={draft.enabled}
                onChange={(event) => {
                  update(index, { enabled: event.target.checked });
                }}
              />
            </label>
            <RuleField label="Rule name">
              <input
                className="input rule-name"
                value={draft.name}
                onChange={(event) => {
                  update(index, { name: event.target.value });
                }}
              />
            </RuleField>
            <RuleField label="Event">
              <input
                className="input mono rule-match"
                placeholder="any event"
                value={draft.event}
                onChange={(event) => {
                  update(index, { event: event.target.value });
                }}
                aria-invalid={errorOf(index, 'match.event') === undefined ? undefined : true}
              />
            </RuleField>
            <RuleField label="Path prefix">
              <input
                className="input mono rule-match"
                placeholder="any path"
                value={draft.pathPrefix}
                onChange={(event) => {
                  update(index, { pathPrefix: event.target.value });
                }}
                aria-invalid={errorOf(index, 'match.pathPrefix') === undefined ? undefined : true}
              />
            </RuleField>
            <RuleField label="Response">
              {/* Named by its label alone: inside a <label>, a select's name would also carry its chosen option. */}
              <Select
                aria-label="Response"
                value={draft.kind}
                onChange={(kind) => {
                  update(index, { kind: kind as RuleDraft['kind'] });
                }}
                options={KINDS}
              />
            </RuleField>
            {draft.kind === 'failTimes' ? (
              <RuleField label="Times">
                <input
                  className="input tabular"
                  value={draft.times}
                  onChange={(event) => {
                    update(index, { times: event.target.value });
                  }}
                  style={{ width: 56 }}
                />
              </RuleField>
            ) : null}
            {draft.kind === 'delay' ? (
              <RuleField label="Delay (ms)">
                <input
                  className="input tabular"
                  value={draft.delayMs}
                  onChange={(event) => {
                    update(index, { delayMs: event.target.value });
                  }}
                  style={{ width: 76 }}
                />
              </RuleField>
            ) : null}
            {draft.kind === 'status' || draft.kind === 'failTimes' || draft.kind === 'delay' ? (
              <RuleField label="Status">
                <input
                  className="input tabular"
                  value={draft.status}
                  onChange={(event) => {
                    update(index, { status: event.target.value });
                  }}
                  style={{ width: 60 }}
                />
              </RuleField>
            ) : null}
            {draft.kind === 'failTimes' ? (
              <>
                <span className="muted">then</span>
                <RuleField label="Then status">
                  <input
                    className="input tabular"
                    value={draft.thenStatus}
                    onChange={(event) => {
                      update(index, { thenStatus: event.target.value });
                    }}
                    style={{ width: 60 }}
                  />
                </RuleField>
              </>
            ) : null}
            <Button
              size="sm"
              variant="ghost"
              icon="trash"
              aria-label={`Remove rule ${index + 1}`}
              onClick={() => {
                setDrafts(drafts.filter((_, at) => at !== index));
              }}
            />
          </div>
          {Object.entries(errors)
            .filter(([key]) => key.startsWith(`${index}.`))
            .map(([key, message]) => (
              <div key={key} className="field-error" role="alert" style={{ padding: '0 16px 12px' }}>
                {key.slice(String(index).length + 1)}: {message}
              </div>
            ))}
        </div>
      ))}
      <div className="row">
        <Button
          icon="plus"
          onClick={() => {
            setDrafts([...drafts, NEW_RULE]);
          }}
        >
          Add rule
        </Button>
        <span className="grow" />
        <Button variant="primary" busy={busy} onClick={() => void save()}>
          Save rules
        </Button>
      </div>
    </div>
  );
}

/** A rule's field with its name shown above it (placeholders alone vanish once a value is typed). */
function RuleField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="rule-field">
      <span className="rule-field-label">{label}</span>
      {children}
    </label>
  );
}
