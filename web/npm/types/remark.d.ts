// Types of the remark plugin (npm/remark.js).

export interface LeaselabRemarkOptions {
  /** Make MDX JSX elements (default), or raw HTML nodes with false. */
  mdx?: boolean;
  /**
   * Embed each fence's trace in its element, computed by the engine under
   * Node as the site is built, so the page draws it without fetching the
   * engine (default true; no `leaselab prerender` needed).
   */
  prerender?: boolean;
}

/**
 * Turns each lease-timeline fence into <lease-timeline> at build time, its
 * trace embedded, and each lease-exercise fence into <lease-exercise>, its
 * starting code inside; a fence that cannot be read, or whose timeline the
 * engine refuses, throws, naming the page and line.
 */
// biome-ignore lint/suspicious/noExplicitAny: an mdast tree and a vfile, whose types this package does not depend on
declare function remarkLeaselab(options?: LeaselabRemarkOptions): (tree: any, file?: any) => void;
export default remarkLeaselab;
