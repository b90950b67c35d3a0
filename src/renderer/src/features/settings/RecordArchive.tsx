/**
 * Settings → Record → the archive (issue 34, item 6): the fingerprint of the key the record signs
 * its archives with (to read out to an auditor who verifies one), "Export an archive…" (its notes
 * sealed to the recovery key, and to a passphrase when one is typed) and "Verify an archive…" (a
 * file's verdict in words, as `ledger audit verify --archive FILE` gives it).
 */
import { useCallback, useEffect, useState } from 'react';
import type { ArchiveVerificationView } from '../../../../shared/ipc/domains/record.ts';
import { Button } from '../../components/Button.tsx';
import { Properties } from '../../components/Drawer.tsx';
import { TextField } from '../../components/Field.tsx';
import { api } from '../../lib/api.ts';
import { sentenceOf, uiErrorOf } from '../../lib/errors.ts';
import { exportArchive, verdictOf } from './recordArchiveActions.ts';

export function RecordArchive() {
  const [fingerprint, setFingerprint] = useState<string | null>(null);
  const [passphrase, setPassphrase] = useState('');
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState<'export' | 'verify' | null>(null);
  const [verdict, setVerdict] = useState<{ ok: boolean; text: string } | null>(null);

  const load = useCallback(async () => {
    try {
      setFingerprint((await api().record.signingKey({})).fingerprint);
    } catch {
      setFingerprint(null);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const exportNow = async () => {
    setBusy('export');
    const saved = await exportArchive(null, passphrase === '' ? null : passphrase);
    setBusy(null);
    if (saved !== null) {
      setPath(saved);
      setPassphrase('');
      await load();
    }
  };

  const verify = async () => {
    setBusy('verify');
    try {
      const answer: ArchiveVerificationView = await api().record.verifyArchive({ path });
      setVerdict({ ok: answer.ok, text: verdictOf(answer) });
    } catch (reason) {
      setVerdict({ ok: false, text: sentenceOf(uiErrorOf(reason)) });
    } finally {
      setBusy(null);
    }
  };

  const tooShort = passphrase !== '' && [...new Intl.Segmenter().segment(passphrase)].length < 12;
  return (
    <div className="stack">
      <h3>Archive</h3>
      <p>
        One signed file of the whole record that anyone can verify without Ledgerdesk&apos;s keychain; its notes open
        with the recovery key, or with the passphrase typed here.
      </p>
      <Properties items={[['Signing key', fingerprint ?? 'made at the first export']]} />
      <TextField
        label="Archive passphrase"
        optional
        type="password"
        autoComplete="new-password"
        hint="At least 12 characters. For an auditor who has no recovery key; give it to them apart from the file."
        value={passphrase}
        error={tooShort ? 'At least 12 characters.' : undefined}
        onChange={setPassphrase}
      />
      <div className="table-actions">
        <Button size="sm" busy={busy === 'export'} disabled={tooShort} onClick={() => void exportNow()}>
          Export an archive…
        </Button>
      </div>
      <TextField label="Archive to verify" hint="The archive file's full path." value={path} onChange={setPath} />
      <div className="table-actions">
        <Button size="sm" busy={busy === 'verify'} disabled={path.trim() === ''} onClick={() => void verify()}>
          Verify an archive…
        </Button>
      </div>
      {verdict === null ? null : (
        <p role="status" className={verdict.ok ? undefined : 'field-error'}>
          {verdict.text}
        </p>
      )}
    </div>
  );
}
