import { useEffect, useRef, useState } from 'react';

/** A text field's own value, passed on after the user pauses typing. */
export function useDebouncedText(
  value: string,
  onSettle: (value: string) => void,
  ms = 250,
): [string, (value: string) => void] {
  const [text, setText] = useState(value);
  const settle = useRef(onSettle);
  settle.current = onSettle;
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return undefined;
    }
    const timer = setTimeout(() => {
      settle.current(text);
    }, ms);
    return () => {
      clearTimeout(timer);
    };
  }, [text, ms]);
  return [text, setText];
}

/** Runs `effect` when a sync job moves to done (to reload the cached list it filled). */
export function useOnTransition<State>(state: State, to: State, effect: () => void): void {
  const previous = useRef(state);
  const run = useRef(effect);
  run.current = effect;
  useEffect(() => {
    if (previous.current !== to && state === to) run.current();
    previous.current = state;
  }, [state, to]);
}

/** How often a list being synced is read again while rows keep arriving. */
const RELOAD_WHILE_SYNCING_MS = 1500;

/**
 * While a sync writes new rows, the list it fills is read again now and then (its rows standing
 * in meanwhile: PagedRows' stand-in), so the rows appear and update in place as they arrive,
 * the first sync too, instead of a list that shows nothing until the end. `written` is the job's
 * count of rows written so far; nothing is read again while it does not move.
 */
export function useReloadWhileSyncing(
  running: boolean,
  written: number | undefined,
  reload: () => void,
  everyMs = RELOAD_WHILE_SYNCING_MS,
): void {
  const run = useRef(reload);
  run.current = reload;
  const shown = useRef(written ?? 0);
  const last = useRef(0);
  useEffect(() => {
    if (!running || written === undefined || written <= shown.current) return undefined;
    const wait = Math.max(0, last.current + everyMs - Date.now());
    const timer = setTimeout(() => {
      shown.current = written;
      last.current = Date.now();
      run.current();
    }, wait);
    return () => {
      clearTimeout(timer);
    };
  }, [running, written, everyMs]);
  useEffect(() => {
    if (!running) shown.current = 0;
  }, [running]);
}
