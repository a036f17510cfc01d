import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(root, '../dist/addin');

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Text files worth compressing (below 1 KB the headers cost more than the saving). */
const compressible = (fileName: string, bytes: number) => /\.(js|css|html|svg|json)$/.test(fileName) && bytes >= 1024;

/**
 * Writes `.br` and `.gz` beside every text file of the build, compressed once at the highest levels, so the
 * server sends them as they are instead of compressing on every request.
 */
const precompress = (): Plugin => ({
  name: 'sitefile-precompress',
  apply: 'build',
  async writeBundle(_options, bundle) {
    await Promise.all(
      Object.keys(bundle).map(async (fileName) => {
        const file = path.join(outDir, fileName);
        const content = await readFile(file);
        if (!compressible(fileName, content.length)) return;
        const [br, gz] = await Promise.all([
          brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
          gzipped(content, { level: 9 }),
        ]);
        await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
      }),
    );
  },
});

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
  plugins: [react(), addinDocs(), precompress()],
  build: {
    outDir,
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
