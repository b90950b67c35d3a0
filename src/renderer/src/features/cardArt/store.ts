/** Card art: the card products to choose from, uploads made from this app, submitting one. */
import { create } from 'zustand';
import type { CardArtUploadRequest, CardProductResponse, FileResponse } from '../../../../shared/bank/index.ts';
import type { CardArtUpload } from '../../../../shared/ipc/index.ts';
import { api } from '../../lib/api.ts';
import { uiErrorOf, type UiError } from '../../lib/errors.ts';
import { confirmWrite } from '../../stores/confirm.ts';
import { uploadFile } from '../../stores/files.ts';
import { toast } from '../../stores/toasts.ts';
import type { MediaType } from '../../components/FilePicker.tsx';
import type { HistoryState } from '../../components/HistoryPanel.tsx';

/** One load fetches the card products and the history together: `historyLoading` is that load. */
interface CardArtState extends HistoryState<CardArtUpload> {
  profileId: string | null;
  products: CardProductResponse[];
  productsError: UiError | null;
  load: (profileId: string) => Promise<void>;
  submit: (cardProductId: string, request: CardArtUploadRequest) => Promise<CardArtUpload | null>;
  upload: (contentType: MediaType, bytes: Uint8Array) => Promise<FileResponse>;
}

export const useCardArtStore = create<CardArtState>((set, get) => ({
  profileId: null,
  products: [],
  productsError: null,
  history: [],
  historyError: null,
  historyLoading: false,
  async load(profileId) {
    set({ profileId, historyLoading: true });
    const [products, history] = await Promise.allSettled([
      api().cardArt.products({ profileId }),
      api().cardArt.list({ profileId, limit: 100 }),
    ]);
    if (get().profileId !== profileId) return;
    set({
      historyLoading: false,
      products: products.status === 'fulfilled' ? products.value.rows : [],
      productsError: products.status === 'rejected' ? uiErrorOf(products.reason) : null,
      history: history.status === 'fulfilled' ? history.value.rows : [],
      historyError: history.status === 'rejected' ? uiErrorOf(history.reason) : null,
    });
  },
  async submit(cardProductId, request) {
    const profileId = get().profileId;
    if (profileId === null) return null;
    const confirmation = await confirmWrite(`Upload the ${request.asset_type} art of ${cardProductId}`);
    if (confirmation === null) return null;
    const uploaded = await api().cardArt.upload({ profileId, cardProductId, request, ...confirmation });
    toast('success', 'Card art uploaded', `${uploaded.assetType} of ${uploaded.cardProductId}`);
    void get().load(profileId);
    return uploaded;
  },
  upload(contentType, bytes) {
    return uploadFile(get().profileId, contentType, bytes);
  },
}));
