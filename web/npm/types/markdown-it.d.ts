// Types of the markdown-it plugin (npm/markdown-it.js).

export interface LeaselabMarkdownItOptions {
  /**
   * The element carries v-pre (VitePress: Vue reads {{ }} as text), and an
   * exercise's code is in a <pre> (Vue drops a script from a template).
   */
  vue?: boolean;
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
// biome-ignore lint/suspicious/noExplicitAny: a markdown-it instance, whose types this package does not depend on
declare function leaselab(md: any, options?: LeaselabMarkdownItOptions): void;
export default leaselab;
