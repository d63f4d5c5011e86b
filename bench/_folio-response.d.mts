import type { ServerResponse } from "node:http"

export declare const writeFolioResponse: (res: ServerResponse) => void
