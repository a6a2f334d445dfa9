/** Loading data for a view: the answer, or the error said in the server's words, and a way to ask again. */
import type { ComponentChildren } from "preact"
import { useCallback, useEffect, useState } from "preact/hooks"
import { ApiError } from "../api.js"

/** `refreshing`: the data of the last answer, shown while the next one (new arguments, or again) is asked for. */
export type Loaded<A> =
  | { readonly state: "loading" }
  | { readonly state: "failed"; readonly error: ApiError | Error }
  | { readonly state: "ready"; readonly data: A; readonly refreshing?: boolean }

export const useLoad = <A,>(load: () => Promise<A>, deps: ReadonlyArray<unknown>): [Loaded<A>, () => void] => {
  const [loaded, setLoaded] = useState<Loaded<A>>({ state: "loading" })
  const [round, setRound] = useState(0)
  useEffect(() => {
    let current = true
    setLoaded((last) => (last.state === "ready" ? { ...last, refreshing: true } : { state: "loading" }))
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

/**
 * Renders the data once it is there; while loading, a line that says so (`waiting`, or
 * "Loading…"), and above the last data while the next is asked for; on failure, the error.
 */
export const Show = <A,>({ loaded, waiting, children }: { loaded: Loaded<A>; waiting?: string; children: (data: A) => ComponentChildren }) => {
  const status = (
    <p class="muted" role="status">
      {waiting ?? "Loading…"}
    </p>
  )
  if (loaded.state === "loading") return status
  if (loaded.state === "failed") return <ErrorNote error={loaded.error} />
  // The same shape refreshing or not, so the views below keep their state (a message an action left).
  return (
    <>
      {loaded.refreshing ? status : null}
      {children(loaded.data)}
    </>
  )
}

export const ErrorNote = ({ error }: { error: ApiError | Error }) => (
  <p class="error" role="alert">
    {error instanceof ApiError ? `${error.error}: ${error.message}` : error.message}
  </p>
)
