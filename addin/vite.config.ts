import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));

/** docs/addin.md as /addin/help.txt: the page shown outside Outlook links to it (plain text displays anywhere). */
const addinDocs = (): Plugin => ({
  name: 'sitefile-addin-docs',
  generateBundle() {
    const source = readFileSync(path.resolve(root, '../docs/addin.md'), 'utf8');
    this.emitFile({ type: 'asset', fileName: 'help.txt', source });
  },
});

/** Four pages in one build (the fourth, commands.html, is Outlook's event runtime for file on send), served by our server under /addin/ (the admin console also at /admin). */
export default defineConfig({
  root,
  base: '/addin/',
  plugins: [react(), addinDocs()],
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
        commands: path.resolve(root, 'commands.html'),
      },
    },
  },
});
