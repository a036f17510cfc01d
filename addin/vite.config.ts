import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));

/** Three pages in one build, served by our server under /addin/ (the admin console also at /admin). */
export default defineConfig({
  root,
  base: '/addin/',
  plugins: [react()],
  build: {
    outDir: path.resolve(root, '../dist/addin'),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    rollupOptions: {
      input: {
        taskpane: path.resolve(root, 'taskpane.html'),
        admin: path.resolve(root, 'admin.html'),
        'auth-callback': path.resolve(root, 'auth-callback.html'),
      },
    },
  },
});
