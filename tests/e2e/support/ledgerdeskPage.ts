/**
 * Gives a Playwright page the real `window.ledgerdesk`: the shared bridge builder in the page,
 * its calls carried by `page.exposeBinding` to the real IPC router (sender checks, schemas,
 * handlers, error mapping) in the test process, and events pushed back into the page.
 */
import type { BrowserContext, Page } from '@playwright/test';
import type { Router } from '../../../src/main/ipc/routerCore.ts';
import { bridgeScript } from './bridgeScript.ts';

/** The webContents id the harness's page stands for, in the router's sender policy. */
export const HARNESS_WEB_CONTENTS_ID = 1;

function decodeBytes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeBytes);
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (Object.keys(record).length === 1 && typeof record['__bytes'] === 'string') {
      return new Uint8Array(Buffer.from(record['__bytes'], 'base64'));
    }
    return Object.fromEntries(Object.entries(record).map(([key, entry]) => [key, decodeBytes(entry)]));
  }
  return value;
}

export interface LedgerdeskPage {
  /** Pushes an event to every page of the context (what webContents.send does in the app). */
  send(channel: string, payload: unknown): void;
}

export async function installLedgerdesk(context: BrowserContext, router: Router): Promise<LedgerdeskPage> {
  const pages = new Set<Page>();
  await context.exposeBinding('__ledgerdeskInvoke', async (source, channel: unknown, input: unknown) => {
    const mainFrame = source.page.mainFrame();
    return router.dispatch(
      { webContentsId: HARNESS_WEB_CONTENTS_ID, isMainFrame: source.frame === mainFrame, frameUrl: source.frame.url() },
      channel,
      decodeBytes(input),
    );
  });
  await context.addInitScript({ content: await bridgeScript() });
  context.on('page', (page) => {
    pages.add(page);
    page.on('close', () => pages.delete(page));
  });
  for (const page of context.pages()) pages.add(page);
  return {
    send(channel, payload) {
      for (const page of pages) {
        page
          .evaluate(
            ([eventChannel, eventPayload]) => {
              (globalThis as unknown as { __ledgerdeskEmit?: (c: string, p: unknown) => void }).__ledgerdeskEmit?.(
                eventChannel,
                eventPayload,
              );
            },
            [channel, payload] as const,
          )
          .catch(() => undefined); // A page that is navigating or closed misses the event, as a closed window would.
      }
    },
  };
}
