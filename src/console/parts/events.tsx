/** Events as a table: sequence, time, type, what it says, conversation, agent and hash. */
import type { ExportedEvent } from "../../events/export-line.js"
import { clip, shortHash, when } from "./format.js"
import { href } from "../route.js"
import { Head } from "./head.js"

export const EventTable = ({ events, fresh }: { events: ReadonlyArray<ExportedEvent>; fresh?: ReadonlySet<number> }) =>
  events.length === 0 ? (
    <p class="muted">No event.</p>
  ) : (
    <div class="scroll">
      <table class="events">
        <Head columns={["#", "When", "Type", "What", "Conversation", "Agent", "Hash"]} />
        <tbody>
          {events.map((e) => (
            <tr key={e.seq} data-seq={e.seq} class={fresh?.has(e.seq) ? "fresh" : ""}>
              <td>{e.seq}</td>
              <td>{when(e.recordedAt)}</td>
              <td>{e.type}</td>
              <td>{summary(e)}</td>
              <td>
                <a href={href("log", [], { origin: e.origin })}>{e.origin}</a>
              </td>
              <td>{e.agent}</td>
              <td>
                <code title={e.hash}>{shortHash(e.hash)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )

/** A line about the payload: the memory and text, the outcome, the query; "purged" once erased. */
const summary = (e: ExportedEvent) => {
  const p = e.payload
  if (p === null) return <span class="muted">purged</span>
  const ids = [p["memoryId"], ...(Array.isArray(p["memoryIds"]) ? p["memoryIds"] : [])].filter((x): x is string => typeof x === "string")
  const text = [p["outcome"], p["content"], p["query"], p["reason"], p["origin"], p["task"] === undefined ? undefined : `task ${String(p["task"])}`]
    .filter((x): x is string => typeof x === "string")
    .join(" · ")
  return (
    <>
      {ids.slice(0, 5).map((id) => (
        <a key={id} href={href("memory", [id])} class="id">
          {id.slice(0, 8)}
        </a>
      ))}{" "}
      {clip(text, 160)}
    </>
  )
}
