/**
 * Who may call: only the main frame of a window we created, showing our own origin. Checked
 * in one place, for every call, before anything else (GitHub Desktop's trusted-sender set).
 */

/** What the router needs to know about a caller, taken from Electron's event at the edge. */
export interface IpcSender {
  /** `event.sender.id`: the webContents the call came from. */
  webContentsId: number;
  /** `event.senderFrame === event.sender.mainFrame`; false for any sub-frame. */
  isMainFrame: boolean;
  /** `event.senderFrame.url`; null when the frame is gone. */
  frameUrl: string | null;
}

export interface SenderPolicy {
  /** Whether the webContents belongs to a window the shell created. */
  isOwnWindow(webContentsId: number): boolean;
  /** Origins we serve the renderer from, e.g. `app://ledgerdesk`. */
  allowedOrigins: readonly string[];
}

export type SenderVerdict = { trusted: true } | { trusted: false; reason: string };

/**
 * `scheme://host[:port]` of a URL. Node's URL gives origin "null" for non-special schemes
 * such as app:, so it is built from protocol and host here.
 */
function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.host === '') return null;
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return null;
  }
}

export function checkSender(sender: IpcSender, policy: SenderPolicy): SenderVerdict {
  if (!policy.isOwnWindow(sender.webContentsId)) {
    return { trusted: false, reason: 'the call did not come from a Ledgerdesk window' };
  }
  if (!sender.isMainFrame) {
    return { trusted: false, reason: 'the call came from a sub-frame' };
  }
  if (sender.frameUrl === null) {
    return { trusted: false, reason: 'the calling frame is gone' };
  }
  const origin = originOf(sender.frameUrl);
  if (origin === null || !policy.allowedOrigins.includes(origin)) {
    return { trusted: false, reason: `the calling page is not Ledgerdesk's own (${origin ?? 'no origin'})` };
  }
  return { trusted: true };
}
