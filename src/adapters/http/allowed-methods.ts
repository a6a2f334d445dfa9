/**
 * The methods each REST path answers, from `MemledgerApi`'s declaration (plus the two
 * documents the server serves beside it), so that a known path asked with another method gets
 * `405` and an `Allow` header instead of HttpApi's `404`, which told the client the path did not
 * exist. HEAD goes wherever GET does, as HttpApi answers it.
 */
import { HttpApi } from "@effect/platform"
import { MemledgerApi } from "../../api/http-api.js"

/** The methods `pathname` answers, in a stable order; empty for a path the API does not have. */
export const allowedMethods = (pathname: string): ReadonlyArray<string> => {
  const segments = pathname.split("/")
  const methods = new Set<string>()
  for (const path of paths()) if (matches(path.pattern, segments)) for (const m of path.methods) methods.add(m)
  if (methods.has("GET")) methods.add("HEAD")
  return ORDER.filter((m) => methods.has(m))
}

const ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]

interface DeclaredPath {
  readonly pattern: ReadonlyArray<string>
  readonly methods: ReadonlyArray<string>
}

let declared: ReadonlyArray<DeclaredPath> | undefined

/** Reflected once, on the first request that needs it. */
const paths = (): ReadonlyArray<DeclaredPath> => {
  if (declared !== undefined) return declared
  const byPath = new Map<string, Set<string>>([
    ["/openapi.json", new Set(["GET"])],
    ["/docs", new Set(["GET"])]
  ])
  HttpApi.reflect(MemledgerApi, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint }) => {
      const methods = byPath.get(endpoint.path) ?? new Set<string>()
      methods.add(endpoint.method)
      byPath.set(endpoint.path, methods)
    }
  })
  declared = [...byPath].map(([path, methods]) => ({ pattern: path.split("/"), methods: [...methods] }))
  return declared
}

/** A `:param` segment matches any non-empty segment, as the router's does. */
const matches = (pattern: ReadonlyArray<string>, segments: ReadonlyArray<string>): boolean =>
  pattern.length === segments.length && pattern.every((expected, i) => (expected.startsWith(":") ? segments[i]!.length > 0 : expected === segments[i]))
