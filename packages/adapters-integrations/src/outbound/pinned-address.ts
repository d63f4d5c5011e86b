// Where an outbound request may connect (shared by the webhook sender and the safe GET fetcher):
// the host is resolved once and refused whole when any address is one we never reach (private,
// loopback, link-local, special-purpose, in any spelling: SSRF), and the connection is pinned to
// the checked address, so no second lookup (DNS rebinding) can send it elsewhere.
import { lookup } from "node:dns/promises"
import { isIP, type LookupFunction } from "node:net"
import { canonicalAddress, isForbiddenAddress } from "@folio/domain"

export interface ResolvedAddress {
  readonly address: string
  readonly family: number
}

/** How a name is resolved: every address of it. */
export type ResolveName = (host: string) => Promise<ReadonlyArray<ResolvedAddress>>

export interface OutboundAddressOptions {
  /** Let 127.0.0.0/8 and ::1 through (an operator setting the tests use for their local servers). */
  readonly allowLoopback?: boolean | undefined
  /** The system's resolver unless a test says. */
  readonly resolveName?: ResolveName | undefined
}

const systemResolver: ResolveName = (host) => lookup(host, { all: true, verbatim: true })

/**
 * The address to connect to for `host` (a name, an IPv4 or a bracketed IPv6 literal), or undefined
 * when it must not be reached. A name that does not resolve rejects: callers report it like a
 * refused one, or their answers would tell which internal names exist.
 */
export const makeOutboundResolver = (options: OutboundAddressOptions = {}) => {
  const allowLoopback = options.allowLoopback === true
  const resolveName = options.resolveName ?? systemResolver
  return async (host: string): Promise<ResolvedAddress | undefined> => {
    const bare = host.replace(/^\[(.*)\]$/, "$1")
    const family = isIP(bare)
    const found = family !== 0 ? [{ address: bare, family }] : await resolveName(bare)
    if (found.length === 0 || found.some((a) => isForbiddenAddress(a.address, allowLoopback)))
      return undefined
    const first = found[0] as ResolvedAddress
    // An IPv4-mapped answer is dialled as the IPv4 address it is (also where IPv6 is off).
    const canonical = canonicalAddress(first.address)
    return canonical?.kind === "ipv4" && canonical.via === "mapped"
      ? { address: canonical.address, family: 4 }
      : first
  }
}

/**
 * A `lookup` for node:http(s) that answers only `target`. Node asks for every address (`all`) when
 * it races IPv4 and IPv6 (autoSelectFamily): either way it gets the one checked address.
 */
export const pinnedLookup =
  (target: ResolvedAddress): LookupFunction =>
  (_host, opts, callback) =>
    opts.all === true
      ? callback(null, [target])
      : // biome-ignore lint/suspicious/noExplicitAny: node's overloaded callback (address, family)
        (callback as any)(null, target.address, target.family)
