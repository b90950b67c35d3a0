/**
 * Settings › Appearance › Theme: one radio group, drawn as three segments. Native radios, so
 * the group is one Tab stop and the arrow keys move (and choose) within it, as the radio
 * pattern its role announces; the choice applies at once.
 */
import { useId } from 'react';
import { useThemeStore, type ThemePreference } from '../../stores/theme.ts';
import './themeChoice.css';

const CHOICES: { value: ThemePreference; label: string }[] = [
  { value: 'system', label: 'Match the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

export function ThemeChoice() {
  const preference = useThemeStore((state) => state.preference);
  const setPreference = useThemeStore((state) => state.setPreference);
  const name = useId();
  return (
    <fieldset className="theme-choice">
      <legend className="visually-hidden">Theme</legend>
      {CHOICES.map((choice) => (
        <label key={choice.value} className="theme-choice-option">
          <input
            type="radio"
            name={name}
            value={choice.value}
            checked={preference === choice.value}
            onChange={() => {
              setPreference(choice.value);
            }}
          />
          <span>{choice.label}</span>
        </label>
      ))}
    </fieldset>
  );
}
