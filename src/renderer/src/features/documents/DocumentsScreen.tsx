/** Documents: the create form, the document just created, and those created here before. */
import { useEffect } from 'react';
import { Properties } from '../../components/Drawer.tsx';
import { JsonView } from '../../components/JsonEditor.tsx';
import { Page, PageHeader, Panel } from '../../components/Page.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../components/States.tsx';
import { formatTimestamp } from '../../lib/time.ts';
import { useActiveProfileId } from '../../stores/profiles.ts';
import { DocumentForm } from './DocumentForm.tsx';
import { useDocumentsStore } from './store.ts';

export function DocumentsScreen() {
  const profileId = useActiveProfileId();
  const store = useDocumentsStore();
  const { load } = store;
  useEffect(() => {
    if (profileId !== null) void load(profileId);
  }, [profileId, load]);

  return (
    <Page>
      <div className="page-scroll stack">
        <PageHeader
          title="Documents"
          description="Create a document record that points to an uploaded file, such as an identity document."
        />
        <div className="columns">
          <Panel title="New document">
            <DocumentForm onSubmit={store.create} upload={store.upload} />
          </Panel>
          <div className="stack">
            {store.created === null ? null : (
              <Panel title="Created" actions={<span className="mono muted">{store.created.id}</span>}>
                <Properties
                  items={[
                    ['Type', store.created.type],
                    ['Name', store.created.name],
                    [
                      'File',
                      <span key="f" className="mono">
                        {store.created.file_id}
                      </span>,
                    ],
                    ['Created', formatTimestamp(store.created.created_at)],
                    [
                      'Bank',
                      <span key="b" className="mono">
                        {store.created.bank_id}
                      </span>,
                    ],
                    [
                      'Organization',
                      <span key="o" className="mono">
                        {store.created.organization_id}
                      </span>,
                    ],
                  ]}
                />
                <div style={{ marginTop: 12 }}>
                  <JsonView value={store.created.fields} />
                </div>
              </Panel>
            )}
            <Panel title="Created from this app" className="panel-flush">
              {store.historyError !== null ? (
                <ErrorState
                  what="Document history"
                  error={store.historyError}
                  onRetry={() => profileId !== null && void load(profileId)}
                />
              ) : store.historyLoading && store.history.length === 0 ? (
                <LoadingState />
              ) : store.history.length === 0 ? (
                <EmptyState title="No documents yet">Documents you create appear here.</EmptyState>
              ) : (
                <table className="table" aria-label="Documents created from this app">
                  <thead>
                    <tr>
                      <th>Document</th>
                      <th>Type</th>
                      <th>Name</th>
                      <th>File</th>
                      <th>Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {store.history.map((document) => (
                      <tr key={document.id}>
                        <td className="mono">{document.id}</td>
                        <td>{document.type}</td>
                        <td className="truncate" style={{ maxWidth: 200 }}>
                          {document.name}
                        </td>
                        <td className="mono muted">{document.file_id}</td>
                        <td className="tabular muted">{formatTimestamp(document.created_at)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </Panel>
          </div>
        </div>
      </div>
    </Page>
  );
}
