// The folder rule of `npm run lint:layers`: no cycle between the folders of server/ (issue 30). dependency-
// cruiser's rules see cycles of files only; two folders that import each other through different files are one
// folder in all but name. Reads dependency-cruiser's JSON on stdin, prints each cycle, exits 1 when there is one.
import { text } from 'node:stream/consumers';

const folderOf = (path) => /^server\/([^/]+)\//.exec(path)?.[1];
const { modules } = JSON.parse(await text(process.stdin));
const edges = new Map();
for (const { source, dependencies } of modules) {
  const from = folderOf(source);
  if (!from || /\.(test|fixtures)\.ts$/.test(source)) continue;
  for (const { resolved } of dependencies) {
    const to = folderOf(resolved);
    if (to && to !== from) edges.set(from, new Set([...(edges.get(from) ?? []), to]));
  }
}

// Tarjan's strongly connected components: a component of more than one folder is a cycle.
let counter = 0;
const index = new Map();
const low = new Map();
const stack = [];
const cycles = [];
function visit(folder) {
  index.set(folder, counter);
  low.set(folder, counter++);
  stack.push(folder);
  for (const next of edges.get(folder) ?? []) {
    if (!index.has(next)) {
      visit(next);
      low.set(folder, Math.min(low.get(folder), low.get(next)));
    } else if (stack.includes(next)) low.set(folder, Math.min(low.get(folder), index.get(next)));
  }
  if (low.get(folder) !== index.get(folder)) return;
  const component = [];
  let member;
  do {
    member = stack.pop();
    component.push(member);
  } while (member !== folder);
  if (component.length > 1) cycles.push(component.sort());
}
for (const folder of edges.keys()) if (!index.has(folder)) visit(folder);

for (const cycle of cycles) console.error(`folder cycle: server/{${cycle.join(', ')}} import each other`);
if (cycles.length > 0) process.exit(1);
console.log(`✔ no folder cycles in server/ (${edges.size} folders)`);
