// Which network addresses a webhook may reach. Every spelling of an address (dotted, hex, mapped,
// zero-compressed or not, any case) is parsed to one canonical value, the IPv4 address an IPv6 one
// carries is unwrapped, and the decision is made on that, with ipaddr.js's special-purpose ranges.
import ipaddr from "ipaddr.js"

type IPv4 = ReturnType<typeof ipaddr.IPv4.parse>
type IPv6 = ReturnType<typeof ipaddr.IPv6.parse>

/** How an IPv6 address carries an IPv4 one (RFC 4291, 6145, 6052/8215, 3056, 4380). */
export type Ipv4Embedding = "mapped" | "translated" | "compatible" | "nat64" | "6to4" | "teredo"

/** An address brought to one form: IPv4 (plain or unwrapped from IPv6), or IPv6. */
export type CanonicalAddress =
  | { readonly kind: "ipv4"; readonly address: string; readonly via: "plain" | Ipv4Embedding }
  | { readonly kind: "ipv6"; readonly address: string }

const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR("64:ff9b::/96")
/** RFC 8215's local-use NAT64 prefix: never globally reachable, whatever it carries. */
const NAT64_LOCAL = ipaddr.IPv6.parseCIDR("64:ff9b:1::/48")
/** The only IPv6 block IANA allocates for global unicast; everything outside it is special. */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR("2000::/3")

const ipv4Of = (high: number, low: number): IPv4 =>
  new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff])

/** The IPv4 address inside `a` and how it is carried, or undefined for a plain IPv6 address. */
const embeddedIpv4 = (a: IPv6): { readonly address: IPv4; readonly via: Ipv4Embedding } | undefined => {
  const [p0, p1, p2, p3, p4, p5, p6, p7] = a.parts as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number
  ]
  const zeros64 = p0 === 0 && p1 === 0 && p2 === 0 && p3 === 0
  if (zeros64 && p4 === 0 && p5 === 0xffff) return { address: ipv4Of(p6, p7), via: "mapped" }
  if (zeros64 && p4 === 0xffff && p5 === 0) return { address: ipv4Of(p6, p7), via: "translated" }
  // ::a.b.c.d (deprecated); :: and ::1 are IPv6's own unspecified and loopback addresses.
  if (zeros64 && p4 === 0 && p5 === 0 && !(p6 === 0 && p7 <= 1))
    return { address: ipv4Of(p6, p7), via: "compatible" }
  if (a.match(NAT64_WELL_KNOWN)) return { address: ipv4Of(p6, p7), via: "nat64" }
  if (p0 === 0x2002) return { address: ipv4Of(p1, p2), via: "6to4" }
  // Teredo: 2001:0:server:flags:port:client, the client's address with every bit flipped.
  if (p0 === 0x2001 && p1 === 0) return { address: ipv4Of(p6 ^ 0xffff, p7 ^ 0xffff), via: "teredo" }
  return undefined
}

const DOTTED_TAIL = /:(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/

/**
 * An IPv6 text with its trailing dotted quad as two hex words. ipaddr.js reads `::a.b.c.d` as
 * IPv4-mapped, where RFC 4291 (and the kernel, and the URL parser) read IPv4-compatible.
 */
const hexTail = (v6: string): string | undefined => {
  if (!v6.includes(".")) return v6
  const quad = DOTTED_TAIL.exec(v6)
  const octets = quad?.slice(1).map(Number)
  if (quad === null || octets === undefined || octets.some((o) => o > 255)) return undefined
  const [a = 0, b = 0, c = 0, d = 0] = octets
  return `${v6.slice(0, quad.index)}:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
}

/** `text` (an address, bracketed or not) in its canonical form, or undefined when it is not one. */
export const canonicalAddress = (text: string): CanonicalAddress | undefined => {
  const unbracketed = text.replace(/^\[(.*)\]$/, "$1")
  const bare = unbracketed.includes(":") ? hexTail(unbracketed) : unbracketed
  if (bare === undefined || !ipaddr.isValid(bare)) return undefined
  const parsed = ipaddr.parse(bare)
  if (parsed.kind() === "ipv4") return { kind: "ipv4", address: parsed.toString(), via: "plain" }
  const v6 = parsed as IPv6
  // A zone (fe80::1%eth0) names an interface of this host: never a receiver's address.
  if (v6.zoneId !== undefined) return undefined
  if (v6.match(NAT64_LOCAL)) return { kind: "ipv6", address: v6.toRFC5952String() }
  const inner = embeddedIpv4(v6)
  return inner === undefined
    ? { kind: "ipv6", address: v6.toRFC5952String() }
    : { kind: "ipv4", address: inner.address.toString(), via: inner.via }
}

const isLoopback = (a: CanonicalAddress): boolean =>
  a.kind === "ipv4"
    ? // Only the spellings the kernel connects to this host with: a translator's prefix (NAT64,
      // 6to4, Teredo, compatible) carrying 127.x leads somewhere else, never to the local receiver.
      (a.via === "plain" || a.via === "mapped") && ipaddr.IPv4.parse(a.address).range() === "loopback"
    : a.address === "::1"

/**
 * Whether a webhook may never reach this address: anything an IANA special-purpose registry
 * (IPv4 or IPv6) lists, or that is not globally reachable (private, loopback, link-local, CGNAT,
 * 0/8, benchmarking, documentation, 192.0.0/24, 192.88.99/24, 240/4, broadcast, multicast, ULA,
 * site-local, discard, ORCHID, ...), decided on the canonical address, so an IPv4 address is
 * judged the same however it is wrapped in IPv6. Text that is not an address is refused.
 * `allowLoopback` lets 127.0.0.0/8 and ::1 through (the tests' receiver), and nothing else.
 */
export const isForbiddenAddress = (text: string, allowLoopback = false): boolean => {
  const canonical = canonicalAddress(text)
  if (canonical === undefined) return true
  if (allowLoopback && isLoopback(canonical)) return false
  if (canonical.kind === "ipv4") return ipaddr.IPv4.parse(canonical.address).range() !== "unicast"
  const v6 = ipaddr.IPv6.parse(canonical.address)
  return !v6.match(GLOBAL_UNICAST) || v6.range() !== "unicast"
}

/** Whether a URL's host (as the WHATWG URL parser gives it) is an address rather than a name. */
export const isAddressLiteral = (host: string): boolean =>
  host.startsWith("[") || /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
