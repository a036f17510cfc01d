import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { allRoutes } from '../server/routes.js';
import { declaredRoute, findDeclaredRoute } from './auth-matrix.js';

/**
 * Every declared route is tested with the permission matrix (test/auth-matrix.ts), or is exempt below with the
 * reason. Test files run in workers of their own, so the matrices are read from their sources: each call names
 * its route with `method: '…'` and `path: '…'` literals first.
 */
const exempt: Record<string, string> = {
  'POST /v1/oauth/token': 'public: the token exchange takes no bearer token (server/api-keys tests)',
  'GET /v1/downloads/:blobKey/:fileName': 'public: a signed URL, checked by its signature (server/downloads tests)',
  'GET /healthz': 'public: the liveness probe',
  'GET /readyz': 'public: the readiness probe',
};

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const matrixCall = /describeAuthMatrix\([\s\S]*?\{\s*method: '(\w+)',\s*path: '([^']+)'/g;

/** `METHOD path` as a matrix test names it, from every test file under server/ and test/. */
const matrices = ['server', 'test'].flatMap((folder) =>
  readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .flatMap((file) =>
      [...readFileSync(join(root, folder, file), 'utf8').matchAll(matrixCall)].map(([, method, path]) => ({
        method: method!,
        path: path!,
        file: `${folder}/${file}`,
      })),
    ),
);

const routeName = (route: { method: string; path: string }) => `${route.method.toUpperCase()} ${route.path}`;

describe('every declared route has a permission matrix', () => {
  it('finds the matrices, each naming a declared route', () => {
    expect(matrices.length).toBeGreaterThan(40);
    for (const matrix of matrices) expect(() => declaredRoute(matrix.method, matrix.path), matrix.file).not.toThrow();
  });

  const covered = new Set(
    matrices.flatMap((m) => {
      const route = findDeclaredRoute(m.method, m.path);
      return route ? [routeName(route)] : [];
    }),
  );
  for (const route of allRoutes()) {
    const name = routeName(route);
    it(`${name}: a matrix covers it${name in exempt ? ', or it is exempt' : ''}`, () => {
      expect(covered.has(name) || name in exempt, `${name} has no describeAuthMatrix and no exemption`).toBe(true);
    });
  }

  it('exempts only declared routes that no matrix covers', () => {
    const declared = new Set(allRoutes().map(routeName));
    for (const name of Object.keys(exempt)) {
      expect(declared.has(name), `${name} is not a declared route`).toBe(true);
      expect(covered.has(name), `${name} is exempt but covered by a matrix`).toBe(false);
    }
  });
});
