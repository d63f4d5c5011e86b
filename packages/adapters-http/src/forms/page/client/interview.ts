// The interview chat page's script: resumes this browser's unfinished interview after a reload, or
// starts one from the intro (consent, locale, URL parameters); sends each message and shows the reply
// as it streams in; finishes on request; shows the done screen. The response token lives in memory
// only. The transcript is a polite live log, marked busy while a reply is being written.
import { showWithdrawalLink } from "./withdrawal-link.js"
import type { Strings } from "../strings.js"
import type { Reply } from "./api.js"
import { makeBanner } from "./banner.js"
import {
  type ChatMessage,
  type InterviewTurn,
  makeInterviewApi,
  type StartedInterview
} from "./interview-api.js"
import { makeProfile } from "./interview-profile.js"

interface PageData {
  readonly slug: string
  readonly locale: string
  /** The browser holds a continuity cookie (HttpOnly, so only the server can tell). */
  readonly mayResume: boolean
  readonly reduceMotion: boolean
  /** experience.liveProfile: the page shows what has been understood so far. */
  readonly liveProfile: boolean
  /** experience.allowRestart: the page offers to start over. */
  readonly allowRestart: boolean
  readonly disclosureRequired: boolean
  readonly interviewer: string | null
  readonly maxMessageLength: number
  readonly redirectUrl: string | null
  readonly strings: Strings
}

const byId = <E extends HTMLElement>(id: string, type: { new (): E }): E | null => {
  const node = document.getElementById(id)
  return node instanceof type ? node : null
}

const boot = () => {
  const dataNode = document.getElementById("folio-data")
  const intro = byId("intro", HTMLElement)
  const chat = byId("chat", HTMLElement)
  const log = byId("transcript", HTMLOListElement)
  const composer = byId("composer", HTMLFormElement)
  const input = byId("message", HTMLTextAreaElement)
  const sendButton = byId("send", HTMLButtonElement)
  const finishButton = byId("finish", HTMLButtonElement)
  const startButton = byId("start", HTMLButtonElement)
  const done = byId("done", HTMLElement)
  if (
    dataNode === null ||
    intro === null ||
    chat === null ||
    log === null ||
    composer === null ||
    input === null ||
    sendButton === null ||
    finishButton === null ||
    startButton === null ||
    done === null
  )
    return
  const data = JSON.parse(dataNode.textContent ?? "{}") as PageData
  const { strings } = data
  const api = makeInterviewApi(data.slug)
  const agree = byId("agree", HTMLInputElement)
  const consentBoxes = Array.from(document.querySelectorAll<HTMLInputElement>('input[name="_consent"]'))
  const consentError = document.querySelector<HTMLElement>("#study .consent-error")
  const banner = document.getElementById("banner")
  const typing = document.getElementById("typing")
  const progress = document.getElementById("progress")
  const main = document.getElementById("main")
  const restartButton = byId("restart", HTMLButtonElement)
  const profile = makeProfile(document.getElementById("profile"))
  const params: Record<string, string> = Object.fromEntries(new URLSearchParams(location.search))
  const reduceMotion = data.reduceMotion || matchMedia("(prefers-reduced-motion: reduce)").matches
  if (reduceMotion) document.body.classList.add("reduce-motion")
  document.documentElement.classList.add("enhanced")

  /** The interview in progress: its id and token (never stored anywhere but here). */
  let session: { readonly id: string; token: string } | null = null
  let busy = false

  // ---- what the page shows -----------------------------------------------------------------------
  const { say, quiet } = makeBanner(banner)

  const scrollTo = (node: Element) => {
    node.scrollIntoView({ block: "nearest", behavior: reduceMotion ? "auto" : "smooth" })
  }

  const bubble = (m: ChatMessage): HTMLLIElement => {
    const li = document.createElement("li")
    // The list is a log (its role): its items are messages, not list items.
    li.setAttribute("role", "none")
    li.className = `msg msg-${m.role}`
    li.dataset.id = m.id
    // Read before each message by screen readers; the bubbles' sides say it to the eye.
    const who = document.createElement("span")
    who.className = "sr-only"
    who.textContent = `${m.role === "user" ? strings.you : (data.interviewer ?? strings.interviewer)}: `
    const text = document.createElement("p")
    text.className = "msg-text"
    text.textContent = m.text
    li.append(who, text)
    return li
  }

  const append = (m: ChatMessage): HTMLLIElement => {
    const existing = Array.from(log.children).find(
      (c): c is HTMLLIElement => c instanceof HTMLLIElement && c.dataset.id === m.id
    )
    if (existing !== undefined) {
      const text = existing.querySelector(".msg-text")
      if (text !== null) text.textContent = m.text
      return existing
    }
    const li = bubble(m)
    log.append(li)
    scrollTo(li)
    return li
  }

  const setProgress = (fraction: number) => {
    if (progress === null) return
    const percent = Math.round(Math.min(1, Math.max(0, fraction)) * 100)
    progress.hidden = false
    const bar = progress.querySelector<HTMLElement>(".progress-bar")
    bar?.setAttribute("aria-valuenow", String(percent))
    const fill = progress.querySelector<HTMLElement>(".progress-bar span")
    if (fill !== null) fill.style.width = `${percent}%`
  }

  /** Waiting for the interviewer: the log is busy (read once complete), the typing cue shows. */
  const setBusy = (on: boolean) => {
    busy = on
    log.setAttribute("aria-busy", String(on))
    if (typing !== null) typing.hidden = !on
    for (const b of [sendButton, finishButton]) b.setAttribute("aria-disabled", String(on))
  }

  const showIntro = () => {
    main?.removeAttribute("aria-busy")
    intro.classList.remove("await-resume")
    intro.hidden = false
    chat.hidden = true
  }

  const showChat = (messages: ReadonlyArray<ChatMessage>, progressValue: number) => {
    main?.removeAttribute("aria-busy")
    intro.hidden = true
    chat.hidden = false
    composer.hidden = false
    log.replaceChildren()
    for (const m of messages) append(m)
    setProgress(progressValue)
    input.focus()
    if (!reduceMotion) scrollTo(composer)
  }

  const showDone = (withdrawalPath?: string) => {
    showWithdrawalLink(done, withdrawalPath)
    session = null
    setBusy(false)
    composer.hidden = true
    restartButton?.closest(".restart")?.setAttribute("hidden", "")
    if (typing !== null) typing.hidden = true
    setProgress(1)
    done.hidden = false
    done.focus()
    if (data.redirectUrl !== null && /^https?:/i.test(data.redirectUrl)) location.assign(data.redirectUrl)
  }

  // ---- starting and resuming ---------------------------------------------------------------------
  const begun = (r: StartedInterview) => {
    session = { id: r.responseId, token: r.token }
    // A new interview (a start or a restart) replaces the profile; a resume restores it.
    profile.reset(r.profile)
    restartButton?.closest(".restart")?.removeAttribute("hidden")
    showChat(r.messages, r.progress)
    if (r.done) showDone()
  }

  /** The server's copy of this browser's interview (after a reload, or when a reply got lost). */
  const resume = async (): Promise<Reply<StartedInterview>> => {
    const resumed = await api.resume()
    if (resumed.status === 200 && resumed.data !== undefined) begun(resumed.data)
    return resumed
  }

  const start = async (confirmRepeat: boolean) => {
    if (busy) return
    const accepted = agree?.checked === true
    if (data.disclosureRequired && !accepted) {
      agree?.setAttribute("aria-invalid", "true")
      say(strings.agreeFirst, "error")
      agree?.focus()
      return
    }
    agree?.removeAttribute("aria-invalid")
    // Research compliance: every consent item is ticked before the interview starts.
    const unticked = consentBoxes.find((b) => !b.checked)
    if (unticked !== undefined) {
      if (consentError !== null) consentError.hidden = false
      say(strings.consentRequired, "error")
      return unticked.focus()
    }
    if (consentError !== null) consentError.hidden = true
    busy = true
    startButton.setAttribute("aria-disabled", "true")
    intro.setAttribute("aria-busy", "true")
    const started = await api.start({
      params,
      locale: data.locale,
      acceptDisclosure: agree === null ? undefined : accepted,
      confirmRepeat,
      ...(consentBoxes.length === 0 ? {} : { consent: consentBoxes.map((b) => b.value) })
    })
    busy = false
    startButton.removeAttribute("aria-disabled")
    intro.removeAttribute("aria-busy")
    if (started.status === 201 && started.data !== undefined) {
      quiet()
      if (started.data.repeatWarning) say(strings.repeatWarning, "warn")
      return begun(started.data)
    }
    const reason = started.error?.details?.reason
    if (started.status === 409 && reason === "disclosure_required") {
      agree?.setAttribute("aria-invalid", "true")
      say(strings.agreeFirst, "error")
      return agree?.focus()
    }
    if (started.status === 409 && reason === "repeat_response") {
      const again = document.createElement("button")
      again.type = "button"
      again.className = "button primary"
      again.textContent = strings.answerAgain
      again.addEventListener("click", () => {
        quiet()
        void start(true)
      })
      say(strings.repeatConfirm, "warn", again)
      return again.focus()
    }
    if (started.status === 400 && started.error?.details?.issues?.some((i) => i.path[0] === "consent"))
      return say(strings.consentRequired, "error")
    if (started.status === 410) return say(started.error?.message ?? strings.closedBody, "error")
    if (started.status === 429) return say(strings.tooManyMessages, "error")
    say(strings.startFailed, "error")
  }

  // ---- the conversation --------------------------------------------------------------------------
  /** The reply did not arrive whole: the server's transcript says what was kept. */
  const resync = async (text: string) => {
    const resumed = await resume()
    if (resumed.status !== 200) return false
    const last = Array.from(log.querySelectorAll(".msg-user .msg-text")).pop()
    return last?.textContent === text
  }

  const failedTurn = async (reply: Reply<InterviewTurn>, text: string, pending: HTMLLIElement) => {
    const reason = reply.error?.details?.reason
    const restore = () => {
      pending.remove()
      if (input.value.trim() === "") input.value = text
      input.focus()
    }
    if (reply.status === 409 && reason === "interview_finished") {
      pending.remove()
      say(strings.interviewEnded, "info")
      return showDone()
    }
    if (reply.status === 409 && reason === "interview_expired") {
      restore()
      session = null
      log.replaceChildren()
      showIntro()
      say(strings.interviewExpired, "warn")
      return startButton.focus()
    }
    if (reply.status === 0 || reply.status === 403 || reply.status === 409) {
      // The stream broke, or another tab took the interview over: take it back as the server has it.
      pending.remove()
      if (await resync(text)) return
      if (input.value.trim() === "") input.value = text
      input.focus()
      return say(strings.sendFailed, "error")
    }
    restore()
    if (reply.status === 429) return say(strings.tooManyMessages, "error")
    if (reply.status === 410) return say(reply.error?.message ?? strings.closedBody, "error")
    say(reply.status === 400 ? (reply.error?.message ?? strings.sendFailed) : strings.sendFailed, "error")
  }

  const send = async () => {
    if (busy || session === null) return
    const text = input.value.trim()
    if (text === "") {
      say(strings.typeFirst, "info")
      return input.focus()
    }
    quiet()
    input.value = ""
    // The respondent's message shows at once; the server's copy replaces it.
    const pending = append({ id: `pending-${Date.now()}`, role: "user", text })
    pending.classList.add("pending")
    setBusy(true)
    const current = session
    let reply: HTMLLIElement | undefined
    const result = await api.send(current.id, current.token, text, {
      onMessage: (m) => {
        pending.dataset.id = m.id
        pending.classList.remove("pending")
        append(m)
      },
      onDelta: (d) => {
        if (reply === undefined) reply = append({ id: d.id, role: "assistant", text: "" })
        const node = reply.querySelector(".msg-text")
        if (node !== null) node.textContent += d.text
        if (typing !== null) typing.hidden = true
        scrollTo(reply)
      }
    })
    if (result.status !== 200 || result.data === undefined) {
      reply?.remove()
      setBusy(false)
      return failedTurn(result, text, pending)
    }
    const turn = result.data
    pending.classList.remove("pending")
    for (const m of turn.messages) {
      if (m.role === "user") pending.dataset.id = m.id
      append(m)
    }
    setBusy(false)
    setProgress(turn.progress)
    profile.update(turn.profile)
    if (turn.done) return showDone(turn.withdrawalPath)
    if (document.activeElement === document.body || document.activeElement === null) input.focus()
  }

  const finish = async () => {
    if (busy || session === null) return
    setBusy(true)
    const current = session
    const result = await api.finish(current.id, current.token)
    setBusy(false)
    if (result.status === 200 && result.data !== undefined) {
      quiet()
      for (const m of result.data.messages) append(m)
      return showDone(result.data.withdrawalPath)
    }
    const reason = result.error?.details?.reason
    if (result.status === 409 && reason === "nothing_answered") {
      say(strings.nothingAnswered, "info")
      return input.focus()
    }
    if (result.status === 409 && reason === "interview_finished") return showDone()
    if (result.status === 409 && reason === "interview_expired") {
      session = null
      showIntro()
      say(strings.interviewExpired, "warn")
      return startButton.focus()
    }
    say(strings.finishFailed, "error")
  }

  /** Starts over: a new interview replaces this one on the page (the server keeps the old one partial). */
  const restart = async () => {
    if (busy || session === null) return
    setBusy(true)
    const current = session
    const result = await api.restart(current.id, current.token)
    setBusy(false)
    if (result.status === 201 && result.data !== undefined) {
      quiet()
      begun(result.data)
      return say(strings.restarted, "info")
    }
    const reason = result.error?.details?.reason
    if (result.status === 409 && reason === "interview_finished") return showDone()
    if (result.status === 409 && reason === "restart_not_allowed")
      return say(strings.restartNotOffered, "error")
    if (result.status === 410) return say(result.error?.message ?? strings.closedBody, "error")
    if (result.status === 429) return say(strings.tooManyMessages, "error")
    say(strings.restartFailed, "error")
  }

  // ---- wiring --------------------------------------------------------------------------------------
  startButton.addEventListener("click", () => void start(false))
  agree?.addEventListener("change", () => {
    if (agree.checked) agree.removeAttribute("aria-invalid")
  })
  composer.addEventListener("submit", (e) => {
    e.preventDefault()
    void send()
  })
  input.addEventListener("keydown", (e) => {
    // Enter sends; Shift+Enter is a new line; an input method composing (Korean, Japanese) keeps it.
    if (e.key !== "Enter" || e.shiftKey || e.isComposing || e.keyCode === 229) return
    e.preventDefault()
    void send()
  })
  input.maxLength = data.maxMessageLength
  finishButton.addEventListener("click", () => void finish())
  restartButton?.addEventListener("click", () => void restart())

  if (data.mayResume) {
    main?.setAttribute("aria-busy", "true")
    void resume().then((resumed) => {
      if (resumed.status === 200) return say(strings.interviewResumed, "info")
      showIntro()
      if (resumed.status === 409 && resumed.error?.details?.reason === "interview_expired")
        say(strings.interviewExpired, "warn")
    })
  }
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot)
else boot()
