/**
 * Memories: the list a page at a time (the server's cursor, so a deep page is as quick as the
 * first), filtered by project, category, status, tags, origin and agent; a search ranked as
 * `mem search` ranks, through /why, which records nothing (browsing is not a recall); and a
 * form to add one.
 */
import { useState } from "preact/hooks"
import type { ExplainOutput, MemoriesOutput, RememberOutput } from "../../api/outputs.js"
import { ApiError, get, post, query } from "../api.js"
import { clip, fixed } from "../parts/format.js"
import { ErrorNote, Show, useLoad } from "../parts/load.js"
import { href, navigate, type Route } from "../route.js"
import { CATEGORIES, STATUSES } from "../vocabulary.js"
import { Head } from "../parts/head.js"

const PAGE = 50
const FILTERS = ["project", "category", "status", "tags", "origin", "agent", "all", "q"] as const

export const MemoriesPage = ({ route }: { route: Route }) => {
  const p = (name: string) => route.params.get(name) ?? undefined
  const filters = Object.fromEntries(FILTERS.map((f) => [f, p(f)])) as Record<(typeof FILTERS)[number], string | undefined>
  const tags = filters.tags?.split(",").map((t) => t.trim()).filter((t) => t !== "")
  const cursor = p("cursor")
  const key = route.params.toString()
  const [list] = useLoad(
    () =>
      get<MemoriesOutput>(
        `/memories${query({ project: filters.project, category: filters.category, status: filters.status, tags, origin: filters.origin, agent: filters.agent, all: filters.all, cursor, limit: PAGE })}`
      ),
    [key]
  )
  return (
    <section aria-labelledby="memories-title">
      <h1 id="memories-title">Memories</h1>
      <Filters values={filters} />
      {filters.q !== undefined ? <SearchResults q={filters.q} project={filters.project} category={filters.category} /> : null}
      <h2>{filters.q === undefined ? "Newest first" : "All that match the filters, newest first"}</h2>
      <Show loaded={list}>
        {(l) => (
          <>
            <MemoryTable memories={l.memories} />
            <nav class="pager" aria-label="Pages">
              {cursor !== undefined ? <a href={href("memories", [], { ...filters })}>First page</a> : null}
              {l.next !== undefined ? <a href={href("memories", [], { ...filters, cursor: l.next })}>Next page</a> : <span class="muted">End of the list</span>}
            </nav>
          </>
        )}
      </Show>
      <AddMemory />
    </section>
  )
}

const Filters = ({ values }: { values: Record<string, string | undefined> }) => {
  const submit = (e: Event) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget as HTMLFormElement)
    const next: Record<string, string | undefined> = {}
    for (const f of FILTERS) {
      const v = form.get(f)
      if (typeof v === "string" && v.trim() !== "") next[f] = v.trim()
    }
    if (form.get("all") === "on") next["all"] = "true"
    navigate(href("memories", [], next))
  }
  return (
    <form class="filters" onSubmit={submit} aria-label="Filter and search">
      <label>
        Search <input name="q" type="search" value={values["q"] ?? ""} placeholder="how do I deploy" />
      </label>
      <label>
        Project <input name="project" value={values["project"] ?? ""} />
      </label>
      <label>
        Category
        <select name="category" value={values["category"] ?? ""}>
          <option value="">any</option>
          {CATEGORIES.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      </label>
      <label>
        Status
        <select name="status" value={values["status"] ?? ""}>
          <option value="">any</option>
          {STATUSES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </label>
      <label>
        Tags <input name="tags" value={values["tags"] ?? ""} placeholder="testing, db" />
      </label>
      <label>
        Origin <input name="origin" value={values["origin"] ?? ""} />
      </label>
      <label>
        Agent <input name="agent" value={values["agent"] ?? ""} />
      </label>
      <label class="check">
        <input name="all" type="checkbox" checked={values["all"] === "true"} /> forgotten and superseded too
      </label>
      <button type="submit">Show</button>
    </form>
  )
}

const SearchResults = ({ q, project, category }: { q: string; project: string | undefined; category: string | undefined }) => {
  const [found] = useLoad(() => post<ExplainOutput>("/why", { query: q, limit: 50, ...(project ? { project } : {}), ...(category ? { category } : {}) }), [q, project, category])
  return (
    <section aria-labelledby="search-title">
      <h2 id="search-title">
        Ranked for “{q}” <a href={href("why", [], { q, project })}>why this order?</a>
      </h2>
      <Show loaded={found}>
        {(r) =>
          r.results.length === 0 ? (
            <p class="muted">Nothing answers this query{r.notice ? `: ${r.notice}` : "."}</p>
          ) : (
            <ol class="ranked">
              {r.results.map((x) => (
                <li key={x.id}>
                  <a href={href("memory", [x.id])}>{x.shortId}</a> <span class="score">{fixed(x.score, 3)}</span> {clip(x.content, 200)}
                </li>
              ))}
            </ol>
          )
        }
      </Show>
    </section>
  )
}

export const MemoryTable = ({ memories }: { memories: MemoriesOutput["memories"] }) =>
  memories.length === 0 ? (
    <p class="muted">No memory matches.</p>
  ) : (
    <div class="scroll">
      <table class="memories">
        <Head columns={["Id", "Memory", "Category", "Project", "Record"]} />
        <tbody>
          {memories.map((m) => (
            <tr key={m.id} class={m.forgotten || m.supersededBy !== null ? "gone" : ""}>
              <td>
                <a href={href("memory", [m.id])}>{m.shortId}</a>
              </td>
              <td>
                {clip(m.content, 200)} {m.tags.map((t) => <span class="tag" key={t}>{t}</span>)}
                {m.status === "tentative" ? <span class="tag">tentative</span> : null}
                {m.forgotten ? <span class="tag">forgotten</span> : null}
              </td>
              <td>{m.category}</td>
              <td>{m.project ?? "global"}</td>
              <td class={m.record.gated ? "score bad" : "score"}>
                {m.record.workedCount + m.record.failedCount + m.record.partialCount === 0 ? "—" : fixed(m.record.score)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )

const AddMemory = () => {
  const [answer, setAnswer] = useState<RememberOutput | ApiError | undefined>()
  const [draft, setDraft] = useState<Record<string, unknown> | undefined>()
  const send = async (body: Record<string, unknown>) => {
    setDraft(body)
    try {
      const result = await post<RememberOutput>("/memories", body)
      setAnswer(result)
      if (result.stored || "confirmed" in result) navigate(href("memory", [result.id]))
    } catch (error) {
      setAnswer(error as ApiError)
    }
  }
  const submit = (e: Event) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget as HTMLFormElement)
    const text = (name: string) => String(form.get(name) ?? "").trim()
    const tags = text("tags").split(",").map((t) => t.trim()).filter((t) => t !== "")
    void send({ content: text("content"), category: text("category"), ...(tags.length > 0 ? { tags } : {}), ...(text("project") ? { project: text("project") } : {}) })
  }
  return (
    <section aria-labelledby="add-title" class="panel">
      <h2 id="add-title">Add a memory</h2>
      <form onSubmit={submit} class="stack">
        <label>
          Memory <textarea name="content" required rows={3} />
        </label>
        <div class="row">
          <label>
            Category
            <select name="category">
              {CATEGORIES.map((c) => (
                <option key={c} selected={c === "general"}>{c}</option>
              ))}
            </select>
          </label>
          <label>
            Tags <input name="tags" placeholder="testing, db" />
          </label>
          <label>
            Project <input name="project" placeholder="empty: global" />
          </label>
        </div>
        <button type="submit">Add</button>
      </form>
      {answer instanceof ApiError ? <ErrorNote error={answer} /> : null}
      {answer !== undefined && !(answer instanceof ApiError) && "similar" in answer && draft !== undefined ? (
        <div role="status">
          <p>Similar memories exist. Store it anyway, or say it restates one:</p>
          <ul class="plain">
            {answer.similar.map((s) => (
              <li key={s.id}>
                <a href={href("memory", [s.id])}>{s.shortId}</a> {clip(s.content)}{" "}
                <button type="button" onClick={() => void send({ ...draft, distinct_from: s.id })}>Store, distinct from it</button>{" "}
                <button type="button" onClick={() => void send({ ...draft, confirms: s.id })}>It restates this</button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  )
}
