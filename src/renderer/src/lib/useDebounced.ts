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
