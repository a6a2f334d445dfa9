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

/** How long an answer asked again may take before the page says it is waiting: quicker ones would only flash. */
const SLOW_MS = 300

/** Whether `on` has held for `ms`. */
const useHeld = (on: boolean, ms: number): boolean => {
  const [held, setHeld] = useState(false)
  useEffect(() => {
    setHeld(false)
    if (!on) return
    const timer = setTimeout(() => setHeld(true), ms)
    return () => clearTimeout(timer)
  }, [on, ms])
  return on && held
}

/**
 * Renders the data once it is there; while loading, a line that says so (`waiting`, or
 * "Loading…"), and above the last data when the next is slow to come; on failure, the error.
 */
export const Show = <A,>({ loaded, waiting, children }: { loaded: Loaded<A>; waiting?: string | undefined; children: (data: A) => ComponentChildren }) => {
  const slow = useHeld(loaded.state === "ready" && loaded.refreshing === true, SLOW_MS)
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
      {slow ? status : null}
      {children(loaded.data)}
    </>
  )
}

export const ErrorNote = ({ error }: { error: ApiError | Error }) => (
  <p class="error" role="alert">
    {error instanceof ApiError ? `${error.error}: ${error.message}` : error.message}
  </p>
)
