/**
 * Beside every sentence that says the local sandbox bank is not running ("… Restart it from
 * Settings; cached data stays available."): the way there, as a button that opens Settings ›
 * Profiles with focus on Restart. Renders nothing for any other sentence.
 */
import { pointsToSandboxRestart } from '../../../../shared/ipc/index.ts';
import { Button } from '../../components/Button.tsx';
import { goToSandboxRestart } from './sandboxBankStore.ts';
import './sandboxBank.css';

export function SandboxRestartLink({
  sentence,
  label = 'Restart it in Settings',
}: {
  sentence: string | null | undefined;
  label?: string;
}) {
  if (!pointsToSandboxRestart(sentence)) return null;
  return (
    <Button size="sm" icon="refresh" className="sandbox-restart-link" onClick={goToSandboxRestart}>
      {label}
    </Button>
  );
}
