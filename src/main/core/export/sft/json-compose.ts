import fs from 'node:fs';
import { HashedFile } from './hashed-file';

/**
 * A JSON document whose last key is a long array, written in constant memory: the array items go
 * to a part file as they come (one per line), and the document is assembled at the end from the
 * head object and the part, streamed in 1 MB chunks.
 */
export class JsonArrayPart {
  private part: HashedFile;
  private n = 0;

  constructor(private readonly partPath: string) {
    this.part = new HashedFile(partPath);
  }

  push(item: unknown): void {
    this.part.write(`${this.n++ ? ',\n' : ''}    ${JSON.stringify(item)}`);
  }

  get count(): number {
    return this.n;
  }

  /** Writes `{...head, [key]: [items]}` to `target` (pretty at the top level, one item per line); removes the part. */
  compose(target: string, head: Record<string, unknown>, key: string): { bytes: number; sha256: string } {
    this.part.close();
    const out = new HashedFile(target);
    try {
      const text = JSON.stringify(head, null, 2);
      out.write(`${text.slice(0, text.length - 2)},\n  ${JSON.stringify(key)}: [${this.n ? '\n' : ''}`);
      const fd = fs.openSync(this.partPath, 'r');
      try {
        const buf = Buffer.allocUnsafe(1 << 20);
        for (let got = fs.readSync(fd, buf); got > 0; got = fs.readSync(fd, buf)) out.write(buf.subarray(0, got));
      } finally {
        fs.closeSync(fd);
      }
      out.write(`${this.n ? '\n  ' : ''}]\n}\n`);
      const done = out.close();
      fs.rmSync(this.partPath);
      return done;
    } catch (e) {
      out.abandon();
      throw e;
    }
  }

  abandon(): void {
    this.part.abandon();
  }
}
