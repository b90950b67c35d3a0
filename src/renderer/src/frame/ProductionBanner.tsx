/** A Production profile is unmistakable: a red band across the whole window, always visible. */
import { useActiveProfile } from '../stores/profiles.ts';

export function ProductionBanner() {
  const profile = useActiveProfile();
  if (profile?.production !== true) return null;
  return (
    <div className="production-banner" role="alert" aria-label={`Production profile ${profile.name}`}>
      <strong>PRODUCTION</strong>
      <span>
        {profile.name} · {profile.baseUrl} — changes reach the real bank; every write asks for confirmation.
      </span>
    </div>
  );
}
