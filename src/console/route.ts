/**
 * Where the console is: the page and its parameters, kept in the URL's fragment (`#/memory/ID`,
 * `#/why?q=...&at=...`), so every view has an address to bookmark or share, back and forward
 * work, and the server only ever serves one page.
 */
import { useEffect, useState } from "preact/hooks"

export interface Route {
  readonly page: string
  /** The path segments after the page's name, e.g. the memory's id. */
  readonly rest: ReadonlyArray<string>
  readonly params: URLSearchParams
}

export const parseRoute = (hash: string): Route => {
  const [path = "", search = ""] = hash.replace(/^#\/?/, "").split("?", 2)
  const [page = "", ...rest] = path.split("/").filter((s) => s !== "").map(decodeURIComponent)
  return { page: page === "" ? "overview" : page, rest, params: new URLSearchParams(search) }
}

/** The fragment of a view: `href("memory", [id])`, `href("why", [], { q: "deploy" })`. */
export const href = (page: string, rest: ReadonlyArray<string> = [], params: Record<string, string | undefined> = {}): string => {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== "") search.set(name, value)
  const path = [page, ...rest].map(encodeURIComponent).join("/")
  const text = search.toString()
  return `#/${path}${text === "" ? "" : `?${text}`}`
}

export const navigate = (to: string): void => {
  window.location.hash = to
}

export const useRoute = (): Route => {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash))
  useEffect(() => {
    const changed = () => setRoute(parseRoute(window.location.hash))
    window.addEventListener("hashchange", changed)
    return () => window.removeEventListener("hashchange", changed)
  }, [])
  return route
}
