// Package pylab grades a lab written in Python in the page: the fencing
// lab's functions or the courier's, as leaselab grade grades a student's
// module, run by a browser's Pyodide (CPython in WebAssembly) on Python's
// own sqlite3, over files in Pyodide's file system.
//
// The page's worker loads Pyodide and gives it to Grade (globalThis.
// leaselabPyodide); Grade writes engine/grade's page adapter
// (grade.PageAdapter) into it, and the student's source as student.py,
// and grades it through a grade.Speaker, step by step, with the same
// tests as leaselab grade: the report is the native one, in Python's
// terms, with the SQL each call ran and both tables. Threads run one
// after another as they start (Pyodide starts none), so the tests of two
// programs at once are skipped, saying why. Each call runs within its
// budget, past which it is stopped where it stands and named; the
// grading ends there (grade.Options.StopAtHang), the tests before it kept.
//
// On other platforms the package is empty. The package serves the
// simulator's page and carries no compatibility promise.
package pylab
