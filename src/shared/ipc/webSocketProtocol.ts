/**
 * Web mode's wire: the IPC contract carried over one WebSocket between a browser tab (the
 * web bridge, src/webBridge) and the web shell (src/main/web). Every message is one JSON
 * object, parsed with these schemas on both sides; anything else closes the socket.
 *
 *   page → server  hello      {session, subscriptions}   first message of every connection
 *                  call       {id, channel, input}        one operation of the contract
 *                  subscribe  {channels} / unsubscribe {channels}
 *                  reply      {askId, code|null}          the code the user typed for an ask (null: no)
 *   server → page  ready      {known}                     hello accepted; `known`: the server has this
 *                                                         session's earlier calls, so unanswered ones may be resent
 *                  answer     {id, result}                the router's {ok, value} | {ok, error}
 *                  event      {channel, payload}          a pushed event the page subscribed to
 *                  ask        {askId, question}           a question only the user may answer: the answer is
 *                                                         the code the server printed on its terminal, which
 *                                                         the page never receives (W2)
 *
 * A call's id is the page's; within a session (one tab, across reconnections) the server runs
 * each id once and keeps its answer, so a page that lost its socket sends its unanswered calls
 * again and gets each answer exactly once, never a second run.
 */
import { z } from 'zod';

/** The path of the socket on the web shell's origin. */
export const WEB_SOCKET_PATH = '/ledgerdesk/socket';

/**
 * Who may open the socket (review W1): the browser that exchanged the sign-in token holds its
 * session cookie and, in the origin's own storage, the tab key; the socket's upgrade offers the
 * key as a subprotocol (`Sec-WebSocket-Protocol: ledgerdesk, ledgerdesk-tab.<key>`), and the
 * server answers with `ledgerdesk` alone. Cookies go to every port of a host; origin storage
 * and a subprotocol go nowhere but this origin's own pages and this server.
 */
export const WEB_SOCKET_PROTOCOL = 'ledgerdesk';
export const TAB_KEY_PROTOCOL_PREFIX = 'ledgerdesk-tab.';
/** The <meta> of the sign-in answer that hands the page its tab key (read once, then removed). */
export const TAB_KEY_META = 'ledgerdesk-tab-key';
/** Where the page keeps the tab key (localStorage: this origin's tabs, this browser). */
export const TAB_KEY_STORAGE = 'ledgerdesk.tabKey';
/** `GET` with the tab key in this header: 204 while this browser's sign-in holds, else 401. */
export const SIGN_IN_CHECK_PATH = '/ledgerdesk/signed-in';
export const TAB_KEY_HEADER = 'x-ledgerdesk-tab-key';
/** The page that says how to get a new sign-in address (no data, no script). */
export const SIGNED_OUT_PATH = '/ledgerdesk/signed-out';
/** The command that prints a new sign-in address for the running web mode. */
export const NEW_SIGN_IN_COMMAND = 'npm run ledger -- serve --token';

/** Bounds on what one message may carry (the router checks the input itself more closely). */
export const WEB_MESSAGE_MAX_BYTES = 8 * 1024 * 1024;

const sessionId = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'a session is 16-64 letters, digits, - or _');
const callId = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const channelName = z.string().min(1).max(200);

/** A question the server asks the user (the web counterpart of the shell's native dialog). */
const webQuestion = z.strictObject({
  title: z.string().max(500),
  message: z.string().max(2000),
  detail: z.string().max(4000),
  confirmLabel: z.string().max(200),
});
export type WebQuestion = z.infer<typeof webQuestion>;

export const pageMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('hello'), session: sessionId, subscriptions: z.array(channelName).max(200) }),
  z.strictObject({ type: z.literal('call'), id: callId, channel: channelName, input: z.unknown() }),
  z.strictObject({ type: z.literal('subscribe'), channels: z.array(channelName).max(200) }),
  z.strictObject({ type: z.literal('unsubscribe'), channels: z.array(channelName).max(200) }),
  z.strictObject({
    type: z.literal('reply'),
    askId: callId,
    /** What the user typed: the code shown on web mode's terminal; null when they said no. */
    code: z.string().max(64).nullable(),
  }),
]);
export type PageMessage = z.infer<typeof pageMessage>;

export const serverMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready'), known: z.boolean() }),
  z.strictObject({ type: z.literal('answer'), id: callId, result: z.unknown() }),
  z.strictObject({ type: z.literal('event'), channel: channelName, payload: z.unknown() }),
  z.strictObject({ type: z.literal('ask'), askId: callId, question: webQuestion }),
]);
export type ServerMessage = z.infer<typeof serverMessage>;
