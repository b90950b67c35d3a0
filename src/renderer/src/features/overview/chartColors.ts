/**
 * The chart colours of the current theme. The chart library writes colours as SVG attributes,
 * where CSS variables do not apply, so the theme's tokens are read once per theme change and
 * handed to it: the charts follow light and dark (and any token change) like the rest of the app.
 */
import { createElement, useMemo, type ReactNode } from 'react';
import { useThemeStore } from '../../stores/theme.ts';

export interface ChartColors {
  credit: string;
  debit: string;
  hold: string;
  cleared: string;
  flagged: string;
  escalated: string;
  waiting: string;
  axis: string;
  grid: string;
  text: string;
}

const TOKENS: Record<keyof ChartColors, string> = {
  credit: '--positive',
  debit: '--negative',
  hold: '--warning',
  cleared: '--positive',
  flagged: '--warning',
  escalated: '--negative',
  waiting: '--border-strong',
  axis: '--text-muted',
  grid: '--border',
  text: '--text',
};

export function useChartColors(): ChartColors {
  const theme = useThemeStore((state) => state.theme);
  // The store applies data-theme on <html> before it changes `theme`: read the tokens again then.
  return useMemo(readColors, [theme]);
}

function readColors(): ChartColors {
  const style = getComputedStyle(document.documentElement);
  return Object.fromEntries(
    Object.entries(TOKENS).map(([name, token]) => [name, style.getPropertyValue(token).trim() || 'currentColor']),
  ) as unknown as ChartColors;
}

/** Legend entries in the text colour (the swatch carries the series colour; pale text would fail contrast). */
export function legendText(color: string): (value: string) => ReactNode {
  return (value) => createElement('span', { style: { color } }, value);
}
