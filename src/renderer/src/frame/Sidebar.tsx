/** Navigation between screens, grouped by who uses them. */
import { Icon, type IconName } from '../components/Icon.tsx';
import { SCREENS, type ScreenId } from '../lib/screens.ts';
import { useNavigationStore } from '../stores/navigation.ts';

const ICONS: Record<ScreenId, IconName> = {
  'pending-transactions': 'transactions',
  'account-applications': 'applications',
  documents: 'documents',
  'card-art': 'card',
  'review-queue': 'check',
  'team-review': 'team',
  overview: 'chart',
  webhooks: 'webhooks',
  'webhook-sends': 'sends',
  listener: 'listener',
  settings: 'settings',
};

const GROUPS = ['Operations', 'Developers', 'App'] as const;

export function Sidebar() {
  const screen = useNavigationStore((state) => state.screen);
  const navigate = useNavigationStore((state) => state.navigate);
  return (
    <nav className="sidebar" aria-label="Screens">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          L
        </span>
        <span className="brand-name">Ledgerdesk</span>
      </div>
      {GROUPS.map((group) => (
        <div className="nav-group" key={group}>
          {group === 'App' ? null : <div className="nav-group-label">{group}</div>}
          <ul>
            {SCREENS.filter((entry) => entry.group === group).map((entry) => (
              <li key={entry.id}>
                <a
                  // The window's own path before the route: a link that opens the screen in a new
                  // tab too, not a same-page anchor to an id that is not there (HTML_CodeSniffer's
                  // G1 NoSuchID, issue 38). No query: web mode's one-time token stays out of links.
                  href={`${location.pathname}#/${entry.id}`}
                  className={`nav-item${entry.id === screen ? ' is-active' : ''}`}
                  aria-current={entry.id === screen ? 'page' : undefined}
                  // A small or zoomed window shows only the icons: the name as a tooltip.
                  title={entry.label}
                  onClick={(event) => {
                    event.preventDefault();
                    navigate(entry.id);
                  }}
                >
                  <Icon name={ICONS[entry.id]} />
                  <span>{entry.label}</span>
                  <kbd className="nav-key" aria-hidden="true">
                    G {entry.key.toUpperCase()}
                  </kbd>
                </a>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
