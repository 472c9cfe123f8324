#!/usr/bin/env node

const fs = require('node:fs');
const path = require('node:path');

const bundle = path.join(__dirname, '..', 'out', 'main', 'cli.js');
if (!fs.existsSync(bundle)) {
  process.stderr.write(`coworkenv: the CLI is not built yet. Run \`npm run build\` in ${path.join(__dirname, '..')}\n`);
  process.exit(2);
}
require(bundle);
