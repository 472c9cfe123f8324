import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

// main bundles three entries: the Electron main process, the `coworkenv` CLI (plain Node) and the
// job worker (worker_threads). Dependencies stay external (better-sqlite3 is native).
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          cli: resolve(__dirname, 'src/main/headless/cli-main.ts'),
          'job-worker': resolve(__dirname, 'src/main/job-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: { outDir: 'out/preload', rollupOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') } } },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    // Minified: the unminified ag-grid bundle alone delays the first grid rows by ~0.4 s (bench/first-rows).
    build: {
      outDir: 'out/renderer',
      minify: true,
      chunkSizeWarningLimit: 2000,
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
    plugins: [react()],
  },
});
