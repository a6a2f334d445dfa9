/** Loading data for a view: the answer, or the error said in the server's words, and a way to ask again. */
import type { ComponentChildren } from "preact"
import { useCallback, useEffect, useState } from "preact/hooks"
import { ApiError } from "../api.js"

export type Loaded<A> = { readonly state: "loading" } | { readonly state: "failed"; readonly error: ApiError | Error } | { readonly state: "ready"; readonly data: A }

export const useLoad = <A,>(load: () => Promise<A>, deps: ReadonlyArray<unknown>): [Loaded<A>, () => void] => {
  const [loaded, setLoaded] = useState<Loaded<A>>({ state: "loading" })
  const [round, setRound] = useState(0)
  useEffect(() => {
    let current = true
    load().then(
      (data) => current && setLoaded({ state: "ready", data }),
      (error: unknown) => current && setLoaded({ state: "failed", error: error instanceof Error ? error : new Error(String(error)) })
    )
    return () => {
      current = false
    }
  }, [...deps, round])
  return [loaded, useCallback(() => setRound((r) => r + 1), [])]
}

/** Renders the data once it is there; while loading, a line that says so; on failure, the error. */
export const Show = <A,>({ loaded, children }: { loaded: Loaded<A>; children: (data: A) => ComponentChildren }) => {
  if (loaded.state === "loading") return <p class="muted" role="status">Loading…</p>
  if (loaded.state === "failed") return <ErrorNote error={loaded.error} />
  return <>{children(loaded.data)}</>
}

export const ErrorNote = ({ error }: { error: ApiError | Error }) => (
  <p class="error" role="alert">
    {error instanceof ApiError ? `${error.error}: ${error.message}` : error.message}
  </p>
)
