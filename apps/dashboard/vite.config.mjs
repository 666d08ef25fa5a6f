// The dashboard (docs/decisions/infrastructure.md, "Dashboard and listen"): plain TypeScript and
// uPlot, bundled by Vite into DASHBOARD_DIR's layout: index.html and assets/<name>-<hash>.<ext>,
// served by the API at /dashboard. `npm run build` writes it to dist/dashboard.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/dashboard/',
  // No public/ folder: every file the page loads is hashed under assets/.
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // Everything is a file of its own: the page's CSP allows no inline script, style or data: URL.
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  // `npx vite --config apps/dashboard/vite.config.mjs`: the page with hot reload on :5173, the API of `npm start` behind it.
  server: {
    port: 5173,
    strictPort: true,
    proxy: Object.fromEntries(
      [
        '/api-keys',
        '/entities',
        '/accounts',
        '/ledger',
        '/transfers',
        '/payment-intents',
        '/cards',
        '/card-transactions',
        '/entity-webhooks',
        '/webhook-logs',
        '/events',
        '/intent-actions',
        '/counterparties',
      ].map((path) => [path, { target: 'http://localhost:3000', changeOrigin: true }]),
    ),
  },
});
