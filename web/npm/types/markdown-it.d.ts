// Types of the markdown-it plugin (npm/markdown-it.js).

export interface LeaselabMarkdownItOptions {
  /** The element carries v-pre (VitePress: Vue reads {{ }} as text). */
  vue?: boolean;
}

/** Turns each lease-timeline fence into <lease-timeline> at build time; a fence that cannot be read throws. */
// biome-ignore lint/suspicious/noExplicitAny: a markdown-it instance, whose types this package does not depend on
declare function leaselab(md: any, options?: LeaselabMarkdownItOptions): void;
export default leaselab;
