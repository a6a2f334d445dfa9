// Bundles the CLI into one minified CommonJS file. Loading Effect as hundreds of ES modules
// costs ~0.6 s per start; one tree-shaken bundle starts in a fraction of that, and bin/mem.js
// loads it through V8's code cache, which spares compiling it again (bench/cli-start).
import { build } from "esbuild"

// @effect/cli can read option values from YAML, TOML and INI files; mem never does, and those
// parsers are a quarter of the bundle that every start would compile.
const withoutConfigFileParsers = {
  name: "without-config-file-parsers",
  setup(b) {
    b.onResolve({ filter: /^(yaml|toml|ini)$/ }, (args) => ({ path: args.path, namespace: "unused" }))
    b.onLoad({ filter: /.*/, namespace: "unused" }, (args) => ({
      contents: `const parse = () => { throw new Error("mem reads no ${args.path} files") }; export { parse }; export default { parse }`,
      loader: "js"
    }))
  }
}

await build({
  entryPoints: ["src/adapters/cli/main.ts"],
  outfile: "dist/mem.cjs",
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  minify: true,
  sourcemap: "linked",
  plugins: [withoutConfigFileParsers],
  // Native addons, the tokenizer's large tables (loaded only by `context`), and the MCP SDK
  // with its JSON Schema validator and zod (a fifth of the bundle, loaded only by `mem mcp` and
  // `mem serve`) stay outside the bundle and load from node_modules: every other start would
  // pay for reading them (bench/cli-start).
  external: ["better-sqlite3", "sqlite-vec", "gpt-tokenizer", "@modelcontextprotocol/sdk"],
  // Sources that resolve packages relative to themselves use import.meta.url; in CommonJS it is the bundle's own URL.
  define: { "import.meta.url": "__memImportMetaUrl" },
  banner: { js: 'const __memImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  logLevel: "warning"
})
