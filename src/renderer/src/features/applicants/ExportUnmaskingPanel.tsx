/**
 * Settings → Profiles → "Personal data in exports and reports" (issue 24, item 4): which classes
 * of applicants' personal fields the active profile's exports and review reports print in clear.
 * Nothing by default; the screen itself keeps masking (only a per-field Reveal shows a value).
 * Saving is written to the audit chain by main, with who changed it.
 */
import { useEffect, useState } from 'react';
import {
  DISCLOSURE_CLASSES,
  DISCLOSURE_CLASS_LABELS,
  disclosureText,
  type DisclosureClass,
} from '../../../../shared/personalData/exportDisclosure.ts';
import { Button } from '../../components/Button.tsx';
import { Panel } from '../../components/Page.tsx';
import { ErrorState, LoadingState } from '../../components/States.tsx';
import { api } from '../../lib/api.ts';
import { sentenceOf, uiErrorOf, type UiError } from '../../lib/errors.ts';
import { toast } from '../../stores/toasts.ts';
import './exportUnmasking.css';

/** What each class shows when it is masked, so the choice reads as what leaves the app. */
const MASKED_EXAMPLE: Record<DisclosureClass, string> = {
  date_of_birth: '•••• 1997',
  tax_id: '•••-••-6789',
  phone: '••••••1111',
  email: 'f•••@example.com',
  street_lines: '••••••',
};

function sameClasses(left: readonly DisclosureClass[], right: readonly DisclosureClass[]): boolean {
  return left.length === right.length && left.every((entry) => right.includes(entry));
}

export function ExportUnmaskingPanel({ profileId, profileName }: { profileId: string; profileName: string }) {
  const [saved, setSaved] = useState<DisclosureClass[] | null>(null);
  const [chosen, setChosen] = useState<DisclosureClass[]>([]);
  const [error, setError] = useState<UiError | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function load(): Promise<void> {
    try {
      const answer = await api().applicants.exportUnmasked({ profileId });
      setSaved(answer.classes);
      setChosen(answer.classes);
      setError(null);
    } catch (reason) {
      setError(uiErrorOf(reason));
    }
  }
  useEffect(() => {
    setSaved(null);
    void load();
    // Loaded again whenever the active profile changes.
  }, [profileId]);

  async function save(): Promise<void> {
    setBusy(true);
    setProblem(null);
    try {
      const answer = await api().applicants.setExportUnmasked({ profileId, classes: chosen });
      setSaved(answer.classes);
      setChosen(answer.classes);
      toast(
        'success',
        'Saved',
        `Exports and reports of ${profileName} show unmasked: ${disclosureText(answer.classes)}.`,
      );
    } catch (reason) {
      setProblem(sentenceOf(uiErrorOf(reason)));
    } finally {
      setBusy(false);
    }
  }

  const title = 'Personal data in exports and reports';
  if (error !== null) return <ErrorState what="The export setting" error={error} onRetry={() => void load()} />;
  if (saved === null) return <LoadingState label="Loading the export setting…" />;
  return (
    <Panel title={title}>
      <form
        className="stack export-unmasking"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <fieldset className="export-unmasking-fields">
          <legend>
            Applicants’ fields that exports and review reports of <strong>{profileName}</strong> show unmasked
          </legend>
          <p className="muted">
            Masked by default everywhere. The screen stays masked whatever is chosen here; each change is written to the
            audit log.
          </p>
          {DISCLOSURE_CLASSES.map((entry) => (
            <label key={entry} className="export-unmasking-choice">
              <input
                type="checkbox"
                checked={chosen.includes(entry)}
                onChange={(event) => {
                  const on = event.currentTarget.checked;
                  setChosen((current) =>
                    on
                      ? DISCLOSURE_CLASSES.filter((name) => name === entry || current.includes(name))
                      : current.filter((name) => name !== entry),
                  );
                }}
              />
              <span>{DISCLOSURE_CLASS_LABELS[entry]}</span>
              <span className="muted mono">masked: {MASKED_EXAMPLE[entry]}</span>
            </label>
          ))}
        </fieldset>
        {problem === null ? null : (
          <p className="field-error" role="alert">
            {problem}
          </p>
        )}
        <p className="muted" aria-live="polite">
          Now: {disclosureText(saved)} unmasked.
        </p>
        <div className="row">
          <Button type="submit" variant="primary" busy={busy} disabled={sameClasses(chosen, saved)}>
            Save
          </Button>
        </div>
      </form>
    </Panel>
  );
}
