/** Card art: upload art for a card product to the processor's toolkit, and the history. */
import type { CardArtUpload } from '../../../../shared/ipc/index.ts';
import { Badge } from '../../components/Badge.tsx';
import { HistoryPanel, type HistoryView } from '../../components/HistoryPanel.tsx';
import { Page, PageHeader, Panel } from '../../components/Page.tsx';
import { ErrorState } from '../../components/States.tsx';
import { formatTimestamp } from '../../lib/time.ts';
import { useActiveProfileLoad } from '../../stores/profiles.ts';
import { CardArtForm } from './CardArtForm.tsx';
import { useCardArtStore } from './store.ts';

const HISTORY: HistoryView<CardArtUpload> = {
  title: 'Uploaded from this app',
  what: 'Card art history',
  label: 'Card art uploaded from this app',
  emptyTitle: 'No card art uploaded yet',
  emptyBody: 'Uploads you make appear here.',
  columns: ['Card product', 'Asset', 'File', 'Uploaded'],
  cells: (upload) => (
    <>
      <td className="mono">{upload.cardProductId}</td>
      <td>
        <Badge tone="accent">{upload.assetType}</Badge>
      </td>
      <td className="mono muted">{upload.fileId}</td>
      <td className="tabular muted wraps">{formatTimestamp(upload.uploadedAt)}</td>
    </>
  ),
};

export function CardArtScreen() {
  const store = useCardArtStore();
  // One load fetches both the card products and the history, so both retry with it.
  const retry = useActiveProfileLoad(store.load);
  return (
    <Page>
      <div className="page-scroll stack">
        <PageHeader
          title="Card art"
          description="Upload the art of a card product (front, back or thumbnail, as PNG) to the card processor's toolkit."
        />
        <div className="columns">
          <Panel title="Upload">
            {store.productsError === null ? null : (
              <ErrorState what="Card products" error={store.productsError} onRetry={retry} />
            )}
            <CardArtForm
              key={store.products.length}
              products={store.products}
              onSubmit={store.submit}
              upload={store.upload}
            />
          </Panel>
          <HistoryPanel view={HISTORY} history={store} onRetry={retry} />
        </div>
      </div>
    </Page>
  );
}
