/**
 * The review report of a profile over a date range, saved where the user chooses: PDF
 * (printed by Chromium in the desktop app), a printable HTML page, or CSV. It lists every
 * flagged, escalated and changed item with its note, history and record, and the audit
 * chain's head that verifies it.
 */
import { useId, useState } from 'react';
import { Button } from '../../components/Button.tsx';
import { DateField } from '../../components/DateField.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { SelectField } from '../../components/Field.tsx';
import { api } from '../../lib/api.ts';
import { sentenceOf, uiErrorOf } from '../../lib/errors.ts';
import { useProfilesStore } from '../../stores/profiles.ts';
import { toast } from '../../stores/toasts.ts';

const FORMATS = [
  { value: 'pdf', label: 'PDF', hint: 'printed by Chromium, ready to file' },
  { value: 'html', label: 'HTML', hint: 'a page to open or print' },
  { value: 'csv', label: 'CSV', hint: 'one line per item, amounts as numbers, for a spreadsheet' },
] as const;

type Format = (typeof FORMATS)[number]['value'];

const PAPERS = [
  { value: 'a4', label: 'A4' },
  { value: 'letter', label: 'US Letter' },
] as const;

type Paper = (typeof PAPERS)[number]['value'];

/** The paper of this machine's region: Letter in the Americas that use it, A4 elsewhere. */
function usualPaper(): Paper {
  return /[-_](US|CA|MX|PH|CL|CO|VE|GT|CR|PA|DO|PR|SV|NI|HN|BO)\b/i.test(navigator.language) ? 'letter' : 'a4';
}

export function ReportDialog({ profileId, onClose }: { profileId: string; onClose: () => void }) {
  const profiles = useProfilesStore((state) => state.profiles);
  const [chosen, setChosen] = useState(profileId);
  const [fromDate, setFromDate] = useState('');
  const [toDate, setToDate] = useState('');
  const [format, setFormat] = useState<Format>('pdf');
  const [paper, setPaper] = useState<Paper>(usualPaper);
  const paperId = useId();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const formatId = useId();
  const reversed = fromDate !== '' && toDate !== '' && toDate <= fromDate;

  async function save(): Promise<void> {
    if (reversed) return;
    setBusy(true);
    setProblem(null);
    try {
      const saved = await api().reviews.saveReport({
        profileId: chosen,
        format,
        paper,
        // The report's times are local to this window, each with its zone.
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        ...(fromDate === '' ? {} : { fromDate }),
        ...(toDate === '' ? {} : { toDate }),
      });
      if (saved.saved) {
        toast(
          'success',
          `Review report saved (${saved.rows.toLocaleString('en-US')} ${saved.rows === 1 ? 'item' : 'items'})`,
          saved.path ?? undefined,
        );
        onClose();
      }
    } catch (reason) {
      setProblem(sentenceOf(uiErrorOf(reason)));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      title="Write the review report"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" busy={busy} disabled={reversed} onClick={() => void save()}>
            Save {FORMATS.find((entry) => entry.value === format)?.label}…
          </Button>
        </>
      }
    >
      <div className="stack">
        <p className="muted">
          Counts by state and kind, then every flagged, escalated and changed item with its note, its history and the
          record, and the audit log verified with its chain head. Reviews are counted by when they last moved.
        </p>
        <SelectField
          label="Profile"
          value={chosen}
          onChange={setChosen}
          options={profiles.map((profile) => ({ value: profile.id, label: profile.name }))}
        />
        <div className="row review-report-dates">
          <DateField
            label="From"
            optional
            value={fromDate}
            onChange={setFromDate}
            {...(toDate === '' ? {} : { max: toDate })}
          />
          <DateField
            label="To (exclusive)"
            optional
            value={toDate}
            onChange={setToDate}
            error={reversed ? 'must be after From' : undefined}
            {...(fromDate === '' ? {} : { min: fromDate })}
          />
        </div>
        <fieldset className="review-dispositions">
          <legend className="field-label">Format</legend>
          {FORMATS.map((entry) => (
            <label key={entry.value} className="review-disposition">
              <input
                type="radio"
                name={`${formatId}-format`}
                value={entry.value}
                checked={format === entry.value}
                onChange={() => {
                  setFormat(entry.value);
                }}
              />
              {entry.label} <span className="muted">— {entry.hint}</span>
            </label>
          ))}
        </fieldset>
        {format === 'csv' ? null : (
          <fieldset className="review-dispositions">
            <legend className="field-label">Paper</legend>
            {PAPERS.map((entry) => (
              <label key={entry.value} className="review-disposition">
                <input
                  type="radio"
                  name={`${paperId}-paper`}
                  value={entry.value}
                  checked={paper === entry.value}
                  onChange={() => {
                    setPaper(entry.value);
                  }}
                />
                {entry.label}
              </label>
            ))}
          </fieldset>
        )}
        {problem === null ? null : (
          <p className="field-error" role="alert">
            {problem}
          </p>
        )}
      </div>
    </Dialog>
  );
}
