#!/usr/bin/env node
// baton's npm launcher: runs the native binary from this platform's package
// (@baton-cc/<platform>-<arch>, an optional dependency npm installs only where it fits).
// `baton install` (`npx baton-cc install`) becomes `baton install --copy`: the binary copies
// itself to ~/.local/bin/baton (%LOCALAPPDATA%\baton\baton.exe on Windows) and wires that path,
// so Claude Code runs the statusline and hooks natively; this launcher (Node's start-up alone is
// ~40 ms, 40 times baton's own run) is never on that path.
'use strict';

const { spawnSync } = require('child_process');
const path = require('path');

const platform = `${process.platform}-${process.arch}`;
const name = `@baton-cc/${platform}`;
const exe = process.platform === 'win32' ? 'baton.exe' : 'baton';

function binary() {
  try {
    return path.join(path.dirname(require.resolve(`${name}/package.json`)), exe);
  } catch {
    const shipped = Object.keys(require('../package.json').optionalDependencies || {});
    const why = shipped.includes(name)
      ? `${name} is not installed (optional dependencies skipped? reinstall without --omit=optional / --no-optional)`
      : `there is no baton build for ${platform} (built for: ${shipped.map((p) => p.split('/')[1]).join(', ')})`;
    console.error(`baton: ${why}. Or build it from source: https://rustup.rs, then ./install.sh in a checkout.`);
    process.exit(1);
  }
}

const args = process.argv.slice(2);
if (args[0] === 'install' && !args.includes('--copy')) {
  args.splice(1, 0, '--copy');
}
const run = spawnSync(binary(), args, { stdio: 'inherit' });
if (run.error) {
  console.error(`baton: cannot run ${binary()}: ${run.error.message}`);
  process.exit(1);
}
if (run.signal) {
  process.kill(process.pid, run.signal);
}
process.exit(run.status === null ? 1 : run.status);
