// Builds the console (src/console) into dist/console: one minified script, one style sheet
// (uPlot's own rules and ours) and the page, served by `mem serve` at / and /console/. Prints
// the script's size gzipped, which docs/console.md reports (the goal is under 150 KB).
import { copyFileSync, mkdirSync, readFileSync } from "node:fs"
import { gzipSync } from "node:zlib"
import { build } from "esbuild"

mkdirSync("dist/console", { recursive: true })
await build({
  entryPoints: { app: "src/console/main.tsx" },
  outdir: "dist/console",
  bundle: true,
  format: "esm",
  target: ["chrome110", "firefox110", "safari16"],
  minify: true,
  jsx: "automatic",
  jsxImportSource: "preact",
  legalComments: "none",
  logLevel: "warning"
})
await build({
  entryPoints: { app: "src/console/app.css" },
  outdir: "dist/console",
  bundle: true,
  minify: true,
  logLevel: "warning"
})
copyFileSync("src/console/index.html", "dist/console/index.html")

const gzipped = (file) => gzipSync(readFileSync(file), { level: 9 }).length
if (process.env.CONSOLE_SIZE) console.log(`console: app.js ${(gzipped("dist/console/app.js") / 1024).toFixed(1)} KB gzipped, app.css ${(gzipped("dist/console/app.css") / 1024).toFixed(1)} KB`)
