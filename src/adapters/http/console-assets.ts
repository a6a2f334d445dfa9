/**
 * The console's files as the server hands them out: `/` is its page, `/console/NAME` its script,
 * style sheet and images, all read from the folder the build writes (dist/console) and kept in
 * memory once read. They load without the token (guard.ts): they hold no data, and the page
 * asks for the token itself before it calls the API.
 *
 * Every file goes out with a strict Content-Security-Policy: scripts and style sheets from this
 * server only, no inline script, no inline `<style>` or `style=` attribute, and connections
 * to this server only. Styles the script sets through the DOM (`element.style`, which Preact and
 * uPlot use to size bars and charts) are not inline style in CSP's sense and need no exception.
 */
import { existsSync, readFileSync } from "node:fs"
import { basename, dirname, extname, join } from "node:path"
import { fileURLToPath } from "node:url"

export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

export interface Asset {
  readonly body: Buffer
  readonly headers: Record<string, string>
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".map": "application/json"
}

/** The asset a GET of `pathname` asks for; undefined when the path is not the console's. */
export const consoleAsset = (pathname: string): Asset | undefined => {
  const name = pathname === "/" ? "index.html" : pathname.startsWith("/console/") ? pathname.slice("/console/".length) : undefined
  // One plain file name: no folder, no dot-segment, nothing percent-encoded.
  if (name === undefined || !/^[a-z0-9][a-z0-9._-]*$/i.test(name) || TYPES[extname(name)] === undefined) return undefined
  return read(name)
}

/** Whether `pathname` is one the console answers, so the guard lets it through without the token. */
export const isConsolePath = (pathname: string): boolean => pathname === "/" || pathname.startsWith("/console/")

const cache = new Map<string, Asset | undefined>()

const read = (name: string): Asset | undefined => {
  if (cache.has(name)) return cache.get(name)
  const folder = assetsFolder()
  const file = folder === undefined ? undefined : join(folder, name)
  const asset =
    file === undefined || !existsSync(file)
      ? undefined
      : {
          body: readFileSync(file),
          headers: {
            "content-type": TYPES[extname(name)]!,
            "content-security-policy": CONSOLE_CSP,
            // The page is small and changes with each build: always asked again, never stale.
            "cache-control": "no-cache",
            "referrer-policy": "no-referrer"
          }
        }
  cache.set(name, asset)
  return asset
}

/**
 * dist/console, wherever this code runs from: the CLI bundle (dist/mem.cjs), the compiled tree
 * (dist/adapters/http) or the sources under test (src/adapters/http).
 */
const assetsFolder = (): string | undefined => {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    // Only a folder of the build's: src/console holds the page's sources, never served.
    const candidate = basename(dir) === "dist" ? join(dir, "console") : join(dir, "dist", "console")
    if (existsSync(join(candidate, "index.html"))) return candidate
    if (dirname(dir) === dir) return undefined
  }
}
