// Keeps the root tsconfig.json listing every package and service, so `tsc -b` (pnpm build, pnpm
// typecheck) never silently skips a new one: the references are packages/*/tsconfig.json and
// services/*/tsconfig.json as they are on disk. Rewrites the file only when that list changed
// (then commit it); the order of references does not matter to tsc -b, which follows each project's own.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const target = join(root, 'tsconfig.json');

const projects = ['packages', 'services'].flatMap((folder) =>
  existsSync(join(root, folder))
    ? readdirSync(join(root, folder))
        .sort()
        .filter((name) => existsSync(join(root, folder, name, 'tsconfig.json')))
        .map((name) => `${folder}/${name}`)
    : [],
);

const references = projects.map((path) => `    { "path": "${path}" }`).join(',\n');
const content = `{\n  "files": [],\n  "references": [\n${references}\n  ]\n}\n`;

if (!existsSync(target) || readFileSync(target, 'utf8') !== content) {
  writeFileSync(target, content);
  console.log(`tsconfig.json: references ${projects.length} projects`);
}
