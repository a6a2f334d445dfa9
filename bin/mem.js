#!/usr/bin/env node
// The published entry point: the compiled CLI lives in dist/ (built by `npm ci` through `prepare`).
import "../dist/adapters/cli/main.js"
