/**
 * What is wrong with the data folder's stores, across the top of the window (issue 34): a store
 * open read-only, a locked record, a dropped cache key. Asked once when the window opens: these
 * are decided when the stores open, and last until the app is restarted.
 */
import { useEffect, useState } from 'react';
import type { StoreProblem } from '../../../shared/ipc/domains/app.ts';
import { api } from '../lib/api.ts';

export function StoreBanner() {
  const [problems, setProblems] = useState<StoreProblem[]>([]);
  useEffect(() => {
    let current = true;
    api()
      .app.storeProblems()
      .then(
        (answer) => {
          if (current) setProblems(answer.problems);
        },
        () => {
          // The services' own failure is shown by the screens that need them.
        },
      );
    return () => {
      current = false;
    };
  }, []);
  if (problems.length === 0) return null;
  return (
    <div className="store-banner" role="alert">
      {problems.map((problem) => (
        <p key={`${problem.store}: ${problem.sentence}`} className={`store-banner-${problem.severity}`}>
          {problem.sentence}
        </p>
      ))}
    </div>
  );
}
