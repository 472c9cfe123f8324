import type { ManifestRewards, ManifestSchemaSource, SftOptions } from '../../../../shared/contract/entities/export';
import type { SchemaOrigin } from './tool-schemas';

/**
 * The manifest's account of where each exported record's tool schemas came from: one entry per
 * source (own, none, the workspace task, each tools file by name and hash) with its record count, and
 * per record the entry's id, so 100k records repeat a short id rather than a file name and hash.
 */
export class SchemaSources {
  private readonly byKey = new Map<string, ManifestSchemaSource>();
  private files = 0;

  idOf(o: SchemaOrigin): string {
    const key = o.origin === 'tools-file' ? `${o.file}\u0000${o.sha256}` : o.origin;
    let s = this.byKey.get(key);
    if (!s) {
      const file = o.origin === 'tools-file' ? o.file : null;
      const sha256 = o.origin === 'tools-file' ? o.sha256 : null;
      s = { id: file ? `tools-${++this.files}` : o.origin, origin: o.origin, file, sha256, records: 0 };
      this.byKey.set(key, s);
    }
    s.records++;
    return s.id;
  }

  list(): ManifestSchemaSource[] {
    return [...this.byKey.values()];
  }
}

/** Whether the records' pools required a reward, and how many records went out without one. */
export function rewardsOf(pools: ReadonlySet<string>, o: SftOptions, withoutReward: number): ManifestRewards {
  const thresholds = Object.fromEntries([...pools].sort().map((p) => [p, o.pools[p]?.minReward ?? null]));
  return {
    required: Object.values(thresholds).every((t) => t !== null),
    pools: thresholds,
    exportedWithoutReward: withoutReward,
  };
}
