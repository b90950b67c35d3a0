/**
 * ngrok's local agent API (http://127.0.0.1:4040/api/tunnels, ngrok v2 and v3): the tunnels
 * the agent on this machine runs, each with its public URL and the local address it forwards
 * to. When one forwards to the listener's port, Setup offers its https:// address as the
 * listener's public URL (never saved without the user). Asked through the one transport,
 * directly (the agent is on loopback), with a short deadline; an agent that is not running is
 * a sentence, not an error.
 */
import { z } from 'zod';
import { directPolicy } from '../http/networkPolicy.ts';
import { sharedTransport } from '../http/sharedTransport.ts';
import type { HttpTransport } from '../http/transport.ts';
import { TransportError } from '../http/transportError.ts';

const NGROK_AGENT_URL = 'http://127.0.0.1:4040';

const tunnelsAnswer = z.looseObject({
  tunnels: z.array(
    z.looseObject({
      public_url: z.string(),
      proto: z.string().optional(),
      config: z.looseObject({ addr: z.string() }).optional(),
    }),
  ),
});

export interface TunnelSuggestion {
  publicUrl: string | null;
  message: string;
}

/** The port a tunnel's `addr` forwards to: "http://localhost:4880", "localhost:4880", "127.0.0.1:4880", "4880". */
export function portOfAddr(addr: string): number | null {
  const text = addr.trim();
  if (/^\d{1,5}$/.test(text)) return Number(text);
  try {
    const url = new URL(/^[a-z]+:\/\//i.test(text) ? text : `http://${text}`);
    if (url.port !== '') return Number(url.port);
    return url.protocol === 'https:' ? 443 : 80;
  } catch {
    return null;
  }
}

/** Whether `addr` is this machine (the listener's interface), not another host the agent forwards to. */
function isLocalAddr(addr: string): boolean {
  const text = addr.trim();
  if (/^\d{1,5}$/.test(text)) return true;
  try {
    const host = new URL(/^[a-z]+:\/\//i.test(text) ? text : `http://${text}`).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host === '::1' || host === '0.0.0.0' || /^127\./.test(host);
  } catch {
    return false;
  }
}

/** The public URL of the agent's tunnel to `port` (https preferred), or why there is none. */
export async function suggestTunnel(
  port: number | null,
  options: { agentUrl?: string; transport?: HttpTransport } = {},
): Promise<TunnelSuggestion> {
  const agentUrl = (options.agentUrl ?? NGROK_AGENT_URL).replace(/\/+$/, '');
  if (port === null) return { publicUrl: null, message: 'Start the listener first: a tunnel is found by its port.' };
  let body: unknown;
  try {
    const answer = await (options.transport ?? sharedTransport()).send({
      url: `${agentUrl}/api/tunnels`,
      method: 'GET',
      headers: [['Accept', 'application/json']],
      policy: directPolicy(),
      destinationName: `ngrok's local agent at ${agentUrl}`,
      connectMs: 1_000,
      responseMs: 3_000,
      maxBytes: 1024 * 1024,
    });
    if (answer.status !== 200) {
      return {
        publicUrl: null,
        message: `ngrok's local agent at ${agentUrl} answered ${String(answer.status)}: no tunnel to offer.`,
      };
    }
    body = JSON.parse(answer.body.toString('utf8')) as unknown;
  } catch (error) {
    if (error instanceof TransportError && (error.kind === 'unreachable' || error.kind === 'connect-timeout')) {
      return {
        publicUrl: null,
        message: `No ngrok agent is running on this machine (nothing answers ${agentUrl}). Start one with \`ngrok http ${String(port)}\`, or give a tunnel's address yourself.`,
      };
    }
    return {
      publicUrl: null,
      message: `ngrok's local agent at ${agentUrl} could not be read: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const parsed = tunnelsAnswer.safeParse(body);
  if (!parsed.success) {
    return {
      publicUrl: null,
      message: `ngrok's local agent at ${agentUrl} answered something that is not a tunnel list.`,
    };
  }
  const toListener = parsed.data.tunnels.filter(
    (tunnel) =>
      tunnel.config !== undefined && isLocalAddr(tunnel.config.addr) && portOfAddr(tunnel.config.addr) === port,
  );
  const chosen =
    toListener.find((tunnel) => tunnel.public_url.startsWith('https://')) ??
    toListener.find((tunnel) => tunnel.public_url.startsWith('http://'));
  if (chosen === undefined) {
    const others = [...new Set(parsed.data.tunnels.map((tunnel) => tunnel.config?.addr ?? '?'))];
    return {
      publicUrl: null,
      message:
        others.length === 0
          ? `ngrok's agent runs no tunnel. Start one to the listener with \`ngrok http ${String(port)}\`.`
          : `ngrok's agent runs no tunnel to port ${String(port)} (it forwards to ${others.join(', ')}). Start one with \`ngrok http ${String(port)}\`.`,
    };
  }
  let origin: string;
  try {
    origin = new URL(chosen.public_url).origin;
  } catch {
    return {
      publicUrl: null,
      message: `ngrok's agent names a public URL that is not an address: ${chosen.public_url}.`,
    };
  }
  return {
    publicUrl: origin,
    message: `ngrok tunnels ${origin} to this listener (port ${String(port)}): use it as the public URL so the bank can reach it.`,
  };
}
