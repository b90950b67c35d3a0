/** Card art: upload art for a card product to the processor's toolkit, and the history. */
import { useEffect } from 'react';
import { Page, PageHeader, Panel } from '../../components/Page.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../components/States.tsx';
import { Badge } from '../../components/Badge.tsx';
import { formatTimestamp } from '../../lib/time.ts';
import { useActiveProfileId } from '../../stores/profiles.ts';
import { CardArtForm } from './CardArtForm.tsx';
import { useCardArtStore } from './store.ts';

export function CardArtScreen() {
  const profileId = useActiveProfileId();
  const store = useCardArtStore();
  const { load } = store;
  useEffect(() => {
    if (profileId !== null) void load(profileId);
  }, [profileId, load]);
  const retry = (): void => {
    if (profileId !== null) void load(profileId);
  };
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
          <Panel title="Uploaded from this app" className="panel-flush">
            {store.historyError !== null ? (
              <ErrorState what="Card art history" error={store.historyError} onRetry={retry} />
            ) : store.loading && store.history.length === 0 ? (
              <LoadingState />
            ) : store.history.length === 0 ? (
              <EmptyState title="No card art uploaded yet">Uploads you make appear here.</EmptyState>
            ) : (
              <table className="table" aria-label="Card art uploaded from this app">
                <thead>
                  <tr>
                    <th>Card product</th>
                    <th>Asset</th>
                    <th>File</th>
                    <th>Uploaded</th>
                  </tr>
                </thead>
                <tbody>
                  {store.history.map((upload) => (
                    <tr key={upload.id}>
                      <td className="mono">{upload.cardProductId}</td>
                      <td>
                        <Badge tone="accent">{upload.assetType}</Badge>
                      </td>
                      <td className="mono muted">{upload.fileId}</td>
                      <td className="tabular muted">{formatTimestamp(upload.uploadedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Panel>
        </div>
      </div>
    </Page>
  );
}
