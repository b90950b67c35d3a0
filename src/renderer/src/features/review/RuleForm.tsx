/**
 * A new watch rule: a name, a kind, and the conditions of that kind (every condition given
 * must hold). Checked with the same schema the main process applies before it is sent; a
 * name already used replaces that rule.
 */
import { useState } from 'react';
import {
  ACCOUNT_APPLICATION_STATUSES,
  PENDING_TRANSACTION_TYPE_SOURCES,
  PENDING_TRANSACTION_TYPES,
  WEBHOOK_SEND_STATUSES,
} from '../../../../shared/bank/index.ts';
import { REVIEW_KINDS, type ReviewKind } from '../../../../shared/review/reviewTerms.ts';
import { RULE_CONDITIONS, watchRule } from '../../../../shared/review/watchRule.ts';
import { Button } from '../../components/Button.tsx';
import { SelectField, TextField } from '../../components/Field.tsx';
import { InlineError } from '../../components/States.tsx';
import { api } from '../../lib/api.ts';
import { validate } from '../../lib/schemaForm.ts';
import { useFormErrors } from '../../lib/useFormErrors.ts';
import { toast } from '../../stores/toasts.ts';
import { KIND_LABELS } from './reviewWords.ts';

interface Draft {
  name: string;
  kind: ReviewKind;
  amountBeyond: string;
  descriptionHas: string;
  type: string;
  typeSource: string;
  applicationStatus: string;
  applicantYoungerThan: string;
  applicantOlderThan: string;
  citizenshipOutside: string;
  sendStatus: string;
  attemptAtLeast: string;
}

const EMPTY: Draft = {
  name: '',
  kind: 'pending-transaction',
  amountBeyond: '',
  descriptionHas: '',
  type: '',
  typeSource: '',
  applicationStatus: '',
  applicantYoungerThan: '',
  applicantOlderThan: '',
  citizenshipOutside: '',
  sendStatus: '',
  attemptAtLeast: '',
};

const FIELDS = ['name', 'kind', ...Object.values(RULE_CONDITIONS).flat()];
/** The conditions typed as whole numbers. */
const WHOLE_NUMBERS = new Set(['attemptAtLeast', 'applicantYoungerThan', 'applicantOlderThan']);

/** The rule as the schema takes it: the name and kind, and only the kind's conditions given. */
export function ruleInputOf(draft: Draft): Record<string, unknown> {
  const conditions = RULE_CONDITIONS[draft.kind];
  const picked: Record<string, unknown> = { name: draft.name, kind: draft.kind };
  for (const name of conditions) {
    const value = draft[name as keyof Draft];
    if (value === '') continue;
    picked[name] = WHOLE_NUMBERS.has(name) ? Number(value.trim()) : value;
  }
  return picked;
}

export function RuleForm({
  profileId,
  taken,
  onSaved,
  onCancel,
}: {
  profileId: string;
  taken: readonly string[];
  onSaved: () => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [busy, setBusy] = useState(false);
  const errors = useFormErrors(FIELDS);
  const change = (patch: Partial<Draft>): void => {
    setDraft({ ...draft, ...patch });
  };

  async function submit(): Promise<void> {
    if (RULE_CONDITIONS[draft.kind].includes('attemptAtLeast') && !/^[0-9]*$/.test(draft.attemptAtLeast.trim())) {
      errors.setFieldErrors({ attemptAtLeast: 'must be a whole number from 1 to 1000' });
      return;
    }
    for (const name of ['applicantYoungerThan', 'applicantOlderThan'] as const) {
      if (RULE_CONDITIONS[draft.kind].includes(name) && !/^[0-9]*$/.test(draft[name].trim())) {
        errors.setFieldErrors({ [name]: 'must be a whole number of years from 1 to 150' });
        return;
      }
    }
    const checked = validate(watchRule, ruleInputOf(draft));
    if (!checked.ok) {
      errors.setFieldErrors(checked.errors);
      return;
    }
    errors.clear();
    setBusy(true);
    try {
      const saved = await api().reviews.saveRule({ profileId, rule: checked.value });
      toast('success', `Watch rule ${saved.name} saved`, 'It applies after the next sync.');
      onSaved();
    } catch (reason) {
      errors.setServerError(reason, 'rule.');
    } finally {
      setBusy(false);
    }
  }

  const conditions = RULE_CONDITIONS[draft.kind];
  const kindError = errors.of('kind');
  return (
    <form
      className="stack review-rule-form"
      aria-label="New watch rule"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {errors.form === null ? null : <InlineError error={errors.form} />}
      <div className="review-rule-grid">
        <TextField
          label="Name"
          value={draft.name}
          onChange={(name) => {
            change({ name });
          }}
          maxLength={100}
          error={errors.of('name')}
          hint={taken.includes(draft.name.trim()) ? 'A rule of this name exists: saving replaces it.' : undefined}
          data-autofocus
        />
        <SelectField
          label="Kind"
          value={draft.kind}
          onChange={(kind) => {
            change({ kind: kind as ReviewKind });
          }}
          options={REVIEW_KINDS.map((kind) => ({ value: kind, label: KIND_LABELS[kind].many }))}
          error={kindError}
        />
        {conditions.includes('amountBeyond') ? (
          <TextField
            label="Amount at or beyond"
            optional
            value={draft.amountBeyond}
            onChange={(amountBeyond) => {
              change({ amountBeyond });
            }}
            placeholder="1000.00 or -250.00"
            className="input mono"
            error={errors.of('amountBeyond')}
            hint="A positive bound flags amounts at or above it; a negative one, debits at or below it."
          />
        ) : null}
        {conditions.includes('descriptionHas') ? (
          <TextField
            label="Description has the words"
            optional
            value={draft.descriptionHas}
            onChange={(descriptionHas) => {
              change({ descriptionHas });
            }}
            error={errors.of('descriptionHas')}
            hint="Whole words, in the description or summary; case and accents ignored."
          />
        ) : null}
        {conditions.includes('type') ? (
          <SelectField
            label="Type"
            value={draft.type}
            onChange={(type) => {
              change({ type });
            }}
            options={PENDING_TRANSACTION_TYPES}
            placeholder="Any type"
            error={errors.of('type')}
          />
        ) : null}
        {conditions.includes('typeSource') ? (
          <SelectField
            label="Type source"
            value={draft.typeSource}
            onChange={(typeSource) => {
              change({ typeSource });
            }}
            options={PENDING_TRANSACTION_TYPE_SOURCES}
            placeholder="Any source"
            error={errors.of('typeSource')}
          />
        ) : null}
        {conditions.includes('applicationStatus') ? (
          <SelectField
            label="Application status"
            value={draft.applicationStatus}
            onChange={(applicationStatus) => {
              change({ applicationStatus });
            }}
            options={ACCOUNT_APPLICATION_STATUSES}
            placeholder="Choose a status"
            error={errors.of('applicationStatus')}
          />
        ) : null}
        {conditions.includes('applicantYoungerThan') ? (
          <TextField
            label="An applicant younger than (years)"
            optional
            inputMode="numeric"
            value={draft.applicantYoungerThan}
            onChange={(applicantYoungerThan) => {
              change({ applicantYoungerThan });
            }}
            error={errors.of('applicantYoungerThan')}
            hint="18 flags an application naming a minor; the age is counted each sync."
          />
        ) : null}
        {conditions.includes('applicantOlderThan') ? (
          <TextField
            label="An applicant older than (years)"
            optional
            inputMode="numeric"
            value={draft.applicantOlderThan}
            onChange={(applicantOlderThan) => {
              change({ applicantOlderThan });
            }}
            error={errors.of('applicantOlderThan')}
          />
        ) : null}
        {conditions.includes('citizenshipOutside') ? (
          <TextField
            label="An applicant's citizenship outside"
            optional
            value={draft.citizenshipOutside}
            onChange={(citizenshipOutside) => {
              change({ citizenshipOutside });
            }}
            error={errors.of('citizenshipOutside')}
            hint="Two-letter country codes, separated by commas: US, CA."
          />
        ) : null}
        {conditions.includes('sendStatus') ? (
          <SelectField
            label="Send status"
            value={draft.sendStatus}
            onChange={(sendStatus) => {
              change({ sendStatus });
            }}
            options={WEBHOOK_SEND_STATUSES}
            placeholder="Any status"
            error={errors.of('sendStatus')}
          />
        ) : null}
        {conditions.includes('attemptAtLeast') ? (
          <TextField
            label="Attempt number at or beyond"
            optional
            inputMode="numeric"
            value={draft.attemptAtLeast}
            onChange={(attemptAtLeast) => {
              change({ attemptAtLeast });
            }}
            error={errors.of('attemptAtLeast')}
            hint="The bank numbers attempts from 0: 3 flags the fourth attempt and later."
          />
        ) : null}
      </div>
      <div className="row">
        <Button type="submit" variant="primary" busy={busy}>
          Save rule
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </form>
  );
}
