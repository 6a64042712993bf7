// The part of Node's modules that the npm package's build-time engine
// (npm/node-engine.js, npm/node-engine-worker.js) uses, as tsc sees it.
// Node's own types are not loaded: their globals (setTimeout's Timeout,
// process) would hold the page's modules to Node's, not the browser's.

declare module 'node:fs' {
  export function readFileSync(path: URL | string): Uint8Array<ArrayBuffer>;
}

declare module 'node:zlib' {
  export function gzipSync(data: string | Uint8Array, options?: { level?: number }): { toString(encoding: 'base64'): string };
}

declare module 'node:worker_threads' {
  export class MessagePort {
    postMessage(value: unknown): void;
    on(event: 'message', listener: (value: any) => void): this;
    unref(): void;
  }
  export class MessageChannel {
    port1: MessagePort;
    port2: MessagePort;
  }
  export class Worker {
    constructor(url: URL, options?: { workerData?: unknown; transferList?: unknown[] });
    unref(): void;
  }
  export function receiveMessageOnPort(port: MessagePort): { message: any } | undefined;
  export const workerData: any;
}
