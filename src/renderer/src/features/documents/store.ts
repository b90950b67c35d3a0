/** Documents created from this app (history) and the one just created. */
import { create } from 'zustand';
import {
  shownField,
  type DocumentResponse,
  type DocumentCreateRequest,
  type FileResponse,
} from '../../../../shared/bank/index.ts';
import { api } from '../../lib/api.ts';
import { uiErrorOf } from '../../lib/errors.ts';
import { confirmWrite } from '../../stores/confirm.ts';
import { uploadFile } from '../../stores/files.ts';
import { toast } from '../../stores/toasts.ts';
import type { MediaType } from '../../components/FilePicker.tsx';
import type { HistoryState } from '../../components/HistoryPanel.tsx';

interface DocumentsState extends HistoryState<DocumentResponse> {
  profileId: string | null;
  historyAsOf: string | null;
  created: DocumentResponse | null;
  load: (profileId: string) => Promise<void>;
  create: (request: DocumentCreateRequest) => Promise<DocumentResponse | null>;
  upload: (contentType: MediaType, bytes: Uint8Array) => Promise<FileResponse>;
}

export const useDocumentsStore = create<DocumentsState>((set, get) => ({
  profileId: null,
  history: [],
  historyAsOf: null,
  historyLoading: false,
  historyError: null,
  created: null,
  async load(profileId) {
    if (get().profileId !== profileId) set({ profileId, created: null, history: [] });
    set({ historyLoading: true, historyError: null });
    try {
      const page = await api().documents.list({ profileId, limit: 100 });
      set({ history: page.rows, historyAsOf: page.asOf, historyLoading: false });
    } catch (reason) {
      set({ historyError: uiErrorOf(reason), historyLoading: false });
    }
  },
  async create(request) {
    const profileId = get().profileId;
    if (profileId === null) return null;
    const confirmation = await confirmWrite(`Create the document “${request.name}”`);
    if (confirmation === null) return null;
    const document = await api().documents.create({ profileId, request, ...confirmation });
    set({ created: document });
    toast('success', 'Document created', `${document.id} · ${shownField(document.name)}`);
    void get().load(profileId);
    return document;
  },
  upload(contentType, bytes) {
    return uploadFile(get().profileId, contentType, bytes);
  },
}));
