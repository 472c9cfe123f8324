/**
 * Trainer-exact SFT export (reference/formats.md §3 and §6). The lead's transports call these:
 * exportSft writes an export folder, previewSft answers the same decisions without writing,
 * diffManifests / readManifest compare two exports. Records are fed as a re-iterable of SftRecord.
 */
export { type ExportSftInput, type ExportSftResult, exportSft, parseSftOptions } from './export-sft';
export { type SftPreview, type SftPreviewInput, previewSft } from './preview-sft';
export { diffManifests, readManifest } from './manifest-diff';
export type { SftRecord } from './preselect';
export type { SftProgress } from './sft-engine';
export { DIALECTS } from './dialects';
export { lintExport, lintRows, lintWrittenExport } from './lint-export';
