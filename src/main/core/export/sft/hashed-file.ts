import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';

/**
 * A file written synchronously through a 1 MB buffer, hashed as it goes: constant memory whatever
 * the export's size, and the sha256 the manifest needs without reading the file back. Opened with
 * 'wx' so a name clash inside the fresh temp folder is an error, not an overwrite.
 */
export class HashedFile {
  private fd: number;
  private buf = Buffer.allocUnsafe(1 << 20);
  private used = 0;
  private hash: Hash = createHash('sha256');
  bytes = 0;

  constructor(readonly path: string) {
    this.fd = fs.openSync(path, 'wx');
  }

  write(data: string | Uint8Array): void {
    const chunk = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    this.hash.update(chunk);
    this.bytes += chunk.length;
    if (this.used + chunk.length > this.buf.length) this.flush();
    if (chunk.length > this.buf.length) {
      writeAll(this.fd, chunk);
      return;
    }
    this.buf.set(chunk, this.used);
    this.used += chunk.length;
  }

  private flush(): void {
    if (!this.used) return;
    writeAll(this.fd, this.buf.subarray(0, this.used));
    this.used = 0;
  }

  /** Flushes, fsyncs and closes; answers the size and sha256. */
  close(): { bytes: number; sha256: string } {
    this.flush();
    fs.fsyncSync(this.fd);
    fs.closeSync(this.fd);
    this.fd = -1;
    return { bytes: this.bytes, sha256: this.hash.digest('hex') };
  }

  /** Closes without caring about the content (the export failed; the folder is removed). */
  abandon(): void {
    if (this.fd < 0) return;
    try {
      fs.closeSync(this.fd);
    } catch {
      // already failing: the caller reports the first error
    }
    this.fd = -1;
  }
}

function writeAll(fd: number, b: Uint8Array): void {
  let off = 0;
  while (off < b.length) off += fs.writeSync(fd, b, off, b.length - off);
}
