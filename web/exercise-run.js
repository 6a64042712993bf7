// @ts-check
// exercise-run.js keeps what a coding exercise's Check (<lease-exercise>)
// hears from its grader while the grading runs (engine.js grade's
// onProgress): each test's verdict as the test ends, and the reader's
// call running last. A Check that its time limit ends (code that never
// returns: the grader's worker is ended, and its report never comes)
// still shows the tests that ran before, and the one it was stuck in.

/** @typedef {{name: string, status: string, why?: string}} Verdict */

const STATUSES = ['pass', 'fail', 'skip'];

/** What a Check has heard so far. */
export class Heard {
  /** @type {Verdict[]} the tests that ended, in order */
  tests = [];
  /** @type {{test: string, call: string} | null} the reader's call that ran last */
  last = null;

  /**
   * Hears one progress message: {test, call} before a call of the reader's
   * runs, {test, status, why} as a test ends. Anything else is ignored.
   * @param {unknown} p
   */
  hear(p) {
    if (!p || typeof p !== 'object') return;
    const { test, call, status, why } = /** @type {Record<string, unknown>} */ (p);
    if (typeof test !== 'string') return;
    if (typeof status === 'string' && STATUSES.includes(status)) {
      this.tests.push(typeof why === 'string' && why ? { name: test, status, why } : { name: test, status });
    } else if (typeof call === 'string') {
      this.last = { test, call };
    }
  }

  /**
   * The verdicts of a Check that was ended before its report came: those
   * heard, then the test of the last call, which never came back, failed
   * with why (unless that test's verdict was heard); none after it.
   * @param {string} why
   * @returns {Verdict[]}
   */
  stopped(why) {
    const tests = [...this.tests];
    const last = this.last;
    if (last && !tests.some((v) => v.name === last.test)) tests.push({ name: last.test, status: 'fail', why });
    return tests;
  }
}
