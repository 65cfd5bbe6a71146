import fs from 'node:fs';
import { endianness } from 'node:os';

const HEADER_BYTES = 48;
const KNOWN_VERSION = 3007000;

/**
 * How many frames the WAL holds now, read from the WAL index: the `-shm` file every connection maps, whose header
 * (written twice, two copies of 48 bytes) holds `mxFrame` at byte 16, in the machine's byte order
 * (https://www.sqlite.org/walformat.html). One `pread` of 96 bytes, where asking SQLite means a checkpoint.
 */
export class WalIndex {
  private fd: number | undefined;
  private readonly header = Buffer.alloc(2 * HEADER_BYTES);
  private readonly littleEndian = endianness() === 'LE';

  constructor(private readonly file: string) {}

  /** Frames in the WAL; undefined while the header is being written (its copies differ) or of a format not known here. */
  frames(): number | undefined {
    try {
      this.fd ??= fs.openSync(`${this.file}-shm`, 'r');
      if (fs.readSync(this.fd, this.header, 0, this.header.length, 0) !== this.header.length) return undefined;
    } catch {
      return undefined;
    }
    const header = this.header;
    if (!header.subarray(0, HEADER_BYTES).equals(header.subarray(HEADER_BYTES))) return undefined;
    const u32 = (offset: number) => (this.littleEndian ? header.readUInt32LE(offset) : header.readUInt32BE(offset));
    return u32(0) === KNOWN_VERSION ? u32(16) : undefined;
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }
}
