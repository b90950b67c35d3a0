/**
 * A listener arrival's one delivery label in its few words, the same in the window, the
 * terminal and `--json`'s `label.text` (issue 38): `attempt 3`, `new event`, `replay`, `edited
 * replay`.
 */
export interface LabelledArrival {
  kind: 'new_event' | 'retry' | 'replay' | 'edited_replay';
  attempt: number;
}

export function arrivalLabelWords(label: LabelledArrival): string {
  switch (label.kind) {
    case 'retry':
      return `attempt ${String(label.attempt)}`;
    case 'new_event':
      return 'new event';
    case 'replay':
      return 'replay';
    case 'edited_replay':
      return 'edited replay';
  }
}
