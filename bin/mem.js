#!/usr/bin/env node
// The `mem` command: the bundled CLI in dist/ (built by `npm ci` through `prepare`).
import "../dist/mem.js"
