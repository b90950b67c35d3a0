/** One kept request: headers, body, verdict, the answer given, the hydrated object; replay and forward. */
import { clockWithMilliseconds, labelBasis, labelText } from './ArrivalLabelCell.tsx';
import { useState } from 'react';
import { replayInput } from '../../../../shared/ipc/index.ts';
import { Badge, HttpStatusBadge, StatusBadge } from '../../components/Badge.tsx';
import { Button } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { Drawer, Properties, Section } from '../../components/Drawer.tsx';
import { Checkbox, TextField } from '../../components/Field.tsx';
import { JsonEditor, JsonView } from '../../components/JsonEditor.tsx';
import { ScrollBlock } from '../../components/ScrollBlock.tsx';
import { ErrorState, LoadingState } from '../../components/States.tsx';
import { parseJsonObjectText } from '../../lib/jsonText.ts';
import { validate } from '../../lib/schemaForm.ts';
import { formatTimestamp } from '../../lib/time.ts';
import { useListenerStore } from './store.ts';

function prettyBody(body: string | null): string {
  if (body === null) return '';
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

export function RequestDrawer() {
  const { detail, detailError, closeRequest, forward, lastReplay } = useListenerStore();
  const config = useListenerStore((state) => state.config);
  const [replaying, setReplaying] = useState<'plain' | 'edit' | null>(null);
  if (detail === null) {
    return (
      <Drawer title="Request" onClose={closeRequest}>
        {detailError === null ? (
          <LoadingState label="Loading the request…" />
        ) : (
          <ErrorState what="The request" error={detailError} />
        )}
      </Drawer>
    );
  }
  return (
    <Drawer
      title={detail.event ?? `${detail.method} ${detail.path}`}
      subtitle={
        <>
          <StatusBadge status={detail.verdict} /> <HttpStatusBadge status={detail.status} />{' '}
          <span className="mono">{detail.objectId ?? ''}</span>
        </>
      }
      onClose={closeRequest}
      actions={
        <div className="row">
          <Button
            size="sm"
            onClick={() => {
              setReplaying('plain');
            }}
          >
            Replay
          </Button>
          <Button
            size="sm"
            onClick={() => {
              setReplaying('edit');
            }}
          >
            Edit and replay
          </Button>
          <Button
            size="sm"
            disabled={config?.forwardTo == null}
            title={config?.forwardTo == null ? 'Set a forward-to URL in Setup' : `Forward to ${config.forwardTo}`}
            onClick={() => void forward(detail.id)}
          >
            Forward
          </Button>
        </div>
      }
    >
      <Section title="Request">
        <Properties
          items={[
            ['Received', `${formatTimestamp(detail.receivedAt)} (${clockWithMilliseconds(detail.receivedAt)})`],
            [
              'Method and path',
              <span key="p" className="mono">
                {detail.method} {detail.path}
              </span>,
            ],
            ['Verdict', <StatusBadge key="v" status={detail.verdict} />],
            [
              'Delivery',
              detail.label === null || detail.label === undefined
                ? 'not labelled (it arrived before the listener started, or was imported)'
                : `${labelText(detail.label)} (${labelBasis(detail.label)})`,
            ],
            ['Answered', <HttpStatusBadge key="s" status={detail.status} />],
            ['Rule', detail.ruleId],
            ['Duration', `${detail.durationMs.toFixed(1)} ms`],
            ['Body size', `${detail.bodyBytes} bytes${detail.bodyTruncated ? ' (truncated)' : ''}`],
            [
              'Order',
              detail.outOfOrder ? (
                <Badge key="f" tone="info">
                  out of order
                </Badge>
              ) : null,
            ],
          ]}
        />
      </Section>
      <Section title="Headers">
        <Properties
          items={Object.entries(detail.headers).map(
            ([name, value]) =>
              [
                name,
                <span key={name} className="mono">
                  {value}
                </span>,
              ] as const,
          )}
        />
      </Section>
      <Section title="Body">
        {detail.notificationProblems.length === 0 ? null : (
          <div className="notice notice-warning" style={{ marginBottom: 8 }}>
            Not a valid notification: {detail.notificationProblems.join('; ')}
          </div>
        )}
        <ScrollBlock className="json-view" label="Request body">
          {prettyBody(detail.body) || '(empty)'}
        </ScrollBlock>
      </Section>
      <Section title="Hydrated object">
        {detail.hydrated === null ? (
          <p className="muted">
            {detail.verdict === 'ok' || detail.notification === null
              ? 'Not fetched.'
              : 'Not fetched: only notifications whose credentials verified (ok) are fetched from the bank.'}
          </p>
        ) : detail.hydrated.error !== null ? (
          <p className="field-error">{detail.hydrated.error}</p>
        ) : (
          <>
            <p className="muted" style={{ marginBottom: 6 }}>
              Fetched {formatTimestamp(detail.hydrated.fetchedAt)}: the latest data of the object.
            </p>
            <JsonView value={detail.hydrated.object} label="Hydrated object" />
          </>
        )}
      </Section>
      {detail.forwards.length === 0 ? null : (
        <Section title="Forwards">
          {detail.forwards.map((forwarded, index) => (
            <Properties
              key={index}
              items={[
                ['To', forwarded.url],
                ['Status', <HttpStatusBadge key="s" status={forwarded.status} />],
                ['Latency', forwarded.latencyMs === null ? null : `${forwarded.latencyMs.toFixed(0)} ms`],
                ['Error', forwarded.error],
              ]}
            />
          ))}
        </Section>
      )}
      {lastReplay === null ? null : (
        <Section title="Last replay">
          {lastReplay.map((result) => (
            <Properties
              key={result.requestId}
              items={[
                ['Status', <HttpStatusBadge key="s" status={result.status} />],
                ['Latency', result.latencyMs === null ? null : `${result.latencyMs.toFixed(0)} ms`],
                ['Answer', result.bodyExcerpt],
                ['Error', result.error],
              ]}
            />
          ))}
        </Section>
      )}
      {replaying === null ? null : (
        <ReplayDialog
          edit={replaying === 'edit'}
          onClose={() => {
            setReplaying(null);
          }}
        />
      )}
    </Drawer>
  );
}

function ReplayDialog({ edit, onClose }: { edit: boolean; onClose: () => void }) {
  const detail = useListenerStore((state) => state.detail);
  const status = useListenerStore((state) => state.status);
  const replay = useListenerStore((state) => state.replay);
  // By default, back to the route it arrived on (a registration's path verifies with its own
  // credentials); the listener's root would check nothing.
  const [targetUrl, setTargetUrl] = useState(
    status?.url == null ? 'http://127.0.0.1:8080/' : `${status.url.replace(/\/+$/, '')}${detail?.path ?? '/'}`,
  );
  // A request the listener verified (it came with credentials), replayed to the listener, is
  // signed again unless the user says otherwise, with the credentials of the path it goes to:
  // unsigned it would only be answered "no auth header". Sent elsewhere, it is not (the
  // credentials are the listener's own). The secret stays main-side.
  const [signChoice, setSignChoice] = useState<boolean | null>(null);
  const listenerUrl = status?.url ?? null;
  const applyBasicAuth =
    signChoice ??
    (listenerUrl !== null &&
      targetUrl.startsWith(listenerUrl.replace(/\/+$/, '') + '/') &&
      detail?.verdict === 'ok' &&
      detail.headers['authorization'] !== undefined);
  const [headers, setHeaders] = useState(
    JSON.stringify(
      Object.fromEntries(Object.entries(detail?.headers ?? {}).filter(([name]) => name === 'content-type')),
      null,
      2,
    ),
  );
  const [body, setBody] = useState(prettyBody(detail?.body ?? null));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  if (detail === null) return null;
  const submit = async (): Promise<void> => {
    const parsedHeaders = parseJsonObjectText(headers);
    if (!parsedHeaders.ok) {
      setErrors({ headers: parsedHeaders.message });
      return;
    }
    const input = {
      requestIds: [detail.id],
      targetUrl,
      applyBasicAuth,
      ...(edit ? { edit: { headers: (parsedHeaders.value ?? {}) as Record<string, string>, body } } : {}),
    };
    const checked = validate(replayInput, input);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setBusy(true);
    const results = await replay(input);
    setBusy(false);
    if (results !== null) onClose();
  };
  return (
    <Dialog
      title={edit ? 'Edit and replay' : 'Replay'}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" busy={busy} onClick={() => void submit()}>
            Replay
          </Button>
        </>
      }
    >
      <div className="form">
        <TextField label="Send to" value={targetUrl} onChange={setTargetUrl} error={errors['targetUrl']} />
        <Checkbox
          label="Apply the expected Basic credentials"
          hint="Those of the registered webhook whose path this is, or the listener's own; from the keychain, never this window."
          checked={applyBasicAuth}
          onChange={setSignChoice}
        />
        {edit ? (
          <>
            <JsonEditor
              label="Headers"
              value={headers}
              onChange={setHeaders}
              error={errors['headers'] ?? errors['edit.headers']}
              rows={3}
            />
            <JsonEditor
              label="Body"
              value={body}
              onChange={setBody}
              error={errors['edit.body'] ?? errors['edit']}
              rows={8}
            />
          </>
        ) : null}
      </div>
    </Dialog>
  );
}
