// Types of the remark plugin (npm/remark.js).

export interface LeaselabRemarkOptions {
  /** Make MDX JSX elements (default), or raw HTML nodes with false. */
  mdx?: boolean;
}

/** Turns each lease-timeline fence into <lease-timeline> at build time; a fence that cannot be read throws. */
// biome-ignore lint/suspicious/noExplicitAny: an mdast tree and a vfile, whose types this package does not depend on
declare function remarkLeaselab(options?: LeaselabRemarkOptions): (tree: any, file?: any) => void;
export default remarkLeaselab;
