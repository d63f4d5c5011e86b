// A browser-like HTTP client for the console tests: keeps cookies by hand (as a browser would, from
// Set-Cookie), sends the app's Origin on posts unless told otherwise, never follows redirects (the
// tests look at them); and the ways into the console: a workspace's first owner through its setup
// link, and more people through invitations.
import { createSetupLink, createTenant, inviteAsOperator, type Role, type TenantRecord } from "@folio/domain"
import type { RunningApp } from "./app.js"

export interface SentCookie {
  readonly name: string
  readonly value: string
  /** The whole Set-Cookie line, for its attributes. */
  readonly line: string
}

export interface PostOptions {
  /** The Origin header: the app's by default; null sends none. */
  readonly origin?: string | null
  readonly headers?: Readonly<Record<string, string>>
}

export class ConsoleClient {
  readonly cookies = new Map<string, string>()
  /** Every Set-Cookie the client received, newest last. */
  readonly received: Array<SentCookie> = []

  /**
   * `base`: where requests go; `pageOrigin`: the Origin a page of the console sends (PUBLIC_ORIGIN,
   * which differs from `base` when the app's public origin is https and the test talks plain http).
   */
  constructor(
    readonly base: string,
    readonly pageOrigin: string = base
  ) {}

  private remember(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";")
      const at = pair.indexOf("=")
      const name = pair.slice(0, at).trim()
      const value = pair.slice(at + 1).trim()
      this.received.push({ name, value, line })
      const expired = /expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0\b/i.test(line)
      if (expired || value === "") this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ")
  }

  async get(path: string, headers: Readonly<Record<string, string>> = {}): Promise<Response> {
    const response = await fetch(`${this.base}${path}`, {
      redirect: "manual",
      headers: { cookie: this.cookieHeader(), ...headers }
    })
    this.remember(response)
    return response
  }

  /** GET a page and read it: its status, its HTML and its first CSRF token. */
  async page(path: string): Promise<{ status: number; html: string; csrf: string; response: Response }> {
    const response = await this.get(path)
    const html = await response.text()
    return { status: response.status, html, csrf: csrfOf(html), response }
  }

  async post(
    path: string,
    fields: Readonly<Record<string, string | ReadonlyArray<string>>>,
    options: PostOptions = {}
  ): Promise<Response> {
    const body = new URLSearchParams()
    for (const [name, value] of Object.entries(fields)) {
      for (const v of typeof value === "string" ? [value] : value) body.append(name, v)
    }
    const origin = options.origin === undefined ? this.pageOrigin : options.origin
    const response = await fetch(`${this.base}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: this.cookieHeader(),
        ...(origin === null ? {} : { origin }),
        ...options.headers
      },
      body
    })
    this.remember(response)
    return response
  }

  async postJson(path: string, body: unknown, csrf: string, options: PostOptions = {}): Promise<Response> {
    const origin = options.origin === undefined ? this.pageOrigin : options.origin
    const response = await fetch(`${this.base}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/json",
        cookie: this.cookieHeader(),
        "x-csrf-token": csrf,
        ...(origin === null ? {} : { origin }),
        ...options.headers
      },
      body: JSON.stringify(body)
    })
    this.remember(response)
    return response
  }

  /** GET `page`, then post `fields` to `action` with the page's CSRF token. */
  async submit(
    page: string,
    action: string,
    fields: Readonly<Record<string, string | ReadonlyArray<string>>> = {}
  ): Promise<Response> {
    const { csrf } = await this.page(page)
    return this.post(action, { csrf, ...fields })
  }

  /** The session cookie's value, whichever name it has. */
  session(): string | undefined {
    return this.cookies.get("folio_session") ?? this.cookies.get("__Host-folio_session")
  }
}

/** A client of the running app, whose posts carry the app's public origin. */
export const clientFor = (app: RunningApp) =>
  new ConsoleClient(`http://127.0.0.1:${app.config.port}`, app.config.publicOrigin)

export const csrfOf = (html: string): string => /name="csrf" value="([^"]*)"/.exec(html)?.[1] ?? ""

export const PASSWORD = "correct horse battery"

export interface Person {
  readonly client: ConsoleClient
  readonly email: string
  readonly password: string
}

/** Follows a link the domain made (`${publicOrigin}/...`) as a path of the app. */
const pathOfLink = (url: string) => new URL(url).pathname

const accept = async (app: RunningApp, url: string, fields: Readonly<Record<string, string>>) => {
  const client = clientFor(app)
  const path = pathOfLink(url)
  const page = await client.page(path)
  if (page.status !== 200) throw new Error(`the link's page answered ${page.status}`)
  const answer = await client.post(path, { csrf: page.csrf, ...fields })
  if (answer.status !== 303)
    throw new Error(`accepting the link answered ${answer.status}: ${await answer.text()}`)
  return client
}

/** A workspace and its first owner, signed in through the setup link. */
export const workspaceWithOwner = async (
  app: RunningApp,
  name: string,
  email = `owner-${Math.random().toString(36).slice(2, 10)}@example.test`
): Promise<{ tenant: TenantRecord; owner: Person }> => {
  const tenant = await app.run(createTenant(name))
  const { url } = await app.run(createSetupLink(tenant.id))
  const client = await accept(app, url, { email, displayName: "Owner", password: PASSWORD })
  return { tenant, owner: { client, email, password: PASSWORD } }
}

/** Someone invited to the workspace with `role` (by the operator), signed in by accepting. */
export const invitedPerson = async (
  app: RunningApp,
  tenantId: string,
  role: Role,
  email = `${role}-${Math.random().toString(36).slice(2, 10)}@example.test`
): Promise<Person> => {
  const { url } = await app.run(inviteAsOperator({ tenantId, email, role }))
  const client = await accept(app, url, { displayName: `A ${role}`, password: PASSWORD })
  return { client, email, password: PASSWORD }
}

/** Signs in with e-mail and password on a fresh client (or the one given). */
export const signIn = async (
  app: RunningApp,
  email: string,
  password: string,
  client = clientFor(app)
): Promise<{ client: ConsoleClient; response: Response }> => {
  const { csrf } = await client.page("/sign-in")
  const response = await client.post("/sign-in", { csrf, email, password })
  return { client, response }
}
