/** Tasks: those the log names (the `task` of recalls and outcomes), what was recalled under each, and the outcomes given. */
import type { TasksOutput } from "../../api/console-wire.js"
import { get, query } from "../api.js"
import { clip, when } from "../parts/format.js"
import { Show, useLoad } from "../parts/load.js"
import { href, type Route } from "../route.js"

export const TasksPage = ({ route }: { route: Route }) => {
  const before = route.params.get("before") ?? undefined
  const [tasks] = useLoad(() => get<TasksOutput>(`/tasks${query({ before, limit: 20 })}`), [before])
  return (
    <section aria-labelledby="tasks-title">
      <h1 id="tasks-title">Tasks</h1>
      <p class="muted">Tasks recalls and outcomes were recorded under, most recently named first.</p>
      <Show loaded={tasks}>
        {(t) => (
          <>
            {t.found !== undefined ? <Found tasks={t.found} /> : null}
            {t.tasks.length === 0 ? <p class="muted">No recall or outcome in the log names a task.</p> : null}
            <ul class="tasks">
              {t.tasks.map((task) => (
                <li key={task.task} data-task={task.task}>
                  <h2>{task.task}</h2>
                  <p class="muted">
                    last named {when(task.lastAt)}; {task.recalls} recall{task.recalls === 1 ? "" : "s"}
                  </p>
                  <h3>Recalled</h3>
                  {task.recalled.length === 0 ? (
                    <p class="muted">nothing</p>
                  ) : (
                    <ul class="plain">
                      {task.recalled.map((m) => (
                        <li key={m.id}>
                          <a href={href("memory", [m.id])}>{m.id.slice(0, 8)}</a> {m.content === null ? <span class="muted">no longer held</span> : clip(m.content)}
                        </li>
                      ))}
                    </ul>
                  )}
                  <h3>Outcomes</h3>
                  {task.outcomes.length === 0 ? (
                    <p class="muted">none recorded</p>
                  ) : (
                    <ul class="plain">
                      {task.outcomes.map((o) => (
                        <li key={o.id}>
                          <span class={`outcome ${String(o.payload?.["outcome"] ?? "")}`}>{String(o.payload?.["outcome"] ?? "purged")}</span> {when(o.recordedAt)} by{" "}
                          <a href={href("log", [], { origin: o.origin })}>{o.origin}</a>
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
            {t.next !== null ? (
              <nav class="pager" aria-label="Pages">
                <a href={href("tasks", [], { before: String(t.next) })}>Older tasks</a>
              </nav>
            ) : null}
          </>
        )}
      </Show>
    </section>
  )
}

/** The Beads issues and Claude Code todos where `mem ui` runs, as `mem tasks` lists them. */
const Found = ({ tasks }: { tasks: NonNullable<TasksOutput["found"]> }) => (
  <section aria-labelledby="found-title">
    <h2 id="found-title">Found in this folder ({tasks.length})</h2>
    {tasks.length === 0 ? (
      <p class="muted">No Beads issue or Claude Code todo here.</p>
    ) : (
      <ul class="plain">
        {tasks.map((task) => (
          <li key={task.ref}>
            <code>{task.ref}</code> {task.title} <span class="tag">{task.status}</span>{" "}
            <span class="muted">
              {task.linked} memor{task.linked === 1 ? "y" : "ies"} recalled{task.recorded === null ? "" : `; outcome ${task.recorded}`}
            </span>
          </li>
        ))}
      </ul>
    )}
  </section>
)
