// An undici Agent whose every connection goes through the address guard: the host name is
// resolved here, every answer is checked, and the socket is opened to the checked address
// itself (never re-resolved), so redirects, side fetches and DNS rebinding cannot slip past.
import { Agent, buildConnector } from 'undici';
import { resolveAllowedAddress, type AddressPolicy, type Resolver } from './address-guard.js';

export interface ConnectHooks {
  /** Called with the exact address and port right before each connection; throwing vetoes it. */
  beforeConnect?: (address: string, port: number) => void;
}

export interface GuardedAgentOptions {
  policy: AddressPolicy;
  resolver: Resolver;
  connectTimeoutMs: number;
  hooks?: ConnectHooks;
  /** Once aborted, no new connection is opened (a lookup may finish after the session closed). */
  signal?: AbortSignal;
}

function guardedConnector({ policy, resolver, connectTimeoutMs, hooks, signal }: GuardedAgentOptions): buildConnector.connector {
  const connect = buildConnector({ timeout: connectTimeoutMs });
  return (options, callback) => {
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    resolveAllowedAddress(options.hostname, resolver, policy).then(
      ({ address }) => {
        try {
          signal?.throwIfAborted();
          hooks?.beforeConnect?.(address, port);
        } catch (error) {
          callback(error as Error, null);
          return;
        }
        // `host` keeps the original name, from which undici derives the TLS servername (SNI
        // and certificate check), while `hostname` pins the socket to the checked address.
        connect({ ...options, hostname: address }, callback);
      },
      (error: Error) => callback(error, null),
    );
  };
}

export function createGuardedAgent(options: GuardedAgentOptions & { keepAliveTimeoutMs?: number }): Agent {
  return new Agent({
    connect: guardedConnector(options),
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 4_000,
    // The session's deadline governs; these are only a backstop.
    headersTimeout: options.connectTimeoutMs,
    bodyTimeout: options.connectTimeoutMs,
  });
}
