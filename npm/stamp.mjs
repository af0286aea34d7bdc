#!/usr/bin/env node
// Keeps the npm packages and the Claude Code plugin in step with Cargo.toml, the one place
// baton's version is written.
//   node npm/stamp.mjs                 # set every package's version (and the main package's
//                                      # optionalDependencies) and plugin/.claude-plugin/plugin.json's
//                                      # to Cargo.toml's
//   node npm/stamp.mjs --check         # exit 1, naming the file, when one is out of step
//   node npm/stamp.mjs --targets       # print the Rust targets, one a line
//   node npm/stamp.mjs --stage DIR     # also copy the release binaries from DIR (scripts/release.sh's
//                                      # dist/) into the platform packages, checked against
//                                      # DIR/SHA256SUMS
// Each platform package (npm/platforms/<os>-<cpu>) holds one binary, built for this Rust target:
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TARGETS = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
  'win32-x64': 'x86_64-pc-windows-gnullvm',
  'win32-arm64': 'aarch64-pc-windows-gnullvm',
};

const npm = dirname(fileURLToPath(import.meta.url));
const repo = dirname(npm);

function cargoVersion() {
  const toml = readFileSync(join(repo, 'Cargo.toml'), 'utf8');
  const pkg = toml.split(/^\[/m).find((section) => section.startsWith('package]'));
  const found = pkg && pkg.match(/^version\s*=\s*"([^"]+)"/m);
  if (!found) throw new Error('no [package] version in Cargo.toml');
  return found[1];
}

function packages() {
  const list = [{ file: join(repo, 'plugin', '.claude-plugin', 'plugin.json') }, { file: join(npm, 'baton-cc', 'package.json') }];
  for (const platform of Object.keys(TARGETS)) {
    list.push({ file: join(npm, 'platforms', platform, 'package.json'), platform });
  }
  for (const p of list) {
    p.text = readFileSync(p.file, 'utf8');
    p.json = JSON.parse(p.text);
  }
  return list;
}

function stamped(p, version) {
  const json = structuredClone(p.json);
  json.version = version;
  if (json.optionalDependencies) {
    json.optionalDependencies = Object.fromEntries(
      Object.keys(TARGETS).sort().map((platform) => [`@baton-cc/${platform}`, version]),
    );
  }
  if (p.platform) {
    const [os, cpu] = p.platform.split('-');
    if (json.name !== `@baton-cc/${p.platform}` || json.os?.join() !== os || json.cpu?.join() !== cpu) {
      throw new Error(`${p.file}: name, os and cpu must say @baton-cc/${p.platform}, ${os}, ${cpu}`);
    }
  }
  return JSON.stringify(json, null, 2) + '\n';
}

function writeAtomic(file, bytes) {
  writeFileSync(`${file}.tmp`, bytes);
  renameSync(`${file}.tmp`, file);
}

function stage(dist, version) {
  const sums = new Map(
    readFileSync(join(dist, 'SHA256SUMS'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(/\s+\*?/).reverse()),
  );
  for (const [platform, target] of Object.entries(TARGETS)) {
    const exe = platform.startsWith('win32') ? 'baton.exe' : 'baton';
    const name = `baton-${version}-${target}${exe.endsWith('.exe') ? '.exe' : ''}`;
    const from = join(dist, name);
    const sum = createHash('sha256').update(readFileSync(from)).digest('hex');
    if (sums.get(name) !== sum) throw new Error(`${from}: SHA-256 ${sum} is not the one in SHA256SUMS`);
    const to = join(npm, 'platforms', platform, exe);
    copyFileSync(from, `${to}.tmp`);
    chmodSync(`${to}.tmp`, 0o755);
    renameSync(`${to}.tmp`, to);
    console.log(`${to} <- ${name}`);
  }
}

function main(args) {
  if (args[0] === '--targets') {
    console.log(Object.values(TARGETS).join('\n'));
    return;
  }
  const version = cargoVersion();
  let stale = 0;
  for (const p of packages()) {
    const text = stamped(p, version);
    if (text === p.text) continue;
    if (args[0] === '--check') {
      console.error(`${p.file} is not as npm/stamp.mjs writes it for Cargo.toml's version ${version}: run node npm/stamp.mjs`);
      stale += 1;
    } else {
      writeAtomic(p.file, text);
      console.log(`${p.file}: ${version}`);
    }
  }
  if (args[0] === '--stage') stage(args[1] ?? join(repo, 'dist'), version);
  process.exit(stale ? 1 : 0);
}

try {
  main(process.argv.slice(2));
} catch (error) {
  console.error(`stamp.mjs: ${error.message}`);
  process.exit(1);
}
