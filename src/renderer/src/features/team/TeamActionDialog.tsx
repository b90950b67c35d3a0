/**
 * The form behind the team actions that need more than a click: propose (a disposition, and a
 * note), reject (a note saying why: required), assign (to which officer), and a proposal on an
 * item not yet in any queue (its kind and reference too). Submitting queues the action; the
 * dialog closes only when it was queued, so a refusal leaves what the officer typed.
 */
import { useState, type SyntheticEvent } from 'react';
import { REVIEW_KINDS, type ReviewKind } from '../../../../shared/review/reviewTerms.ts';
import { TEAM_DISPOSITION_NAMES } from '../../../../shared/ipc/index.ts';
import { Button } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { SelectField, TextField } from '../../components/Field.tsx';
import { useTeamStore, type TeamActionInput } from './teamStore.ts';
import { KIND_LABELS } from './teamWords.ts';

export type TeamDialogRequest =
  | { action: 'propose'; kind: ReviewKind; ref: string }
  | { action: 'propose-new' }
  | { action: 'reject'; kind: ReviewKind; ref: string; proposal: string }
  | { action: 'assign'; kind: ReviewKind; ref: string };

const TITLES: Record<TeamDialogRequest['action'], string> = {
  propose: 'Propose a disposition',
  'propose-new': 'Propose on an item',
  reject: 'Reject the proposal',
  assign: 'Assign to an officer',
};

export function TeamActionDialog({ request, onClose }: { request: TeamDialogRequest; onClose: () => void }) {
  const act = useTeamStore((state) => state.act);
  const members = useTeamStore((state) => state.members);
  const [kind, setKind] = useState<string>('application');
  const [ref, setRef] = useState('');
  const [disposition, setDisposition] = useState<string>('cleared');
  const [note, setNote] = useState('');
  const [assignee, setAssignee] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: SyntheticEvent): Promise<void> {
    event.preventDefault();
    if (busy) return;
    const found: Record<string, string> = {};
    const item =
      request.action === 'propose-new'
        ? { kind: REVIEW_KINDS.find((candidate) => candidate === kind) ?? 'application', ref: ref.trim() }
        : { kind: request.kind, ref: request.ref };
    if (item.ref === '') found['ref'] = 'Enter the reference of the item.';
    if (request.action === 'reject' && note.trim() === '') found['note'] = 'Say why the proposal is rejected.';
    if (request.action === 'assign' && assignee === '') found['assignee'] = 'Choose an officer.';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const trimmed = note.trim();
    let input: TeamActionInput;
    let done: string;
    if (request.action === 'assign') {
      input = { ...item, action: 'assign', assignee };
      done = `Assigned to ${assignee}`;
    } else if (request.action === 'reject') {
      input = { ...item, action: 'reject', note: trimmed };
      done = 'Proposal rejected';
    } else {
      const chosen = TEAM_DISPOSITION_NAMES.find((candidate) => candidate === disposition) ?? 'cleared';
      input = { ...item, action: 'propose', disposition: chosen, ...(trimmed === '' ? {} : { note: trimmed }) };
      done = `Proposed ${chosen}`;
    }
    setBusy(true);
    const queued = await act(input, done);
    setBusy(false);
    if (queued) onClose();
  }

  const formId = `team-action-${request.action}`;
  return (
    <Dialog
      title={TITLES[request.action]}
      onClose={onClose}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variant="primary" busy={busy}>
            {request.action === 'reject' ? 'Reject' : request.action === 'assign' ? 'Assign' : 'Propose'}
          </Button>
        </>
      }
    >
      <form id={formId} className="stack" onSubmit={(event) => void submit(event)} noValidate>
        {request.action === 'propose-new' ? (
          <>
            <SelectField
              label="Kind"
              value={kind}
              onChange={setKind}
              options={REVIEW_KINDS.map((value) => ({ value, label: KIND_LABELS[value] }))}
            />
            <TextField
              label="Reference"
              value={ref}
              onChange={setRef}
              error={errors['ref']}
              hint="The item's reference as the team names it, e.g. app_123"
              spellCheck={false}
              autoComplete="off"
            />
          </>
        ) : (
          <p className="muted">
            {KIND_LABELS[request.kind]} <code className="mono">{request.ref}</code>
            {request.action === 'reject' ? ` · proposed ${request.proposal}` : ''}
          </p>
        )}
        {request.action === 'propose' || request.action === 'propose-new' ? (
          <SelectField
            label="Disposition"
            value={disposition}
            onChange={setDisposition}
            options={TEAM_DISPOSITION_NAMES}
            hint="Clearing a flagged or escalated item, and closing an escalation, wait for a second officer."
          />
        ) : null}
        {request.action === 'assign' ? (
          <SelectField
            label="Officer"
            value={assignee}
            onChange={setAssignee}
            placeholder="Choose…"
            error={errors['assignee']}
            options={(members ?? [])
              .filter((member) => member.active)
              .map((member) => ({ value: member.login, label: `${member.displayName} (${member.login})` }))}
          />
        ) : (
          <TextField
            label="Note"
            value={note}
            onChange={setNote}
            error={errors['note']}
            optional={request.action !== 'reject'}
            hint="Sealed with the team key: the server never reads it."
            maxLength={4_000}
          />
        )}
      </form>
    </Dialog>
  );
}
