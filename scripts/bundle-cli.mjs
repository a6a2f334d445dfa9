// Bundles the CLI into one minified CommonJS file. Loading Effect as hundreds of ES modules
// costs ~0.6 s per start; one tree-shaken bundle starts in a fraction of that, and bin/mem.js
// loads it through V8's code cache, which spares compiling it again (bench/cli-start).
import { writeFileSync } from "node:fs"
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

// Effect's Schema keeps a reference to fast-check for the arbitraries it can derive, which
// memledger makes only in tests (from node_modules, not these bundles): bundled, its modules
// were evaluated on every start for nothing.
const withoutFastCheck = {
  name: "without-fast-check",
  setup(b) {
    b.onResolve({ filter: /^fast-check$/ }, (args) => ({ path: args.path, namespace: "no-fast-check" }))
    b.onLoad({ filter: /.*/, namespace: "no-fast-check" }, () => ({
      contents: 'export const array = () => { throw new Error("mem derives no arbitraries") }',
      loader: "js"
    }))
  }
}

// The hooks that use the store are loaded by a dynamic import of store-hook.js, or of
// remote-hook.js when a server is configured; each becomes a bundle of its own, which bin/mem.js
// runs with its own code cache when that import runs. In one bundle with the hook entry, the
// cache would hold whichever functions the first hook to run compiled: the store's, which
// post-tool-use would then read on every start, or none of them. And the store's bundle holds no
// dynamic import at all: esbuild wraps whatever a dynamic import reaches, Effect included, in
// lazy initialisers, and a wrapped Effect is the whole of it, every module evaluated.
const hookBundles = { "store-hook": "./hook-store.cjs", "remote-hook": "./hook-remote.cjs" }
const storeHooksApart = {
  name: "store-hooks-apart",
  setup(b) {
    b.onResolve({ filter: /\/(store|remote)-hook\.js$/ }, (args) =>
      args.kind === "dynamic-import" ? { path: hookBundles[args.path.match(/(store|remote)-hook/)[0]], external: true } : undefined
    )
  }
}

await build({
  // Agent hooks have bundles of their own: an agent runs a hook after every shell command, and
  // a hook needs neither @effect/cli nor most of the commands (bin/mem.js chooses).
  entryPoints: [
    { in: "src/adapters/cli/main.ts", out: "mem" },
    { in: "src/adapters/hook/main.ts", out: "hook" },
    { in: "src/adapters/hook/store-hook.ts", out: "hook-store" },
    { in: "src/adapters/hook/remote-hook.ts", out: "hook-remote" }
  ],
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  minify: true,
  sourcemap: "linked",
  plugins: [withoutConfigFileParsers, withoutFastCheck, storeHooksApart],
  // import() of an external becomes require(), which bin/mem.js answers (a script run by node:vm
  // has no loader for a real dynamic import).
  supported: { "dynamic-import": false },
  // Native addons and the MCP SDK with its JSON Schema validator and zod (a fifth of the bundle,
  // loaded only by `mem mcp` and `mem serve`) stay outside the bundle and load from
  // node_modules: every other start would pay for reading them (bench/cli-start).
  external: ["better-sqlite3", "sqlite-vec", "@modelcontextprotocol/sdk"],
  // Sources that resolve packages relative to themselves use import.meta.url; in CommonJS it is the bundle's own URL.
  define: { "import.meta.url": "__memImportMetaUrl" },
  banner: { js: 'const __memImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  logLevel: "warning"
})

// The tokenizer's vocabulary as a table that is ready once read (src/retrieval/token-table.ts),
// beside the bundles that read it. Built by the compiled tree, which `tsc` has just written.
const { buildTokenTable, gptTokenizerRanks } = await import("../dist/retrieval/token-table.js")
writeFileSync("dist/cl100k.tokens", buildTokenTable(gptTokenizerRanks()))
