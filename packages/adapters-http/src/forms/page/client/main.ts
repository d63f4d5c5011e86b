// The public form page's script: enhances the server's HTML into one question per screen (classic),
// a conversation (conversational) or paged document (document); runs the domain's own branching,
// value checks and derived fields; starts or resumes the response, autosaves, uploads and completes.
import { showWithdrawalLink } from "./withdrawal-link.js"
import {
  type Answers,
  type AnswerValue,
  type Block,
  checkAnswer,
  deriveAnswers,
  type FormDefinition,
  type QuizResult,
  visibleBlocks
} from "@folio/domain/browser"
import { makeBanner } from "./banner.js"
import { makeApi, type Issue, type Started } from "./api.js"
import { readAnswer, type Touched, type Uploads, writeAnswer } from "./fields.js"
import { fill, ruleMessage, type Strings } from "../strings.js"
import { quizResultsView } from "./quiz-view.js"
import { applyRunColours, enhanceOther, enhanceRanking, enhanceSignature, enhanceUpload } from "./widgets.js"

interface PageData {
  readonly slug: string
  readonly formVersionId: string
  readonly mode: "classic" | "conversational" | "document"
  readonly locale: string
  readonly definition: FormDefinition
  readonly completion: { redirectUrl?: string; allowAnother?: boolean; confetti?: boolean }
  readonly repeatResponsePolicy: "warn" | "soft_block" | null
  readonly reduceMotion: boolean
  readonly hasIntro: boolean
  /** settings.submission.allowResponseEditing: a completed response can be reopened and edited. */
  readonly allowEditing: boolean
  /** The form is under research compliance: its consent items are accepted before the start. */
  readonly consent: boolean
  /** The browser holds a continuity cookie (HttpOnly, so only the server can tell). */
  readonly mayResume: boolean
  readonly strings: Strings
}

const SAVE_DELAY_MS = 600
const NON_STEP = new Set(["hidden_field", "page_break", "divider"])

const boot = () => {
  const dataNode = document.getElementById("folio-data")
  const form = document.getElementById("form")
  if (dataNode === null || !(form instanceof HTMLFormElement)) return
  const data = JSON.parse(dataNode.textContent ?? "{}") as PageData
  const { definition, strings, mode } = data
  const api = makeApi(data.slug)
  const blocks = new Map(definition.blocks.map((b) => [b.id, b]))
  const uploads: Uploads = new Map()
  const touched: Touched = new Set()
  const params: Record<string, string> = Object.fromEntries(new URLSearchParams(location.search))
  const banner = document.getElementById("banner")
  const saveState = document.querySelector<HTMLElement>(".save-state")
  const done = document.getElementById("done")
  const intro = document.getElementById("intro")
  const study = document.getElementById("study")
  const consentBoxes = Array.from(document.querySelectorAll<HTMLInputElement>('input[name="_consent"]'))
  const consentError = study?.querySelector<HTMLElement>(".consent-error") ?? null
  const progress = document.querySelector<HTMLElement>(".progress")
  const backButton = form.querySelector<HTMLButtonElement>("button.back")
  const submitButton = form.querySelector<HTMLButtonElement>("button.submit")
  const enterHint = form.querySelector<HTMLElement>(".nav-hint")
  const customScript = document.querySelector<HTMLIFrameElement>("iframe.custom-script")
  const defaultSubmitLabel = submitButton?.textContent ?? strings.submit
  const editAction = done?.querySelector<HTMLElement>(".edit-action") ?? null
  const submitLabel = () => (editingCompleted ? strings.saveEdit : defaultSubmitLabel)
  // "Submit another response" on a form that allows editing: the next load starts a new response
  // instead of reopening the completed one (the flag lives for this tab's next page only).
  const anotherKey = `folio-another:${data.slug}`
  let skipResume = false
  try {
    skipResume = sessionStorage.getItem(anotherKey) === "1"
    sessionStorage.removeItem(anotherKey)
  } catch {
    skipResume = false
  }
  const reduceMotion = data.reduceMotion || matchMedia("(prefers-reduced-motion: reduce)").matches
  if (reduceMotion) document.body.classList.add("reduce-motion")

  /**
   * Lifecycle events for the author's sandboxed script: never an answer. They wait until its frame
   * says it is ready (its document announces itself on load, and answers a ping if it loaded first).
   */
  const pending: Array<Record<string, unknown>> = []
  let frameReady = false
  const notify = (event: string, detail: Record<string, number> = {}) => {
    if (customScript === null) return
    pending.push({ folio: event, ...detail })
    if (frameReady) flushEvents()
  }
  const flushEvents = () => {
    for (const message of pending.splice(0)) customScript?.contentWindow?.postMessage(message, "*")
  }
  if (customScript !== null) {
    window.addEventListener("message", (e) => {
      if (e.source !== customScript.contentWindow || (e.data as { folio?: unknown })?.folio !== "ready")
        return
      frameReady = true
      flushEvents()
    })
    customScript.contentWindow?.postMessage({ folio: "ping" }, "*")
  }

  // ---- answers, logic and derived values ---------------------------------------------------------
  const sections = Array.from(form.querySelectorAll<HTMLElement>("section.q"))
  const blockIdsOf = (section: HTMLElement): Array<string> =>
    section.dataset.matrix !== undefined
      ? Array.from(section.querySelectorAll<HTMLElement>("tr.matrix-row")).map((r) => r.dataset.block ?? "")
      : [section.dataset.block ?? ""]

  const collect = (): Record<string, AnswerValue> => {
    const out: Record<string, AnswerValue> = {}
    for (const block of definition.blocks) {
      const v = readAnswer(form, block, uploads, touched)
      if (v !== undefined) out[block.id] = v
    }
    return out
  }
  let answers: Record<string, AnswerValue> = {}
  let visible: ReadonlySet<string> = new Set()

  const displayValue = (block: Block | undefined, value: AnswerValue | undefined): string => {
    if (value === undefined) return ""
    const label = (id: string) =>
      block !== undefined && "options" in block && block.options !== undefined && "choices" in block.options
        ? (block.options.choices.find((c) => c.id === id)?.label ?? id)
        : id
    if (Array.isArray(value)) return value.map(label).join(", ")
    return typeof value === "string" ? label(value) : String(value)
  }

  /** Re-evaluates branching and derived fields, and shows what the respondent would now see. */
  const refresh = () => {
    answers = collect()
    const derived: Record<string, AnswerValue> = { ...answers }
    deriveAnswers(definition, derived, params)
    visible = visibleBlocks(definition, derived as Answers)
    for (const section of sections) {
      const ids = blockIdsOf(section)
      if (section.dataset.matrix !== undefined) {
        for (const row of Array.from(section.querySelectorAll<HTMLElement>("tr.matrix-row"))) {
          const shown = visible.has(row.dataset.block ?? "")
          row.hidden = !shown
          const err = row.nextElementSibling
          if (err instanceof HTMLElement) err.hidden = !shown
        }
      }
      section.classList.toggle("off-path", !ids.some((id) => visible.has(id)))
    }
    for (const out of Array.from(form.querySelectorAll<HTMLOutputElement>("output.calc-value"))) {
      const id = out.id.slice(4)
      const v = derived[id]
      out.textContent = v === undefined ? "–" : String(v)
    }
    for (const ref of Array.from(form.querySelectorAll<HTMLElement>("span.ref"))) {
      const id = ref.dataset.ref ?? ""
      ref.textContent = displayValue(blocks.get(id), derived[id])
    }
    render()
  }

  // ---- errors --------------------------------------------------------------------------------------
  const showError = (blockId: string, rule: string | undefined) => {
    const err = document.getElementById(`err-${blockId}`)
    if (err !== null) {
      err.textContent = rule === undefined ? "" : ruleMessage(strings, rule)
      err.hidden = rule === undefined
    }
    const targets = form.querySelectorAll<HTMLElement>(
      `#q-${CSS.escape(blockId)} input:not([type=hidden]), #q-${CSS.escape(blockId)} select, #q-${CSS.escape(blockId)} textarea, tr.matrix-row[data-block="${CSS.escape(blockId)}"] input`
    )
    for (const t of Array.from(targets)) {
      if (rule === undefined) t.removeAttribute("aria-invalid")
      else t.setAttribute("aria-invalid", "true")
    }
  }

  /** The rule a shown block breaks right now (required, or its value rule), if any. */
  const problemOf = (id: string): string | undefined => {
    const block = blocks.get(id)
    if (block === undefined || !visible.has(id)) return undefined
    const value = answers[id]
    if (value === undefined) return block.required ? "required" : undefined
    return checkAnswer(block, value)
  }

  const checkSections = (list: ReadonlyArray<HTMLElement>): HTMLElement | undefined => {
    let firstBad: HTMLElement | undefined
    for (const section of list) {
      for (const id of blockIdsOf(section)) {
        const rule = problemOf(id)
        showError(id, rule)
        if (rule !== undefined && firstBad === undefined) firstBad = section
      }
    }
    return firstBad
  }

  // ---- steps (classic, conversational) and pages (document) ----------------------------------------
  const isStep = (s: HTMLElement) => !s.classList.contains("off-path") && !NON_STEP.has(s.dataset.type ?? "")
  const steps = () => sections.filter(isStep)
  const pages = (): Array<Array<HTMLElement>> => {
    const out: Array<Array<HTMLElement>> = [[]]
    for (const node of Array.from(form.querySelectorAll<HTMLElement>("section.q, hr.page-break"))) {
      if (
        node.tagName === "HR" ||
        (node.dataset.break !== undefined && (out[out.length - 1]?.length ?? 0) > 0)
      ) {
        if ((out[out.length - 1]?.length ?? 0) > 0) out.push([])
        if (node.tagName === "HR") continue
      }
      out[out.length - 1]?.push(node)
    }
    return out.filter((p) => p.length > 0)
  }
  let current: HTMLElement | undefined
  let pageIndex = 0
  let showingIntro = data.hasIntro && mode !== "document"
  /** The completion screen is showing. */
  let finished = false
  /** The response is completed and reopened: edits are sent on submit only, never autosaved. */
  let editingCompleted = false
  /** A soft_block repeat: the form waits behind the confirmation. */
  let awaitingConfirmation = false
  /** Research compliance: the questions wait until every consent item is accepted. */
  let showingConsent = data.consent && study !== null

  const focusSection = (section: HTMLElement | undefined) => {
    if (section === undefined) return
    const control = Array.from(
      section.querySelectorAll<HTMLElement>(
        "input:not([type=hidden]):not([disabled]), select, textarea, li.rank-item, button:not([disabled])"
      )
    ).find((c) => c.checkVisibility())
    const target = control ?? section
    if (target === section) section.tabIndex = -1
    target.focus({ preventScroll: false })
    if (!reduceMotion) section.scrollIntoView({ block: "nearest", behavior: "smooth" })
  }

  const render = () => {
    document.documentElement.classList.add("enhanced")
    // A document shows its intro above the questions; the step modes show it alone, before them.
    if (intro !== null) intro.hidden = finished || (mode !== "document" && !showingIntro)
    if (study !== null) study.hidden = finished || showingIntro || !showingConsent
    form.hidden = showingIntro || showingConsent || awaitingConfirmation || finished
    if (mode === "document") {
      const all = pages()
      pageIndex = Math.min(pageIndex, all.length - 1)
      for (const s of sections) s.hidden = s.classList.contains("off-path")
      all.forEach((page, i) => {
        for (const s of page) if (i !== pageIndex) s.hidden = true
      })
      const last = pageIndex >= all.length - 1
      if (submitButton !== null) submitButton.textContent = last ? submitLabel() : strings.next
      if (backButton !== null) backButton.hidden = pageIndex === 0
      setProgress(
        all.length > 1 ? fill(strings.page, { n: pageIndex + 1, total: all.length }) : "",
        (pageIndex + 1) / all.length
      )
      return
    }
    const list = steps()
    if (current === undefined || !list.includes(current))
      current = list.find((s) => !isAnswered(s)) ?? list[0]
    const at = current === undefined ? -1 : list.indexOf(current)
    for (const s of sections) {
      const before = list.indexOf(s) >= 0 && list.indexOf(s) < at
      s.hidden = !(s === current || (mode === "conversational" && before))
      s.classList.toggle("answered", mode === "conversational" && before)
      s.classList.toggle("current", s === current)
    }
    // A titled page break or divider heads the step after it: shown while that step is.
    for (const s of sections) {
      if (!s.classList.contains("q-heading")) continue
      const from = sections.indexOf(s)
      const step = sections.slice(from + 1).find((n) => list.includes(n))
      s.hidden = s.classList.contains("off-path") || step === undefined || step.hidden
    }
    const last = at === list.length - 1
    if (submitButton !== null) submitButton.textContent = last ? submitLabel() : strings.next
    if (backButton !== null) backButton.hidden = at <= 0
    if (enterHint !== null) enterHint.hidden = false
    setProgress(
      fill(strings.progress, { n: at + 1, total: list.length }),
      (at + 1) / Math.max(1, list.length)
    )
  }

  const setProgress = (text: string, fraction: number) => {
    if (progress === null) return
    progress.hidden = text === ""
    const label = progress.querySelector(".progress-text")
    if (label !== null && label.textContent !== text) label.textContent = text
    const bar = progress.querySelector<HTMLElement>(".progress-bar span")
    if (bar !== null) bar.style.width = `${Math.round(fraction * 100)}%`
  }

  const isAnswered = (section: HTMLElement) =>
    blockIdsOf(section).every((id) => {
      const block = blocks.get(id)
      return block === undefined || !visible.has(id) || answers[id] !== undefined || !isInput(block)
    }) && !["statement", "image", "calculated_field"].includes(section.dataset.type ?? "")

  const isInput = (b: Block) =>
    !["statement", "page_break", "divider", "image", "calculated_field", "hidden_field"].includes(b.type)

  const next = () => {
    refresh()
    if (mode === "document") {
      const all = pages()
      const bad = checkSections(all[pageIndex] ?? [])
      if (bad !== undefined) return focusSection(bad)
      if (pageIndex >= all.length - 1) return void submit()
      pageIndex++
      render()
      notify("step", { step: pageIndex + 1 })
      return focusSection(pages()[pageIndex]?.[0])
    }
    if (current === undefined) return void submit()
    // A ranking the respondent saw and accepted as shown is answered.
    for (const id of blockIdsOf(current)) if (blocks.get(id)?.type === "ranking") touched.add(id)
    refresh()
    const bad = checkSections([current])
    if (bad !== undefined) return focusSection(bad)
    scheduleSave(0)
    const list = steps()
    const at = list.indexOf(current)
    if (at >= list.length - 1) return void submit()
    current = list[at + 1]
    render()
    notify("step", { step: at + 2 })
    focusSection(current)
  }

  const back = () => {
    if (mode === "document") {
      pageIndex = Math.max(0, pageIndex - 1)
      render()
      return focusSection(pages()[pageIndex]?.[0])
    }
    const list = steps()
    const at = current === undefined ? 0 : list.indexOf(current)
    current = list[Math.max(0, at - 1)]
    render()
    focusSection(current)
  }

  // ---- the response: start or resume, autosave, complete ------------------------------------------
  let response: { id: string; token: string } | null = null
  let starting: Promise<{ id: string; token: string } | null> | null = null
  let saveTimer: ReturnType<typeof setTimeout> | undefined
  let queue: Promise<unknown> = Promise.resolve()
  let completing = false
  let dirty = false

  const { say } = makeBanner(banner)

  const applyPresentation = (order: Started["presentation"]) => {
    if (order === null) return
    for (const [blockId, ids] of Object.entries(order.choices)) {
      const scope = document.getElementById(`q-${blockId}`)
      const list = scope?.querySelector("ul.choices, ol.ranking, select")
      if (list === null || list === undefined) continue
      const attrName = list.tagName === "SELECT" ? "value" : "data-choice"
      for (const id of ids) {
        const item = Array.from(list.children).find((c) => c.getAttribute(attrName) === id)
        if (item !== undefined) list.appendChild(item)
      }
      const other = list.querySelector('[data-choice="__other__"]')
      if (other !== null) list.appendChild(other)
    }
    for (const ids of Object.values(order.groups)) {
      // A group's members trade places among the slots they hold: sections among sections, and the
      // rows of one matrix among that matrix's rows (each row with its error row), so the rows show
      // in the recorded order. Members of different kinds cannot trade places with each other.
      const units = new Map<Element | null, Array<{ id: string; nodes: Array<Element> }>>()
      for (const id of ids) {
        const section = document.getElementById(`q-${id}`)
        const row = form.querySelector(`tr.matrix-row[data-block="${CSS.escape(id)}"]`)
        const nodes: Array<Element> =
          section !== null
            ? [section]
            : row !== null
              ? [row, ...(row.nextElementSibling?.matches("tr.matrix-error") ? [row.nextElementSibling] : [])]
              : []
        const first = nodes[0]
        if (first === undefined) continue
        const list = units.get(first.parentElement) ?? []
        list.push({ id, nodes })
        units.set(first.parentElement, list)
      }
      for (const members of units.values()) {
        const slots = [...members].sort((a, b) =>
          (a.nodes[0] as Element).compareDocumentPosition(b.nodes[0] as Element) &
          Node.DOCUMENT_POSITION_FOLLOWING
            ? -1
            : 1
        )
        const markers = slots.map((slot) => {
          const marker = document.createComment("slot")
          slot.nodes[0]?.before(marker)
          for (const node of slot.nodes) node.remove()
          return marker
        })
        markers.forEach((marker, i) => {
          const member = members[i]
          if (member !== undefined) marker.replaceWith(...member.nodes)
        })
      }
    }
    sections.splice(0, sections.length, ...Array.from(form.querySelectorAll<HTMLElement>("section.q")))
    for (const list of rankingLists) list.renumber()
  }

  const begin = async (
    confirmRepeat: boolean,
    startIfNone = true
  ): Promise<{ id: string; token: string } | null> => {
    if (!confirmRepeat && data.mayResume && !skipResume) {
      const resumed = await api.resume()
      if (resumed.status === 200 && resumed.data !== undefined) {
        const r = resumed.data
        applyPresentation(r.presentation)
        for (const [id, value] of Object.entries(r.answers ?? {})) {
          const block = blocks.get(id)
          if (block !== undefined) writeAnswer(form, block, value, uploads, touched)
        }
        for (const widget of uploadWidgets) widget?.render()
        // Continue at the first question still open.
        current = undefined
        refresh()
        const mine = { id: r.responseId, token: r.token }
        if (r.status === "completed") {
          // A completed response of a form that allows editing: its completion screen, with the
          // action that reopens it (the answers are in the form already).
          response = mine
          editingCompleted = true
          showDone()
          return mine
        }
        if (Object.keys(r.answers ?? {}).length > 0) say(strings.resumed)
        return mine
      }
      if (resumed.status === 410) return closed(resumed.error?.message)
    }
    if (!startIfNone) return null
    const consent = consentBoxes.filter((b) => b.checked).map((b) => b.value)
    const started = await api.start(params, confirmRepeat, data.consent ? consent : undefined)
    if (started.status === 201 && started.data !== undefined) {
      applyPresentation(started.data.presentation)
      if (started.data.repeatWarning) say(strings.repeatWarning, "warn")
      notify("start")
      refresh()
      return { id: started.data.responseId, token: started.data.token }
    }
    if (started.status === 409 && started.error?.details?.reason === "repeat_response") {
      const again = document.createElement("button")
      again.type = "button"
      again.className = "button primary"
      again.textContent = strings.answerAgain
      again.addEventListener("click", () => {
        awaitingConfirmation = false
        banner?.replaceChildren()
        starting = begin(true).then((r) => (response = r))
        void starting.then(() => focusSection(current ?? sections[0]))
      })
      say(strings.repeatConfirm, "warn", again)
      awaitingConfirmation = true
      form.hidden = true
      again.focus()
      return null
    }
    if (started.status === 410) return closed(started.error?.message)
    if (started.status === 400 && started.error?.details?.issues?.some((i) => i.path[0] === "consent")) {
      // The items changed since the page was shown, or a box was unticked meanwhile: ask again.
      askConsent(true)
      return null
    }
    say(strings.saveFailed, "error")
    return null
  }

  /** Shows the consent items again (with their error), the questions hidden behind them. */
  const askConsent = (error: boolean) => {
    showingConsent = true
    if (consentError !== null) consentError.hidden = !error
    render()
    const first = consentBoxes.find((b) => !b.checked) ?? consentBoxes[0]
    first?.focus()
  }

  const closed = (message: string | undefined) => {
    form.hidden = true
    say(message ?? strings.closedBody, "error")
    return null
  }

  const ensureStarted = async () => {
    if (response !== null) return response
    if (starting === null) starting = begin(false).then((r) => (response = r))
    return starting
  }

  /** What is sent: shown blocks whose values pass their rule (a half-typed email waits). */
  const sendable = (): Record<string, AnswerValue> => {
    const out: Record<string, AnswerValue> = {}
    for (const [id, value] of Object.entries(answers)) {
      const block = blocks.get(id)
      if (block !== undefined && visible.has(id) && checkAnswer(block, value) === undefined) out[id] = value
    }
    return out
  }

  /**
   * What a save or a completion sends: the answers as they stand, and null for every other question,
   * so an answer the respondent cleared (or made invalid) is cleared on the server too; the server
   * keeps earlier answers a write leaves out.
   */
  const answersBody = (): Record<string, AnswerValue | null> => {
    const out: Record<string, AnswerValue | null> = { ...sendable() }
    for (const block of definition.blocks) if (isInput(block) && !(block.id in out)) out[block.id] = null
    return out
  }

  const scheduleSave = (delay = SAVE_DELAY_MS) => {
    if (completing || editingCompleted) return
    dirty = true
    clearTimeout(saveTimer)
    saveTimer = setTimeout(() => {
      queue = queue.then(save)
    }, delay)
  }

  const save = async () => {
    if (completing || !dirty) return
    const r = await ensureStarted()
    if (r === null || completing) return
    dirty = false
    if (saveState !== null) {
      saveState.hidden = false
      saveState.textContent = strings.saving
    }
    const reply = await api.save(r.id, r.token, answersBody())
    if (saveState !== null) saveState.textContent = reply.status === 200 ? strings.saved : strings.saveFailed
    if (reply.status === 403) {
      // Another tab resumed this response and holds its token now: take it back.
      response = null
      starting = null
      dirty = true
    }
  }

  const submit = async () => {
    refresh()
    const bad = checkSections(sections.filter((s) => !s.classList.contains("off-path")))
    if (bad !== undefined) {
      if (mode === "document") {
        pageIndex = pages().findIndex((p) => p.includes(bad))
      } else current = bad
      render()
      return focusSection(bad)
    }
    if (submitButton !== null) submitButton.disabled = true
    completing = true
    clearTimeout(saveTimer)
    await queue
    const r = await ensureStarted()
    if (r === null) {
      completing = false
      if (submitButton !== null) submitButton.disabled = false
      return
    }
    let reply = await api.complete(r.id, r.token, answersBody())
    if (reply.status === 403) {
      response = null
      starting = null
      const again = await ensureStarted()
      if (again !== null) reply = await api.complete(again.id, again.token, answersBody())
    }
    if (submitButton !== null) submitButton.disabled = false
    if (reply.status === 200) return finish(reply.data?.quizzes ?? [], reply.data?.withdrawalPath)
    completing = false
    if (reply.status === 422 && reply.error?.details?.issues !== undefined) {
      let first: HTMLElement | undefined
      for (const issue of reply.error.details.issues as ReadonlyArray<Issue>) {
        const id = String(issue.path[1] ?? "")
        showError(id, issue.rule)
        const section = sections.find((s) => blockIdsOf(s).includes(id))
        if (first === undefined && section !== undefined) first = section
      }
      say(strings.fixErrors, "error")
      if (first !== undefined) {
        if (mode === "document")
          pageIndex = Math.max(
            0,
            pages().findIndex((p) => p.includes(first as HTMLElement))
          )
        else current = first
        render()
        focusSection(first)
      }
      return
    }
    if (reply.status === 410) return void closed(reply.error?.message)
    say(strings.submitFailed, "error")
  }

  const finish = (quizzes: ReadonlyArray<QuizResult>, withdrawalPath: string | undefined) => {
    // An edit is not a second completion for the author's script.
    if (!editingCompleted) notify("complete")
    showWithdrawalLink(done, withdrawalPath)
    if (study !== null) study.hidden = true
    const redirect = data.completion.redirectUrl
    if (redirect !== undefined && /^https?:/i.test(redirect)) {
      location.assign(redirect)
    }
    if (data.allowEditing) editingCompleted = true
    showDone(quizzes)
  }

  /** The completion screen, with "Edit your response" when the form allows editing. */
  const showDone = (quizzes: ReadonlyArray<QuizResult> = []) => {
    finished = true
    form.hidden = true
    if (intro !== null) intro.hidden = true
    if (progress !== null) progress.hidden = true
    banner?.replaceChildren()
    if (saveState !== null) saveState.hidden = true
    if (editAction !== null) editAction.hidden = !(data.allowEditing && response !== null)
    if (done !== null) {
      // An edit's completion replaces the results the first one showed.
      done.querySelector(".quiz-results")?.remove()
      const results = quizResultsView(definition, quizzes, strings)
      if (results !== null) done.querySelector(".done-body")?.after(results)
      done.hidden = false
      done.focus()
    }
  }

  /** Reopens the completed response: the form with the submitted answers, from its first step. */
  const reopen = () => {
    finished = false
    completing = false
    editingCompleted = true
    if (done !== null) done.hidden = true
    pageIndex = 0
    current = undefined
    refresh()
    current = steps()[0]
    render()
    focusSection(mode === "document" ? pages()[0]?.[0] : current)
  }

  // ---- wiring ---------------------------------------------------------------------------------------
  const changed = () => {
    refresh()
    scheduleSave()
  }
  applyRunColours(document)
  enhanceOther(form, changed)
  const rankingLists = Array.from(form.querySelectorAll<HTMLOListElement>("ol.ranking")).map((list) =>
    enhanceRanking(list, strings, touched, changed)
  )
  for (const box of Array.from(form.querySelectorAll<HTMLElement>(".signature")))
    enhanceSignature(box, strings, changed)
  const uploadWidgets = Array.from(form.querySelectorAll<HTMLInputElement>('input[type="file"]')).map(
    (input) =>
      enhanceUpload(input, input.name, {
        strings,
        uploads,
        ensureStarted,
        upload: api.upload,
        showError,
        changed
      })
  )
  form.addEventListener("input", changed)
  form.addEventListener("change", changed)
  form.addEventListener("submit", (e) => {
    e.preventDefault()
    next()
  })
  backButton?.addEventListener("click", back)
  form.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" || e.shiftKey || e.isComposing) return
    const t = e.target
    if (t instanceof HTMLTextAreaElement && !(e.ctrlKey || e.metaKey)) return
    if (t instanceof HTMLButtonElement || t instanceof HTMLAnchorElement) return
    if (t instanceof HTMLInputElement && t.type === "file") return
    e.preventDefault()
    next()
  })
  window.addEventListener("pagehide", () => {
    if (dirty && response !== null && !completing) {
      // Last changes before the tab goes away; the save route takes JSON, which sendBeacon cannot label.
      void fetch(`/f/${encodeURIComponent(data.slug)}/responses/${response.id}`, {
        method: "PATCH",
        keepalive: true,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: response.token, answers: answersBody() })
      })
    }
  })
  editAction?.querySelector("button")?.addEventListener("click", reopen)
  done?.querySelector("a.another")?.addEventListener("click", () => {
    try {
      if (data.allowEditing) sessionStorage.setItem(anotherKey, "1")
    } catch {
      // Without storage the next load reopens the completed response instead.
    }
  })
  /** After the consent items (if any): the response starts and the first question shows. */
  const beginQuestions = async () => {
    render()
    focusSection(current)
    await ensureStarted()
    render()
    if (mode !== "document") focusSection(current)
  }
  const continueButton = study?.querySelector<HTMLButtonElement>("button.consent-continue")
  if (continueButton !== null && continueButton !== undefined) {
    continueButton.hidden = false
    continueButton.addEventListener("click", () => {
      if (consentBoxes.some((b) => !b.checked)) return askConsent(true)
      if (consentError !== null) consentError.hidden = true
      showingConsent = false
      void beginQuestions()
    })
  }
  for (const box of consentBoxes)
    box.addEventListener("change", () => {
      if (consentError !== null && consentBoxes.every((b) => b.checked)) consentError.hidden = true
    })
  const startButton = intro?.querySelector<HTMLButtonElement>("button.start")
  // A document shows its intro with the questions: there is nothing to start.
  if (startButton !== null && startButton !== undefined && mode !== "document") {
    startButton.hidden = false
    startButton.addEventListener("click", async () => {
      showingIntro = false
      if (showingConsent) return askConsent(false)
      render()
      focusSection(current)
      await ensureStarted()
      render()
      focusSection(current)
    })
  }
  refresh()
  notify("view")
  if (showingIntro) {
    startButton?.focus()
    // A returning browser of a form that allows editing may have completed it: ask before the
    // intro's button is pressed, so the completion screen comes first (nothing new is started).
    if (data.allowEditing && data.mayResume)
      starting = begin(false, false).then((r) => {
        response = r
        if (r === null) starting = null
        return r
      })
  } else if (showingConsent) {
    render()
    consentBoxes[0]?.focus()
  } else {
    void ensureStarted().then(() => {
      render()
      if (mode !== "document" && !finished) focusSection(current)
    })
  }
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot)
else boot()
