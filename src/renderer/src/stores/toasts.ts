/** Short notices in the corner: what just happened, or what went wrong and what to do. */
import { create } from 'zustand';

export type ToastTone = 'success' | 'error' | 'info' | 'warning';

interface Toast {
  id: number;
  tone: ToastTone;
  title: string;
  body?: string;
}

interface ToastState {
  toasts: Toast[];
  show: (toast: Omit<Toast, 'id'>, durationMs?: number) => number;
  dismiss: (id: number) => void;
}

let nextId = 1;
const MAX_TOASTS = 4;

export const useToastStore = create<ToastState>((set, get) => ({
  toasts: [],
  show(toast, durationMs = toast.tone === 'error' ? 8000 : 4000) {
    const id = nextId;
    nextId += 1;
    set({ toasts: [...get().toasts, { ...toast, id }].slice(-MAX_TOASTS) });
    if (durationMs > 0)
      setTimeout(() => {
        get().dismiss(id);
      }, durationMs);
    return id;
  },
  dismiss(id) {
    set({ toasts: get().toasts.filter((toast) => toast.id !== id) });
  },
}));

export function toast(tone: ToastTone, title: string, body?: string): void {
  useToastStore.getState().show(body === undefined ? { tone, title } : { tone, title, body });
}
