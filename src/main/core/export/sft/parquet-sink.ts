import { ByteWriter } from 'hyparquet-writer';
import type { HashedFile } from './hashed-file';

/**
 * hyparquet-writer's Writer over a HashedFile: its ByteWriter buffer is drained into the file
 * whenever it passes 1 MB (the same trick as the library's own fileWriter, which reopens the file
 * on every flush and cannot hash).
 */
export function hashedParquetWriter(file: HashedFile): ByteWriter {
  const w = new ByteWriter();
  const drain = () => {
    if (!w.index) return;
    file.write(new Uint8Array(w.buffer, 0, w.index));
    w.index = 0;
  };
  const grow = w.ensure.bind(w);
  w.ensure = (size: number) => {
    if (w.index > 1 << 20) drain();
    grow(size);
  };
  w.finish = drain;
  w.getBuffer = () => {
    throw new Error('a file-backed parquet writer has no buffer to return');
  };
  return w;
}
