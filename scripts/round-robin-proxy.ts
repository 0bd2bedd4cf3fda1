// A round-robin HTTP proxy in front of several portal nodes, as a load balancer would be: each request (not each
// connection) goes to the next node, bodies streamed both ways, the Host header kept (the nodes' PUBLIC_URL is the
// proxy's address). Used by the multi-node test and `npm run nodes`; records which node answered each request.
import { once } from 'node:events';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Served = { method: string; path: string; node: number; status: number };

export type RoundRobinProxy = { url: string; served: Served[]; close: () => Promise<void> };

export async function startRoundRobinProxy(options: { port: number; nodes: string[]; host?: string }): Promise<RoundRobinProxy> {
  const targets = options.nodes.map((node) => new URL(node));
  const served: Served[] = [];
  let next = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const index = next;
    next = (next + 1) % targets.length;
    const target = targets[index] as URL;
    const path = incoming.url ?? '/';
    const forwarded = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path,
        // Appends the peer to X-Forwarded-For, as a balancer does (the nodes read it with TRUSTED_PROXIES).
        headers: {
          ...incoming.headers,
          'x-forwarded-for': [incoming.headers['x-forwarded-for'], incoming.socket.remoteAddress ?? ''].filter(Boolean).join(', '),
        },
      },
      (answer) => {
        served.push({ method: incoming.method ?? 'GET', path: path.split('?')[0] ?? path, node: index, status: answer.statusCode ?? 0 });
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => {
      // The node is down (killed): a real balancer would take it out of the rotation; this one answers 502.
      served.push({ method: incoming.method ?? 'GET', path, node: index, status: 502 });
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end('bad gateway');
    });
    incoming.pipe(forwarded);
  });
  if (options.host) server.listen(options.port, options.host);
  else server.listen(options.port);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    served,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close').catch(() => undefined);
    },
  };
}
