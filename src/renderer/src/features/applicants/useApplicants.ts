/**
 * The applicants of the open application, and the fields revealed while it stays open. Reveals
 * live in this hook's state only: closing the drawer (or moving to another application, which
 * remounts the section) forgets them. Each one was written to the audit chain by the main
 * process before its value came back.
 */
import { useCallback, useEffect, useState } from 'react';
import type { NamedApplicant } from '../../../../shared/ipc/index.ts';
import type { PersonalField } from '../../../../shared/personalData/masking.ts';
import { api } from '../../lib/api.ts';
import { uiErrorOf, type UiError } from '../../lib/errors.ts';

export type RevealKey = `${string}|${PersonalField}`;

export function revealKeyOf(applicantId: string, field: PersonalField): RevealKey {
  return `${applicantId}|${field}`;
}

export interface ApplicantsOfApplication {
  rows: NamedApplicant[] | null;
  loading: boolean;
  error: UiError | null;
  revealed: ReadonlyMap<RevealKey, string | null>;
  /** The field being revealed (its request in flight), if any. */
  revealing: RevealKey | null;
  revealError: UiError | null;
  reveal: (applicantId: string, field: PersonalField) => Promise<boolean>;
  reload: () => void;
}

export function useApplicants(profileId: string, applicationId: string): ApplicantsOfApplication {
  const [rows, setRows] = useState<NamedApplicant[] | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<UiError | null>(null);
  const [revealed, setRevealed] = useState<ReadonlyMap<RevealKey, string | null>>(new Map());
  const [revealing, setRevealing] = useState<RevealKey | null>(null);
  const [revealError, setRevealError] = useState<UiError | null>(null);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let current = true;
    setLoading(true);
    setError(null);
    // Through a promise: a bridge without this domain (an older main process) is an error shown, not a crash.
    Promise.resolve()
      .then(() => api().applicants.ofApplication({ profileId, applicationId }))
      .then(
        (answer) => {
          if (!current) return;
          setRows(answer.rows);
          setLoading(false);
        },
        (reason: unknown) => {
          if (!current) return;
          setError(uiErrorOf(reason));
          setLoading(false);
        },
      );
    return () => {
      current = false;
    };
  }, [profileId, applicationId, generation]);

  const reveal = useCallback(
    async (applicantId: string, field: PersonalField): Promise<boolean> => {
      const key = revealKeyOf(applicantId, field);
      setRevealing(key);
      setRevealError(null);
      try {
        const answer = await api().applicants.reveal({ profileId, applicantId, field });
        setRevealed((before) => new Map(before).set(key, answer.value));
        return true;
      } catch (reason) {
        setRevealError(uiErrorOf(reason));
        return false;
      } finally {
        setRevealing(null);
      }
    },
    [profileId],
  );

  const reload = useCallback(() => {
    setGeneration((value) => value + 1);
  }, []);

  return { rows, loading, error, revealed, revealing, revealError, reveal, reload };
}
