import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The console is served by the gateway at `/`; `npm run dev` proxies the API to a running Switchyard. */
export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ['source'] },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2022', reportCompressedSize: true },
  server: {
    proxy: {
      '/api': { target: process.env.SWITCHYARD_URL ?? 'http://127.0.0.1:8065', ws: true },
      '/hooks': { target: process.env.SWITCHYARD_URL ?? 'http://127.0.0.1:8065' },
    },
  },
});
