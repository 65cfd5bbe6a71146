import { createServer, connect, type Server, type Socket } from 'node:net';
import { once } from 'node:events';

/** One connection through the gate: how its bytes go each way. */
interface Relay {
  incoming: Socket;
  outgoing: Socket | undefined;
  /** pass: both ways; hold: nothing passes, the caller's bytes are kept; deaf: the caller's bytes pass, no answer ever comes back. */
  mode: 'pass' | 'hold' | 'deaf';
  held: Buffer[];
  callerGone: boolean;
}

/**
 * A loopback TCP relay to a real server (PostgreSQL) that a test can close and open again: closed, it ends every
 * connection through it and refuses new ones, as a database that went away does. Or it can cut every link silently
 * (`silence`): connections stay open on both sides and nothing passes, as when a route is lost or a firewall forgets
 * its state; when it is back (`restore`), what the callers sent meanwhile reaches the server late, as TCP delivers it,
 * while the old links never carry an answer back again.
 */
export class TcpGate {
  private server: Server | undefined;
  private readonly relays = new Set<Relay>();
  private open = true;
  private silent = false;
  port = 0;

  private readonly target: { host: string; port: number };

  constructor(target: { host: string; port: number }) {
    this.target = target;
  }

  async start(): Promise<this> {
    this.server = createServer((incoming) => {
      if (!this.open) return void incoming.destroy();
      const relay: Relay = {
        incoming,
        outgoing: undefined,
        mode: this.silent ? 'hold' : 'pass',
        held: [],
        callerGone: false,
      };
      this.relays.add(relay);
      incoming.on('error', () => {});
      incoming.on('data', (chunk: Buffer) =>
        relay.mode === 'hold' ? relay.held.push(chunk) : relay.outgoing?.write(chunk),
      );
      incoming.on('close', () => {
        relay.callerGone = true;
        if (relay.mode !== 'hold') this.end(relay);
      });
      if (relay.mode === 'pass') this.connectOut(relay);
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    return this;
  }

  private connectOut(relay: Relay): void {
    const outgoing = connect(this.target);
    relay.outgoing = outgoing;
    outgoing.on('error', () => {});
    outgoing.on('data', (chunk: Buffer) => relay.mode === 'pass' && relay.incoming.write(chunk));
    outgoing.on('close', () => {
      relay.incoming.destroy();
      this.relays.delete(relay);
    });
  }

  /** The caller hung up: the server gets the end after every byte sent before it, as over TCP. */
  private end(relay: Relay): void {
    relay.outgoing?.end();
    if (!relay.outgoing) this.relays.delete(relay);
  }

  /** Ends every connection through the gate and refuses new ones until `reopen`. */
  close(): void {
    this.open = false;
    for (const relay of this.relays) {
      relay.incoming.destroy();
      relay.outgoing?.destroy();
    }
    this.relays.clear();
  }

  reopen(): void {
    this.open = true;
  }

  /** Cuts every link silently, and holds new ones the same way, until `restore`. */
  silence(): void {
    this.silent = true;
    for (const relay of this.relays) relay.mode = 'hold';
  }

  /**
   * The route is back: what callers sent meanwhile reaches the server now. Links made before the cut stay deaf (no
   * answer ever comes back on them); links made during it, and new ones, work.
   */
  restore(): void {
    this.silent = false;
    for (const relay of this.relays) {
      if (relay.mode !== 'hold') continue;
      const old = relay.outgoing !== undefined;
      if (!old) {
        if (relay.callerGone) {
          this.relays.delete(relay);
          continue;
        }
        this.connectOut(relay);
      }
      relay.mode = old ? 'deaf' : 'pass';
      for (const chunk of relay.held.splice(0)) relay.outgoing!.write(chunk);
      if (relay.callerGone) this.end(relay);
    }
  }

  async stop(): Promise<void> {
    this.close();
    this.server?.close();
  }
}
