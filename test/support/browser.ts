/**
 * A real Chromium for the console's tests: Debian's `chromium` (/usr/bin/chromium, which
 * .ci/run installs when it is missing) driven by playwright-core, never a browser playwright
 * downloads. A missing Chromium fails the test that asks for it, saying how to install it:
 * browser tests never skip in silence.
 *
 * Each browser has a fresh profile folder, and every page it opens records its console errors
 * (a Content-Security-Policy violation is one) and uncaught exceptions, which tests assert are
 * none. axe-core is evaluated in the page through the DevTools protocol, which the page's CSP
 * does not govern, so the page is checked with the very policy it is served with.
 */
import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { chromium, type BrowserContext, type Page } from "playwright-core"
import { tempDir } from "./cli.js"

export const CHROMIUM = "/usr/bin/chromium"

const FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]

export interface Browser {
  readonly context: BrowserContext
  readonly version: string
  /** A new tab at 1280x800 (or `viewport`) in `scheme`, recording what goes wrong in it. */
  readonly open: (options?: { scheme?: "light" | "dark"; viewport?: { width: number; height: number } }) => Promise<Watched>
  readonly close: () => Promise<void>
}

export interface Watched {
  readonly page: Page
  /** Console errors and uncaught exceptions so far. */
  readonly problems: string[]
}

export const launchChromium = async (): Promise<Browser> => {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: install Debian's package (apt-get install -y chromium); .ci/run does this`)
  // --headless is given by playwright itself for `headless: true`; the profile is the launch's first argument.
  const context = await chromium.launchPersistentContext(tempDir("memledger-chromium-"), {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 800 }
  })
  const version = context.browser()?.version() ?? (await versionOf(context))
  return {
    context,
    version,
    open: async (options = {}) => {
      const page = await context.newPage()
      if (options.viewport !== undefined) await page.setViewportSize(options.viewport)
      await page.emulateMedia({ colorScheme: options.scheme ?? "light" })
      const problems: string[] = []
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(`console error: ${message.text()}`)
      })
      page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`))
      return { page, problems }
    },
    close: () => context.close()
  }
}

const versionOf = async (context: BrowserContext): Promise<string> => {
  const page = await context.newPage()
  const agent = (await page.evaluate("navigator.userAgent")) as string
  await page.close()
  return /Chrome\/([\d.]+)/.exec(agent)?.[1] ?? agent
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

/** axe-core's serious and critical violations on the page as it is now, each as "rule: target". */
export const seriousViolations = async (page: Page): Promise<string[]> => {
  await page.evaluate(axeSource)
  // A string, run in the page: this file is compiled without the DOM's types.
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ["violations"] }).then((r) =>
    r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(" ")) })))`)) as Array<{
    id: string
    impact: string | null
    targets: string[]
  }>
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.targets.join(", ")}`)
}
