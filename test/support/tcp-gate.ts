import { createServer, connect, type Server, type Socket } from 'node:net';
import { once } from 'node:events';

/**
 * A loopback TCP relay to a real server (PostgreSQL) that a test can close and open again: closed, it ends every
 * connection through it and refuses new ones, as a database that went away does.
 */
export class TcpGate {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private open = true;
  port = 0;

  private readonly target: { host: string; port: number };

  constructor(target: { host: string; port: number }) {
    this.target = target;
  }

  async start(): Promise<this> {
    this.server = createServer((incoming) => {
      if (!this.open) return void incoming.destroy();
      const outgoing = connect(this.target);
      for (const socket of [incoming, outgoing]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {});
      }
      incoming.pipe(outgoing).pipe(incoming);
      incoming.on('close', () => outgoing.destroy());
      outgoing.on('close', () => incoming.destroy());
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    return this;
  }

  /** Ends every connection through the gate and refuses new ones until `reopen`. */
  close(): void {
    this.open = false;
    for (const socket of this.sockets) socket.destroy();
  }

  reopen(): void {
    this.open = true;
  }

  async stop(): Promise<void> {
    this.close();
    this.server?.close();
  }
}
