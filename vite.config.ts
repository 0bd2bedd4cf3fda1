// The browser build. Strict CSP (script-src 'self'; style-src 'self'): no inline scripts or styles, CSS in
// files. The dev server proxies the API and the identity provider to the Node server on :3000 and runs on
// the same port layout (use `npm start` for the real origin: the issuer must match the page's origin).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    target: 'es2022',
    // Maps are written for error tracking and bundle analysis but not linked from the served files.
    sourcemap: 'hidden',
    // No preload lists: each lazy import would carry the list of chunks it needs (in the entry for the first screens,
    // in area-panes.ts for the rest), which cost the first load more bytes than its budget had left; a chunk's own
    // imports are fetched when it arrives instead (one more round trip per level, immaterial on the measured paths).
    modulePreload: false,
    assetsInlineLimit: 0,
    // The entry holds react-dom (~300 kB raw, ~92 kB gzip); the budget that matters is gzip before first use.
    chunkSizeWarningLimit: 400,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:3000',
      '/connect': 'http://localhost:3000',
    },
  },
});
