// Types of <lease-timeline> (lease-timeline.js): its properties, each
// reflecting the attribute of the same name, its methods and its events.

/** The parts a player draws (show). */
export type Part = 'lanes' | 'explain' | 'table' | 'sql' | 'verdicts' | 'editor' | 'export';

export interface ReadyDetail {
  steps: number;
  cursor: number;
  source: 'prerendered' | 'engine';
}
export interface StepDetail {
  cursor: number;
  steps: number;
}
export interface TimelineError {
  line: number;
  col: number;
  msg: string;
}
export interface ErrorDetail {
  line: number;
  col: number;
  message: string;
  errors: TimelineError[];
}
export interface SolvedDetail {
  mutant: string;
  step: number;
  line: number;
  text: string;
}

export interface LeaseTimelineEventMap extends HTMLElementEventMap {
  ready: CustomEvent<ReadyDetail>;
  step: CustomEvent<StepDetail>;
  error: CustomEvent<ErrorDetail> & ErrorEvent;
  solved: CustomEvent<SolvedDetail>;
}

export declare class LeaseTimeline extends HTMLElement {
  static observedAttributes: string[];
  /** The step the cursor starts at (attribute step); 0 when absent. */
  step: number;
  /** The parts drawn, space-separated (attribute show). */
  show: string;
  /** A worksheet's mutant (attribute mutant). */
  mutant: string;
  /** The timeline's name in messages and exports (attribute name). */
  name: string;
  /** A height: px or a CSS length (attribute height). */
  height: string;
  /** light, dark or auto (attribute theme). */
  theme: 'light' | 'dark' | 'auto';
  /** The file the text is read from (attribute src). */
  src: string;
  /** Plays once drawn (attribute autoplay). */
  autoplay: boolean;
  /** The author's timeline; set, it replaces the element's text; null gives it back. */
  text: string | null;
  /** Plays from the cursor (once the first run is on screen). */
  play(): void;
  /** Stops the clock where it is. */
  pause(): void;
  /** Moves the cursor to step n (0: before the first step), clamped. */
  seek(n: number): void;
  /** The author's text back, the cursor where it started. */
  reset(): void;
  /** The trace as JSON. */
  exportTrace(): string;
  /** The lanes as a standalone SVG file. */
  exportSVG(): string;
  /** A Go test file that replays the timeline with its expectations. */
  exportGoTest(): Promise<string>;
  addEventListener<K extends keyof LeaseTimelineEventMap>(
    type: K,
    listener: (this: LeaseTimeline, ev: LeaseTimelineEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof LeaseTimelineEventMap>(
    type: K,
    listener: (this: LeaseTimeline, ev: LeaseTimelineEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

/** Registers the element under name (default lease-timeline); returns the class registered under it. */
export declare function define(name?: string): CustomElementConstructor;

/** The site's scheme where it sets one, else "". */
export declare function siteScheme(doc: Document): 'dark' | 'light' | '';

declare global {
  interface HTMLElementTagNameMap {
    'lease-timeline': LeaseTimeline;
  }
}
