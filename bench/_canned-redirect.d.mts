export declare const CANNED_PATH: string
