/**
 * The console's entry: the navigation, the page the URL's fragment names, and the token form,
 * shown when the server answers 401 (a server started with a token). The token is asked for
 * once, kept for the tab's life in sessionStorage and sent as the bearer on every call.
 */
import { render } from "preact"
import { useEffect, useState } from "preact/hooks"
import { ApiError, currentToken, onUnauthorized, setToken } from "./api.js"
import { ConversationsPage } from "./pages/conversations.js"
import { LogPage } from "./pages/log.js"
import { MemoriesPage } from "./pages/memories.js"
import { MemoryPage } from "./pages/memory.js"
import { OverviewPage } from "./pages/overview.js"
import { TasksPage } from "./pages/tasks.js"
import { WhyPage } from "./pages/why.js"
import { href, useRoute, type Route } from "./route.js"

const PAGES = [
  ["overview", "Overview"],
  ["memories", "Memories"],
  ["why", "Why"],
  ["conversations", "Conversations"],
  ["log", "Log"],
  ["tasks", "Tasks"]
] as const

const App = () => {
  const route = useRoute()
  const [refused, setRefused] = useState<ApiError | undefined>()
  // Bumped when a token is given: every page loads again with it.
  const [round, setRound] = useState(0)
  useEffect(() => onUnauthorized(setRefused), [])
  useEffect(() => {
    const title = PAGES.find(([page]) => page === route.page)?.[1] ?? "Memory"
    document.title = `${title} · memledger`
  }, [route.page])
  const current = route.page === "memory" ? "memories" : route.page
  return (
    <>
      <a class="skip" href="#main">Skip to the page</a>
      <header>
        <a class="brand" href={href("overview")}>memledger</a>
        <nav aria-label="Pages">
          <ul>
            {PAGES.map(([page, label]) => (
              <li key={page}>
                <a href={href(page)} aria-current={current === page ? "page" : undefined}>{label}</a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        {refused !== undefined ? (
          <TokenForm refused={refused} given={() => (setRefused(undefined), setRound((r) => r + 1))} />
        ) : (
          <Page key={`${round}|${route.page}|${route.rest.join("/")}`} route={route} />
        )}
      </main>
    </>
  )
}

const Page = ({ route }: { route: Route }) => {
  switch (route.page) {
    case "overview":
      return <OverviewPage />
    case "memories":
      return <MemoriesPage route={route} />
    case "memory":
      return <MemoryPage id={route.rest[0] ?? ""} />
    case "why":
      return <WhyPage route={route} />
    case "conversations":
      return <ConversationsPage />
    case "log":
      return <LogPage route={route} />
    case "tasks":
      return <TasksPage route={route} />
    default:
      return (
        <p class="error" role="alert">
          There is no page “{route.page}”. <a href={href("overview")}>Go to the overview.</a>
        </p>
      )
  }
}

/** Asks for the token; when one was sent and refused, says so plainly first. */
const TokenForm = ({ refused, given }: { refused: ApiError; given: () => void }) => {
  const hadToken = currentToken() !== null
  const submit = (e: Event) => {
    e.preventDefault()
    const value = String(new FormData(e.currentTarget as HTMLFormElement).get("token") ?? "").trim()
    if (value === "") return
    setToken(value)
    given()
  }
  return (
    <section aria-labelledby="token-title" class="panel narrow">
      <h1 id="token-title">{hadToken ? "Wrong token" : "This server needs its token"}</h1>
      <p role="alert" class={hadToken ? "error" : ""}>
        {hadToken
          ? "The server refused the token this page sent (401 Unauthorized): unknown, or revoked. Type yours, or the one the server was started with."
          : "It asks for a bearer token: type yours, or the one it was started with, once, and this tab keeps it until it is closed."}
      </p>
      <p class="muted">{refused.message}</p>
      <form onSubmit={submit} class="stack">
        <label>
          Token <input name="token" type="password" autoComplete="off" required autoFocus />
        </label>
        <button type="submit">Use this token</button>
      </form>
    </section>
  )
}

render(<App />, document.getElementById("app")!)
