/**
 * Conversations: each origin with what it contributed, forgotten or brought back in one click,
 * and purge, which erases forgotten text for good, behind the same step as `mem purge`: first
 * what would go, then erasing only when asked again.
 */
import { useState } from "preact/hooks"
import type { PurgeOutput } from "../../api/console-wire.js"
import type { ConversationOutput, ConversationsOutput } from "../../api/outputs.js"
import { ApiError, get, post } from "../api.js"
import { when } from "../parts/format.js"
import { ErrorNote, Show, useLoad } from "../parts/load.js"
import { href } from "../route.js"
import { Head } from "../parts/head.js"

export const ConversationsPage = () => {
  const [list, reload] = useLoad(() => get<ConversationsOutput>("/conversations"), [])
  const [problem, setProblem] = useState<ApiError | undefined>()
  const [done, setDone] = useState<string | undefined>()
  const toggle = (origin: string, forget: boolean) => async () => {
    setProblem(undefined)
    try {
      const r = await post<ConversationOutput>(forget ? "/conversations/forget" : "/conversations/restore", { origin })
      setDone(`${r.origin}: ${r.forgotten ? "forgotten" : "brought back"} (${r.events} events)`)
      reload()
    } catch (error) {
      setProblem(error as ApiError)
    }
  }
  return (
    <section aria-labelledby="conversations-title">
      <h1 id="conversations-title">Conversations</h1>
      {done !== undefined ? <p role="status">{done}</p> : null}
      {problem !== undefined ? <ErrorNote error={problem} /> : null}
      <Show loaded={list}>
        {(l) => (
          <div class="scroll">
            <table class="conversations">
              <Head columns={["Conversation", "Events", "Memories added", "Outcomes", "Confirmations and others", "First", "Last", { hidden: "Action" }]} />
              <tbody>
                {l.conversations.map((c) => (
                  <tr key={c.origin} data-origin={c.origin} class={c.forgotten ? "gone" : ""}>
                    <td>
                      <a href={href("log", [], { origin: c.origin })}>{c.origin}</a> {c.forgotten ? <span class="tag">forgotten</span> : null}
                      {c.purgedEvents > 0 ? <span class="tag">{c.purgedEvents} purged</span> : null}
                    </td>
                    <td>{c.events}</td>
                    <td>{c.memoriesAdded > 0 ? <a href={href("memories", [], { origin: c.origin, all: "true" })}>{c.memoriesAdded}</a> : 0}</td>
                    <td>{c.outcomes}</td>
                    <td>{c.events - c.memoriesAdded - c.outcomes}</td>
                    <td>{when(c.firstAt)}</td>
                    <td>{when(c.lastAt)}</td>
                    <td>
                      {c.forgotten ? (
                        <button type="button" onClick={toggle(c.origin, false)} disabled={c.purgedEvents > 0}>Undo forget</button>
                      ) : (
                        <button type="button" class="danger" onClick={toggle(c.origin, true)}>Forget</button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Show>
      <Purge purged={reload} />
    </section>
  )
}

const Purge = ({ purged }: { purged: () => void }) => {
  const [memories, setMemories] = useState(false)
  const [preview, setPreview] = useState<PurgeOutput | undefined>()
  const [problem, setProblem] = useState<ApiError | undefined>()
  const run = (yes: boolean) => async () => {
    setProblem(undefined)
    try {
      const r = await post<PurgeOutput>("/purge", { yes, memories })
      setPreview(r)
      if (r.done) purged()
    } catch (error) {
      setProblem(error as ApiError)
    }
  }
  return (
    <section aria-labelledby="purge-title" class="panel">
      <h2 id="purge-title">Purge</h2>
      <p>Erases the text of forgotten conversations (and, if chosen, of forgotten memories) from disk for good. Forgetting can be undone; purging cannot.</p>
      <label class="check">
        <input type="checkbox" checked={memories} onChange={(e) => setMemories((e.currentTarget as HTMLInputElement).checked)} /> forgotten memories' text too
      </label>
      <button type="button" onClick={run(false)}>Show what would be erased</button>
      {preview !== undefined && !preview.done ? (
        <div role="status" class="confirm">
          <p>
            {preview.conversations.length} forgotten conversation{preview.conversations.length === 1 ? "" : "s"}
            {preview.conversations.length > 0 ? ` (${preview.conversations.join(", ")})` : ""} and {preview.memories} forgotten memor
            {preview.memories === 1 ? "y" : "ies"}' text would be erased. This cannot be undone.
          </p>
          <button type="button" class="danger" onClick={run(true)} disabled={preview.conversations.length === 0 && preview.memories === 0}>
            Erase for good
          </button>
        </div>
      ) : null}
      {preview?.done === true ? <p role="status">Erased {preview.erasedEvents ?? 0} events' payloads.</p> : null}
      {problem !== undefined ? <ErrorNote error={problem} /> : null}
    </section>
  )
}
