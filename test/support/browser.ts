// Headless Chromium for tests that need a real browser (the public form page): one browser per test
// file, a fresh context (cookies, storage, cache) per test, axe-core accessibility checks, and a
// collector of what must never happen on a page: CSP violations, console errors, uncaught errors.
//
// The browser is the machine's Chromium (Debian's `chromium-headless-shell`, else its `chromium`;
// CI installs the shell, see .ci/run), driven over CDP by playwright-core, which downloads no browser
// of its own. CHROMIUM_PATH overrides where it is.
//
// Pages are tested under their real CSP (no `bypassCSP`): a context that bypassed it would run the
// inline scripts the policy blocks and hide exactly the violations these tests look for. axe's source
// goes in with `page.evaluate`, which CDP runs outside the page's CSP, so it works under a policy
// without 'unsafe-inline' and adds no violation of its own (`addScriptTag` is refused by such a
// policy, and reports a violation).
import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import type { RunOptions } from "axe-core"
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page
} from "playwright-core"
import { afterAll, afterEach, beforeAll } from "vitest"

/**
 * Debian's Chromium headless shell (package `chromium-headless-shell`): the same Chromium release
 * and Blink as `chromium`, without the desktop browser around each tab, which is what Playwright
 * itself runs for headless tests. A new page (a renderer) cost ~0.3 s of CPU in it against ~0.6 s
 * in `chromium --headless`, and the browser files took 94 s instead of 201 s (decision 0028).
 * Without it, `chromium` (slower, the same pages); CHROMIUM_PATH names another.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
const FULL_CHROMIUM = "/usr/bin/chromium"

/** The first installed of the two (the shell named when neither is, for the error below). */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ??
  [HEADLESS_SHELL, FULL_CHROMIUM].find((path) => existsSync(path)) ??
  HEADLESS_SHELL

/** Launches headless Chromium; fails with what to do when it is not installed. */
export const launchBrowser = async (): Promise<Browser> => {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(
      `no Chromium at ${CHROMIUM_PATH}: install it (apt-get install -y chromium-headless-shell) or set CHROMIUM_PATH`
    )
  return chromium.launch({ executablePath: CHROMIUM_PATH, timeout: 30_000 })
}

export const closeBrowser = async (browser: Browser | undefined): Promise<void> => {
  await browser?.close()
}

export interface SharedBrowser {
  /** The file's browser (launched in beforeAll). */
  readonly browser: () => Browser
  /** A page in a context of its own, closed after the test. */
  readonly newPage: (options?: BrowserContextOptions) => Promise<Page>
}

/**
 * Registers the hooks of a browser test file: one browser for the file (beforeAll/afterAll) and the
 * contexts of each test closed after it (afterEach). Call it at the top level of the file.
 */
export const sharedBrowser = (): SharedBrowser => {
  let browser: Browser | undefined
  const contexts = new Set<BrowserContext>()
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterEach(async () => {
    await Promise.all([...contexts].map((context) => context.close()))
    contexts.clear()
  })
  afterAll(() => closeBrowser(browser))
  const current = () => {
    if (browser === undefined) throw new Error("the browser is launched in beforeAll; use it inside a test")
    return browser
  }
  return {
    browser: current,
    newPage: async (options = {}) => {
      const context = await current().newContext(options)
      contexts.add(context)
      return context.newPage()
    }
  }
}

// axe-core ----------------------------------------------------------------------------------------

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

export type Impact = "minor" | "moderate" | "serious" | "critical"

/** One axe rule a page breaks, with the elements that break it (CSS selectors and their HTML). */
export interface AxeViolation {
  readonly id: string
  readonly impact: Impact | null
  readonly help: string
  readonly nodes: ReadonlyArray<{ readonly target: string; readonly html: string }>
}

/**
 * The serious and critical axe violations of the page as it is now (run it after the page has
 * rendered what is to be checked), once its finite animations have ended: a question fading in
 * (opacity rising from 0) has, mid-way, a contrast its settled colours do not, and a loaded
 * machine once let axe measure it there. `options` are axe's run options (rules, tags, ...).
 */
export const axeViolations = async (
  page: Page,
  options: RunOptions = {}
): Promise<ReadonlyArray<AxeViolation>> => {
  // (A string: this file is compiled without the DOM's types.)
  await page.evaluate(
    "Promise.all(document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity).map((a) => a.finished.catch(() => undefined)))"
  )
  const loaded = await page.evaluate(() => "axe" in globalThis)
  if (!loaded) await page.evaluate(axeSource)
  const violations = await page.evaluate(async (runOptions) => {
    type Axe = {
      run: (options: unknown) => Promise<{
        violations: Array<{
          id: string
          impact?: Impact | null
          help: string
          nodes: Array<{ target: Array<unknown>; html: string }>
        }>
      }>
    }
    const axe = (globalThis as unknown as { axe: Axe }).axe
    const results = await axe.run({ ...runOptions, resultTypes: ["violations"] })
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.map(String).join(" "), html: n.html }))
    }))
  }, options)
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical")
}

// Problems ----------------------------------------------------------------------------------------

export type PageProblem =
  /** A CSP violation (enforced or report-only), as the page's `securitypolicyviolation` event saw it. */
  | {
      readonly kind: "csp"
      readonly directive: string
      readonly blocked: string
      readonly source: string
      readonly disposition: string
    }
  /**
   * A console message at error level (a failed load included), other than Chromium's text for a CSP
   * violation (reported as `csp`) and a missing /favicon.ico (the browser's request, not the page's).
   */
  | { readonly kind: "console"; readonly text: string; readonly location: string }
  /** An exception no script caught. */
  | { readonly kind: "pageerror"; readonly text: string }

export interface ProblemCollector {
  /** Every problem so far, once the page's pending violation reports have arrived. */
  readonly problems: () => Promise<ReadonlyArray<PageProblem>>
}

const CSP_BINDING = "__folioReportCspViolation"

// Runs in every frame before any of its scripts (CDP injects it, outside the page's CSP).
const CSP_LISTENER = `document.addEventListener("securitypolicyviolation", (e) => {
  globalThis.${CSP_BINDING}({
    directive: e.effectiveDirective,
    blocked: e.blockedURI,
    source: e.sourceFile + ":" + e.lineNumber + ":" + e.columnNumber,
    disposition: e.disposition
  })
})`

/** Chromium's console text for a CSP violation, already reported (with structure) as `csp`. */
const CSP_CONSOLE_TEXT = /Content Security Policy/

/** The browser's own request for a tab icon: no page asks for it, so its 404 is not the page's. */
const FAVICON = /\/favicon\.ico$/

/**
 * Starts collecting the page's problems. Call it before the page navigates: the CSP listener is
 * installed in each document as it is created.
 */
export const collectProblems = async (page: Page): Promise<ProblemCollector> => {
  const found: Array<PageProblem> = []
  await page.exposeFunction(
    CSP_BINDING,
    (v: { directive: string; blocked: string; source: string; disposition: string }) => {
      found.push({ kind: "csp", ...v })
    }
  )
  await page.addInitScript({ content: CSP_LISTENER })
  page.on("console", (message) => {
    const { url, lineNumber } = message.location()
    if (message.type() !== "error" || CSP_CONSOLE_TEXT.test(message.text()) || FAVICON.test(url)) return
    found.push({ kind: "console", text: message.text(), location: `${url}:${lineNumber}` })
  })
  page.on("pageerror", (error) => {
    found.push({ kind: "pageerror", text: error.message })
  })
  return {
    problems: async () => {
      // Violation events are dispatched in a task of their own: let the page's queued tasks run,
      // then the reports (CDP events) are in before this evaluate's answer.
      // A page without JavaScript runs no timers: then a short wait here stands in for it.
      if (!page.isClosed())
        await Promise.race([
          page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 10))),
          new Promise((resolve) => setTimeout(resolve, 250))
        ])
      return [...found]
    }
  }
}
