// Module hooks for register.mjs: resolving into a development package's folder fails as a missing package does.
let devOnly = new Set();
let packages = '';

export function initialize(data) {
  devOnly = new Set(data.devOnly);
  packages = data.packages;
}

/** The package folder a resolved file belongs to, as the lockfile names it (`node_modules/a/node_modules/@s/b`). */
function packageOf(url) {
  if (!url.startsWith(packages)) return undefined;
  const at = url.lastIndexOf('/node_modules/');
  if (at < 0) return undefined;
  const [scope, name] = url.slice(at + '/node_modules/'.length).split('/');
  const folder = url.slice(packages.length - 'node_modules/'.length, at + '/node_modules/'.length);
  return `${folder}${scope?.startsWith('@') ? `${scope}/${name}` : scope}`;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const name = packageOf(resolved.url);
  if (name && devOnly.has(name)) {
    const error = new Error(
      `Cannot find package '${name.slice(name.lastIndexOf('node_modules/') + 'node_modules/'.length)}' (a development package, absent in production)`,
    );
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return resolved;
}
