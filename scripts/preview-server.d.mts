// Types for preview-server.mjs, which plain node runs (scripts/lighthouse.mjs) and tsx imports.
export declare const root: string;
export declare function buildAndServe(): Promise<{ url: string; stop(): void }>;
