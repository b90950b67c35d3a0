/**
 * Ctrl/Cmd+K: go to any screen, switch profile or theme, by typing a few letters.
 * ↑/↓ choose, Enter runs, Esc closes. Going to a screen moves focus to its heading and names it
 * in the window title (App's useScreenArrival), so the change is announced.
 */
import { useMemo, useState } from 'react';
import { Dialog } from '../components/Dialog.tsx';
import { reviewCommands } from '../features/review/paletteCommands.ts';
import { SCREENS } from '../lib/screens.ts';
import { useNavigationStore } from '../stores/navigation.ts';
import { useProfilesStore } from '../stores/profiles.ts';
import { useThemeStore } from '../stores/theme.ts';

interface Command {
  id: string;
  label: string;
  group: string;
  hint?: string;
  run: () => void;
}

/** Every word typed must start some word of the label, or appear in it. */
function matches(label: string, query: string): boolean {
  const text = label.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '')
    .every((word) => text.includes(word));
}

export function CommandPalette() {
  const open = useNavigationStore((state) => state.paletteOpen);
  if (!open) return null;
  return <Palette />;
}

function Palette() {
  const navigate = useNavigationStore((state) => state.navigate);
  const setPaletteOpen = useNavigationStore((state) => state.setPaletteOpen);
  const profiles = useProfilesStore((state) => state.profiles);
  const setActive = useProfilesStore((state) => state.setActive);
  const setPreference = useThemeStore((state) => state.setPreference);
  const [query, setQuery] = useState('');
  const [index, setIndex] = useState(0);
  const close = (): void => {
    setPaletteOpen(false);
  };

  const commands = useMemo<Command[]>(
    () => [
      ...SCREENS.map((screen) => ({
        id: `go-${screen.id}`,
        label: screen.label,
        group: 'Go to',
        hint: `G ${screen.key.toUpperCase()}`,
        run: () => {
          navigate(screen.id);
        },
      })),
      ...reviewCommands(),
      ...profiles.map((profile) => ({
        id: `profile-${profile.id}`,
        label: `Switch to ${profile.name}${profile.production ? ' (Production)' : ''}`,
        group: 'Profile',
        run: () => void setActive(profile.id),
      })),
      {
        id: 'theme-light',
        label: 'Light theme',
        group: 'Theme',
        run: () => {
          setPreference('light');
        },
      },
      {
        id: 'theme-dark',
        label: 'Dark theme',
        group: 'Theme',
        run: () => {
          setPreference('dark');
        },
      },
      {
        id: 'theme-system',
        label: 'Theme from the system',
        group: 'Theme',
        run: () => {
          setPreference('system');
        },
      },
    ],
    [navigate, profiles, setActive, setPreference],
  );
  const shown = commands.filter((command) => matches(`${command.group} ${command.label}`, query));
  const selected = Math.min(index, Math.max(0, shown.length - 1));

  const run = (command: Command | undefined): void => {
    if (command === undefined) return;
    close();
    command.run();
  };

  return (
    <Dialog title="Command palette" onClose={close}>
      <div className="palette">
        {/* The ARIA combobox pattern: focus stays in the input, which names the chosen option. */}
        <input
          className="palette-input"
          placeholder="Type a command or a screen…"
          role="combobox"
          aria-label="Command"
          aria-expanded="true"
          aria-autocomplete="list"
          aria-controls="palette-list"
          aria-activedescendant={shown[selected] === undefined ? undefined : `palette-${shown[selected].id}`}
          value={query}
          data-autofocus
          onChange={(event) => {
            setQuery(event.target.value);
            setIndex(0);
          }}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown') {
              event.preventDefault();
              setIndex((selected + 1) % Math.max(1, shown.length));
            } else if (event.key === 'ArrowUp') {
              event.preventDefault();
              setIndex((selected - 1 + shown.length) % Math.max(1, shown.length));
            } else if (event.key === 'Enter') {
              event.preventDefault();
              run(shown[selected]);
            }
          }}
        />
        <ul className="palette-list" id="palette-list" role="listbox" aria-label="Commands">
          {shown.length === 0 ? <li className="palette-empty">No command matches “{query}”.</li> : null}
          {shown.map((command, position) => (
            <li
              key={command.id}
              id={`palette-${command.id}`}
              role="option"
              aria-selected={position === selected}
              className={`palette-item${position === selected ? ' is-selected' : ''}`}
              onMouseEnter={() => {
                setIndex(position);
              }}
              onClick={() => {
                run(command);
              }}
            >
              <span className="palette-group">{command.group}</span>
              <span className="palette-label">{command.label}</span>
              {command.hint === undefined ? null : <kbd>{command.hint}</kbd>}
            </li>
          ))}
        </ul>
      </div>
    </Dialog>
  );
}
