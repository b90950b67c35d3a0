/** Documents: the create form, the document just created, and those created here before. */
import type { DocumentResponse } from '../../../../shared/bank/index.ts';
import { BankValue } from '../../components/BankValue.tsx';
import { Properties } from '../../components/Drawer.tsx';
import { HistoryPanel, type HistoryView } from '../../components/HistoryPanel.tsx';
import { JsonView } from '../../components/JsonEditor.tsx';
import { Page, PageHeader, Panel } from '../../components/Page.tsx';
import { formatTimestamp } from '../../lib/time.ts';
import { useActiveProfileLoad } from '../../stores/profiles.ts';
import { DocumentForm } from './DocumentForm.tsx';
import { useDocumentsStore } from './store.ts';

const HISTORY: HistoryView<DocumentResponse> = {
  title: 'Created from this app',
  what: 'Document history',
  label: 'Documents created from this app',
  emptyTitle: 'No documents yet',
  emptyBody: 'Documents you create appear here.',
  // The name over the id in one column, and a time that may wrap: the table fits beside the
  // form at the app's default window size (1280 × 800) without scrolling sideways.
  columns: ['Document', 'Type', 'File', 'Created'],
  cells: (document) => (
    <>
      <td>
        <span className="cell-stacked">
          <span className="truncate" title={document.name ?? undefined}>
            <BankValue value={document.name} />
          </span>
          <span className="mono muted">{document.id}</span>
        </span>
      </td>
      <td>
        <BankValue value={document.type} />
      </td>
      <td className="mono muted">
        <BankValue value={document.file_id} />
      </td>
      <td className="tabular muted wraps">
        <BankValue value={document.created_at}>{formatTimestamp}</BankValue>
      </td>
    </>
  ),
};

export function DocumentsScreen() {
  const store = useDocumentsStore();
  const retry = useActiveProfileLoad(store.load);

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
                    ['Type', <BankValue key="t" value={store.created.type} />],
                    ['Name', <BankValue key="n" value={store.created.name} />],
                    [
                      'File',
                      <span key="f" className="mono">
                        <BankValue value={store.created.file_id} />
                      </span>,
                    ],
                    [
                      'Created',
                      <BankValue key="c" value={store.created.created_at}>
                        {formatTimestamp}
                      </BankValue>,
                    ],
                    [
                      'Bank',
                      <span key="b" className="mono">
                        <BankValue value={store.created.bank_id} />
                      </span>,
                    ],
                    [
                      'Organization',
                      <span key="o" className="mono">
                        <BankValue value={store.created.organization_id} />
                      </span>,
                    ],
                  ]}
                />
                <div style={{ marginTop: 12 }}>
                  {store.created.fields === undefined || store.created.fields === null ? (
                    <p className="muted">
                      Fields: <BankValue value={store.created.fields} />
                    </p>
                  ) : (
                    <JsonView value={store.created.fields} label="Fields of the document" />
                  )}
                </div>
              </Panel>
            )}
            <HistoryPanel view={HISTORY} history={store} onRetry={retry} />
          </div>
        </div>
      </div>
    </Page>
  );
}
