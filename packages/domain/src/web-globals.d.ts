// The few web-standard globals the pure domain uses. They exist in every modern JS runtime (Node,
// Deno, browsers, workers); declaring them here keeps the domain free of node and DOM typings.
declare class TextEncoder {
  encode(input?: string): Uint8Array
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean })
  decode(input?: Uint8Array, options?: { stream?: boolean }): string
}
declare function atob(data: string): string
declare function btoa(data: string): string
declare var URL: {
  new (
    url: string,
    base?: string
  ): {
    readonly protocol: string
    readonly username: string
    readonly password: string
    readonly hostname: string
    readonly href: string
    readonly origin: string
  }
  canParse(url: string, base?: string): boolean
}
