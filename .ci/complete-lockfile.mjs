// npm 11's `npm ci` insists that every optional platform package named by a dependency (esbuild's,
// rollup's, biome's …) has an entry in package-lock.json. The registry mirror these machines reach does not
// serve the other platforms' packages, so `npm install` leaves them out and `npm ci` then refuses the lock.
// This adds the missing entries (marked optional, with the os/cpu their names declare, so npm skips them
// here). Run it after any `npm install` that changes the lock: `node .ci/complete-lockfile.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;
const osNames = ['android', 'darwin', 'freebsd', 'linux', 'netbsd', 'openbsd', 'sunos', 'win32', 'aix', 'openharmony'];
const cpuNames = ['arm64', 'x64', 'arm', 'ia32', 'ppc64', 'riscv64', 's390x', 'loong64', 'mips64el', 'wasm32'];

const platformOf = (name) => {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => osNames.includes(p)) ?? (parts.includes('win32') ? 'win32' : undefined);
  const cpu = parts.find((p) => cpuNames.includes(p)) ?? (parts.includes('arm') ? 'arm' : undefined);
  const libc = parts.includes('musl') ? 'musl' : parts.includes('gnu') && os === 'linux' ? 'glibc' : undefined;
  return { os, cpu, libc };
};

let added = 0;
for (const [location, meta] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const nested = `${location === '' ? 'node_modules' : `${location}/node_modules`}/${name}`;
    const hoisted = `node_modules/${name}`;
    if (packages[nested] || packages[hoisted]?.version === version) continue;
    // A range (`^4.1.6`) names no platform build: npm resolves it like any dependency.
    if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(version)) continue;
    const { os, cpu, libc } = platformOf(name);
    // A hoisted entry of another version belongs to another parent: this one goes beside its own parent.
    packages[packages[hoisted] ? nested : hoisted] = {
      version,
      ...(meta.dev ? { dev: true } : {}),
      optional: true,
      ...(os ? { os: [os] } : {}),
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(libc ? { libc: [libc] } : {}),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => a.localeCompare(b, 'en')));
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.error(`complete-lockfile: added ${added} optional platform entries`);
