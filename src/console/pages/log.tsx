/**
 * Log: the event stream newest first, filtered by type, conversation and memory, with the hash
 * chain's state, and live: events any process appends arrive through the streamed /events/live
 * and are put on top (those that pass the filters) without a reload.
 */
import { useEffect, useState } from "preact/hooks"
import type { OverviewOutput } from "../../api/console-wire.js"
import type { LogOutput } from "../../api/outputs.js"
import type { ExportedEvent } from "../../events/export-line.js"
import { follow, get, query } from "../api.js"
import { EventTable } from "../parts/events.js"
import { shortHash, when } from "../parts/format.js"
import { Show, useLoad } from "../parts/load.js"
import { href, navigate, type Route } from "../route.js"
import { EVENT_TYPES } from "../vocabulary.js"

const PAGE = 100

export const LogPage = ({ route }: { route: Route }) => {
  const type = route.params.get("type") ?? undefined
  const origin = route.params.get("origin") ?? undefined
  const memory = route.params.get("memory") ?? undefined
  const before = route.params.get("before") ?? undefined
  const [page] = useLoad(
    () => get<LogOutput>(`/events${query({ newest_first: true, limit: PAGE, types: type === undefined ? undefined : [type], origin, memory, before })}`),
    [type, origin, memory, before]
  )
  const [overview] = useLoad(() => get<OverviewOutput>("/overview"), [])
  const submit = (e: Event) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget as HTMLFormElement)
    const value = (name: string) => String(form.get(name) ?? "").trim() || undefined
    navigate(href("log", [], { type: value("type"), origin: value("origin"), memory: value("memory") }))
  }
  return (
    <section aria-labelledby="log-title">
      <h1 id="log-title">Log</h1>
      <Show loaded={overview}>
        {(o) => (
          <p class={o.chain.broken === null ? "" : "error"}>
            {o.chain.head === null ? "The log is empty." : `Head #${o.chain.head.seq}, hash ${shortHash(o.chain.head.hash)}. `}
            {o.chain.broken === null
              ? "No break in the hash chain has been found (`mem verify` checks every event)."
              : `The chain is broken at #${o.chain.broken.brokenAt}: ${o.chain.broken.reason} (found ${when(o.chain.broken.foundAt)}).`}
          </p>
        )}
      </Show>
      <form class="filters" onSubmit={submit} aria-label="Filter the log">
        <label>
          Type
          <select name="type" value={type ?? ""}>
            <option value="">any</option>
            {EVENT_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <label>
          Conversation <input name="origin" value={origin ?? ""} />
        </label>
        <label>
          Memory <input name="memory" value={memory ?? ""} placeholder="id or 6+ characters" />
        </label>
        <button type="submit">Show</button>
      </form>
      <Show loaded={page}>
        {(p) => (
          <Live
            key={`${type}|${origin}|${memory}|${before}`}
            first={p}
            following={before === undefined}
            older={p.next === null ? undefined : href("log", [], { type, origin, memory, before: String(p.next) })}
            passes={(e) => (type === undefined || e.type === type) && (origin === undefined || e.origin === origin) && (memory === undefined || mentions(e, memory))}
          />
        )}
      </Show>
    </section>
  )
}

/** The page's events, with the live ones on top; a memory filter matches an id by its prefix, as the server does. */
const Live = ({ first, following, older, passes }: { first: LogOutput; following: boolean; older: string | undefined; passes: (e: ExportedEvent) => boolean }) => {
  const [events, setEvents] = useState<ReadonlyArray<ExportedEvent>>(first.events)
  const [fresh, setFresh] = useState<ReadonlySet<number>>(new Set())
  const [state, setState] = useState<"connecting" | "live" | "stopped">(following ? "connecting" : "stopped")
  useEffect(() => {
    if (!following) return
    const stop = new AbortController()
    const head = Math.max(0, ...first.events.map((e) => e.seq))
    let after = head
    const run = async () => {
      while (!stop.signal.aborted) {
        setState("live")
        try {
          await follow(after, (e) => {
            after = e.seq
            if (!passes(e)) return
            setEvents((old) => [e, ...old])
            setFresh((old) => new Set([...old, e.seq]))
          }, stop.signal)
        } catch {
          setState("connecting")
          await new Promise((resolve) => setTimeout(resolve, 2000))
        }
      }
    }
    void run()
    return () => stop.abort()
  }, [])
  return (
    <>
      <p class="muted" role="status" aria-live="polite">
        {state === "live" ? "Live: new events appear on top." : state === "connecting" ? "Reconnecting to the live log…" : "An older page: not live."}
      </p>
      <EventTable events={events} fresh={fresh} />
      <nav class="pager" aria-label="Pages">
        {older !== undefined ? <a href={older}>Older events</a> : <span class="muted">The log's start</span>}
      </nav>
    </>
  )
}

const mentions = (e: ExportedEvent, memory: string): boolean => {
  const p = e.payload
  if (p === null) return false
  const ids = [p["memoryId"], p["by"], ...(Array.isArray(p["memoryIds"]) ? p["memoryIds"] : [])]
  return ids.some((id) => typeof id === "string" && id.startsWith(memory))
}
